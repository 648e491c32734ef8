"""The figures of a replay: percentiles, bounded slowdown, makespan, utilisation, groups."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.conf.store import ClusterConfig
from qmaster.sim import summary
from qmaster.sim.jobs import TraceJob
from qmaster.sim.results import JobResult, Results

EXAMPLE_CELL = Path(__file__).resolve().parents[3] / "examples" / "sim" / "cell"


def _result(
    n: int, submitted: float, start: float | None, end: float | None, **kw: object
) -> JobResult:
    job = TraceJob(n, submitted, 0.0, 1, str(kw.pop("user", "u1")), "g", 1, 1, f"j{n}")
    return JobResult(job, n, job_id=n, submitted=submitted, start=start, end=end, **kw)  # type: ignore[arg-type]


def test_percentiles_are_nearest_rank() -> None:
    """The median and p95 are values that occurred (nearest rank), never interpolated."""
    values = [float(v) for v in range(1, 21)]
    assert summary.percentile(values, 0.5) == 10.0
    assert summary.percentile(values, 0.95) == 19.0
    assert summary.percentile([7.0], 0.95) == 7.0
    assert summary.percentile([], 0.5) == 0.0


def test_bounded_slowdown_uses_tau_ten_seconds() -> None:
    """A 1-second job that waited 9 s has slowdown 1, not 10: runs shorter than 10 s count as 10."""
    assert summary.slowdown(9.0, 1.0) == 1.0
    assert summary.slowdown(100.0, 100.0) == 2.0
    assert summary.slowdown(0.0, 3.0) == 1.0


def test_summary_totals() -> None:
    """Makespan runs from the first submission to the last end; utilisation is slot-seconds used
    over slots times makespan; refused and never-started jobs are counted apart."""
    results = [
        _result(1, 0.0, 0.0, 100.0, slots=2, queue="all.q"),
        _result(2, 10.0, 50.0, 200.0, slots=1, queue="short.q", user="u2"),
        _result(3, 20.0, None, None),
        JobResult(TraceJob(4, 30, 1, 1, "u2", "g", 1, 1, "j4"), 3, submitted=30.0, refusal="no"),
    ]
    got = summary.summarise(Results.of(results), slots=4)
    assert got["makespan"] == 200.0
    assert got["utilisation"] == pytest.approx((2 * 100 + 150) / (4 * 200), abs=1e-6)
    assert (got["jobs"], got["ended"], got["refused"], got["not_started"]) == (4, 2, 1, 1)
    assert got["all"]["mean_wait"] == 20.0
    assert got["all"]["mean_bounded_slowdown"] == pytest.approx((1.0 + 190 / 150) / 2, abs=1e-3)
    assert sorted(got["per_queue"]) == ["all.q", "short.q"]
    assert got["per_user"]["u2"]["jobs"] == 2
    assert got["per_user"]["u2"]["ended"] == 1


def test_text_and_json_agree() -> None:
    """summary.txt and summary.json show the same numbers."""
    got = summary.summarise(
        Results.of([_result(1, 0.0, 5.0, 65.0, slots=1, queue="all.q")]), slots=1
    )
    text = summary.to_text(got)
    assert "makespan        65 s" in text
    assert "utilisation     92.31 %" in text
    assert '"mean_wait": 5.0' in summary.to_json(got)
    assert "user" in text
    assert "u1 " not in summary.to_text(got, users=False)


def test_capacity_counts_host_slots_once() -> None:
    """Three queues on a host of 8 slots (complex_values slots=8) give 8 slots, not 24."""
    assert summary.capacity(ClusterConfig.load_dir(EXAMPLE_CELL)) == 32
