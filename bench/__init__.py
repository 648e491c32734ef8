"""Benchmarks: `make bench` runs `python -m bench`, printing ratios against baselines measured in the same run."""
