"""qsub -sync y, -now y and -terse together against a cell whose jobs really run."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.localcells import local_cell_at, wait_file_exists

pytestmark = pytest.mark.timeout(120)

WAITING = "Waiting for immediate job to be scheduled.\n"


@pytest.fixture
def local_cell(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell in local execution mode, its daemon running."""
    yield from local_cell_at(request)


def test_terse_sync_prints_the_id_then_how_the_job_ended(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """qsub -terse -sync y: the job id alone, then 'Job 1 exited with exit code 3.'; exit 3."""
    done = local_cell.run("qsub", "-terse", "-sync", "y", "-b", "y", "exit", "3", cwd=tmp_path)
    assert (done.stdout, done.returncode) == ("1\nJob 1 exited with exit code 3.\n", 3)


def test_terse_sync_of_an_array_reports_each_task(local_cell: RunningCell, tmp_path: Path) -> None:
    """qsub -terse -sync y -t 1-3: '1.1-3:1', one line per task, the first non-zero code."""
    args = ["-terse", "-sync", "y", "-t", "1-3", "-b", "y", "exit", "$SGE_TASK_ID"]
    done = local_cell.run("qsub", *args, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == "1.1-3:1"
    assert sorted(lines[1:]) == [f"Job 1.{t} exited with exit code {t}." for t in (1, 2, 3)]
    assert done.returncode in (1, 2, 3)


def test_sync_of_a_held_job_deleted_ends_at_once(local_cell: RunningCell, tmp_path: Path) -> None:
    """qsub -sync y of a held job that is then deleted: 'Unable to run job 1', exit 0, as
    soon as it is gone (the qmaster says it never started: no record to wait for)."""
    args = ["qsub", "-terse", "-sync", "y", "-h", "-b", "y", "true"]
    waiting = subprocess.Popen(
        args, env=local_cell.env, cwd=tmp_path, stdout=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 20
        while "hqw" not in local_cell.run("qstat").stdout:
            assert time.monotonic() < deadline, "the held job did not appear"
            time.sleep(0.05)
        local_cell.run("qdel", "1", check=True)
        deleted = time.monotonic()
        stdout, _ = waiting.communicate(timeout=10)
        assert time.monotonic() - deleted < 3
    finally:
        waiting.kill()
    assert (stdout, waiting.returncode) == ("1\nUnable to run job 1\n", 0)


def test_now_y_starts_the_job_at_once(local_cell: RunningCell, tmp_path: Path) -> None:
    """qsub -now y on a cell with free slots: scheduled in the submission, its process runs."""
    done = local_cell.run("qsub", "-now", "y", "-cwd", "-b", "y", "touch", "ran", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'Your job 1 ("touch") has been submitted\n'
    assert done.stderr == f"{WAITING}\nYour immediate job 1 has been successfully scheduled.\n"
    wait_file_exists(tmp_path / "ran")


def test_terse_now_sync_combined(local_cell: RunningCell, tmp_path: Path) -> None:
    """qsub -terse -now y -sync y: the id, then the job's end; exit with its status."""
    args = ["-terse", "-now", "y", "-sync", "y", "-b", "y", "exit", "4"]
    done = local_cell.run("qsub", *args, cwd=tmp_path)
    assert (done.stdout, done.returncode) == ("1\nJob 1 exited with exit code 4.\n", 4)
    assert "Your immediate job 1 has been successfully scheduled." in done.stderr


def running_count(cell: RunningCell) -> int:
    return cell.run("qstat", check=True).stdout.count(" r ")


def test_now_y_on_a_full_cell_is_refused_and_never_runs(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """With every slot busy, qsub -now y exits 1 with Grid Engine's message; the job is
    gone and its command never runs, even once slots are free again."""
    local_cell.run("qsub", "-t", "1-16", "-b", "y", "sleep", "60", cwd=tmp_path, check=True)
    deadline = time.monotonic() + 30
    while running_count(local_cell) < 16:
        assert time.monotonic() < deadline, "the 16 sleeps did not all start"
        time.sleep(0.1)
    args = ["-terse", "-now", "y", "-cwd", "-b", "y", "touch", "ran"]
    done = local_cell.run("qsub", *args, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == "2\n"
    assert done.stderr == f"{WAITING}\nYour qsub request could not be scheduled, try again later.\n"
    local_cell.run("qdel", "1", check=True)
    shown = local_cell.run("qstat", "-j", "2")
    assert shown.returncode == 1
    assert "Following jobs do not exist" in shown.stderr
    assert not (tmp_path / "ran").exists()
