"""``python -m bench qacct`` — how fast ``qacct`` reads a large accounting file.

Writes a 1,000,000-line accounting file (lines made by minige's own
accounting writer, one job per line, 50 hosts, 4 owners) in a temp directory
and runs the real ``qacct`` process over it: ``qacct -j N`` for a job in the
middle of the file, and the plain summary (``Total System Usage``). Each
figure is the median of a few runs, process start included, next to a
baseline measured in the same run: a plain Python loop that only counts the
lines of the same file. The target for ``-j N`` is ≥ 500,000 lines/s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Row, print_table
from qmaster.events.records import Acct

BASE_TIME = 1_700_000_000
TARGET = 500_000
OWNERS = ("alice", "bob", "carol", "dave")


def write_accounting(path: Path, lines: int) -> None:
    """An accounting file of ``lines`` records (job ``n`` on line ``n``)."""
    sample = Acct(
        0, "all.q", "HOST", "staff", "OWNER", "sleep", 999_999_999, "sge", 0,
        BASE_TIME, BASE_TIME + 1, BASE_TIME + 9, 0, 0, 8, ru_utime=0.5, cpu=0.5, mem=0.25,
        maxvmem=123_456_789.0,
    ).accounting_line()  # fmt: skip
    head, tail = sample.split(":999999999:")
    head = head.replace(":OWNER:", ":{owner}:").replace(":HOST:", ":node{host:03d}:")
    with path.open("w") as fh:
        for start in range(1, lines + 1, 10_000):
            block = [
                f"{head.format(owner=OWNERS[n % 4], host=n % 50)}:{n}:{tail}\n"
                for n in range(start, min(start + 10_000, lines + 1))
            ]
            fh.write("".join(block))


def baseline_seconds(path: Path) -> float:
    """A plain loop that only counts the lines of the file."""
    start = time.perf_counter()
    n = 0
    with path.open("rb") as fh:
        for _ in fh:
            n += 1
    return time.perf_counter() - start


def qacct_seconds(path: Path, *args: str, runs: int) -> float:
    """Median wall seconds of the real ``qacct -f path args`` (a failing run is an error)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "clients.qacct", "-f", str(path), *args],
            capture_output=True,
            check=False,
        )
        times.append(time.perf_counter() - start)
        if proc.returncode != 0 or not proc.stdout:
            raise RuntimeError(f"qacct {' '.join(args)} exited {proc.returncode}: {proc.stderr!r}")
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="qacct_bench")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    lines = args.lines
    with tempfile.TemporaryDirectory(prefix="minige-qacctbench-") as tmp:
        path = Path(tmp) / "accounting"
        write_accounting(path, lines)
        base = lines / statistics.median(baseline_seconds(path) for _ in range(args.runs))
        job = lines / qacct_seconds(path, "-j", str(lines // 2), runs=args.runs)
        summary = lines / qacct_seconds(path, runs=args.runs)
        grouped = lines / qacct_seconds(path, "-o", "-h", runs=args.runs)
    rows = [
        Row(f"qacct -j {lines // 2}", job, "lines/s", base, "count lines",
            f"≥ {TARGET:,} lines/s", job >= TARGET),
        Row("qacct (summary)", summary, "lines/s", base, "count lines"),
        Row("qacct -o -h (grouped)", grouped, "lines/s", base, "count lines"),
    ]  # fmt: skip
    print_table(f"qacct over a {lines:,}-line accounting file (process start included)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
