"""Million-task array jobs against a daemon process: one qstat line each, kept across a restart."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e import cells
from tests.e2e.test_commands_and_exit_codes import set_global

pytestmark = pytest.mark.timeout(120)


def _job_lines(cell: RunningCell) -> list[list[str]]:
    out = cell.run("qstat", check=True).stdout.splitlines()
    return [line.split() for line in out[2:]]


def _settled(cell: RunningCell) -> list[list[str]]:
    """qstat's lines once the second array's first 16 tasks run."""
    deadline = time.monotonic() + 30
    while True:
        lines = _job_lines(cell)
        if sum(line[4] == "r" for line in lines) >= 16:
            return lines
        assert time.monotonic() < deadline, lines
        time.sleep(0.2)


def test_a_million_task_array_is_one_qstat_line(stopped_cell: RunningCell, tmp_path: Path) -> None:
    """qsub -t 1-1000000: held, one hqw line 1-1000000:1; not held, 16 tasks run and the
    rest pend as one line 17-1000000:1; the same after a restart."""
    cell = stopped_cell
    cell.start()
    set_global(cell, tmp_path, "max_aj_tasks", "0")
    out = cell.run("qsub", "-b", "y", "-h", "-t", "1-1000000", "sleep", "1000", check=True)
    assert out.stdout == 'Your job-array 1.1-1000000:1 ("sleep") has been submitted\n'
    lines = _job_lines(cell)
    assert [(line[0], line[4], line[-1]) for line in lines] == [("1", "hqw", "1-1000000:1")]
    cell.run("qsub", "-b", "y", "-t", "1-1000000", "sleep", "1000", check=True)
    lines = _settled(cell)
    shown = [(line[0], line[4], line[-1]) for line in lines]
    running = [("2", "r", str(i)) for i in range(1, 17)]
    assert shown == [*running, ("1", "hqw", "1-1000000:1"), ("2", "qw", "17-1000000:1")]
    detail = cell.run("qstat", "-j", "1", check=True).stdout
    assert "job-array tasks:            1-1000000:1\n" in detail
    cells.stop(cell)
    cell.start()
    assert _job_lines(cell) == lines
