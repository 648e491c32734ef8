"""The plots' data: utilisation and queue length as steps, waits by job size class."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.sim import plots
from qmaster.sim.jobs import TraceJob
from qmaster.sim.results import JobResult, Results


def _result(
    n: int, slots: int, submitted: float, start: float | None, end: float | None
) -> JobResult:
    job = TraceJob(n, submitted, 0.0, slots, "u", "g", 1, 1, f"j{n}")
    return JobResult(job, n, job_id=n, submitted=submitted, start=start, end=end, slots=slots)


def test_steps_follow_submissions_starts_and_ends() -> None:
    """Queue length rises at submission and falls at start; slots in use follow start and end."""
    results = [_result(1, 2, 0.0, 0.0, 3600.0), _result(2, 2, 0.0, 3600.0, None)]
    hours, use, queued = plots.step_series(Results.of(results), slots=4)
    assert hours == [0.0, 1.0]
    assert use == [0.5, 0.5]
    assert queued == [1.0, 0.0]


def test_size_classes_are_powers_of_two() -> None:
    """Job sizes fall into 1, 2, 3-4, 5-8, ... in increasing order."""
    assert [plots.size_class(n) for n in (1, 2, 3, 4, 5, 8, 9, 128)] == [
        "1", "2", "3-4", "3-4", "5-8", "5-8", "9-16", "65-128",
    ]  # fmt: skip
    results = [_result(1, 8, 0.0, 3600.0, None), _result(2, 1, 0.0, 0.0, None)]
    assert plots.waits_by_size(Results.of(results)) == {"1": [0.0], "5-8": [1.0]}


def test_three_pngs_are_written(tmp_path: Path) -> None:
    """With matplotlib the three plots are written as PNG files."""
    pytest.importorskip("matplotlib")
    told = plots.write_plots(tmp_path, Results.of([_result(1, 1, 0.0, 10.0, 20.0)]), slots=1)
    assert told == "plots: utilisation.png, queue_length.png, wait_by_size.png"
    for name in ("utilisation.png", "queue_length.png", "wait_by_size.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
