"""A cell with ``execution = "local"`` in qmaster.toml runs qsub's jobs as real processes."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.cells import kill9, stop
from tests.e2e.localcells import accounting, local_cell_at, wait_file, wait_file_exists
from tests.e2e.other_user import nobody_ids, run_as

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def local_cell(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell in local execution mode, its daemon running."""
    yield from local_cell_at(request)


def test_qsub_b_y_writes_name_o_jobid_in_the_working_directory(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """qsub -cwd -b y echo ... runs echo: its output is in echo.o1 in the submit directory."""
    work = tmp_path / "work"
    work.mkdir()
    done = local_cell.run("qsub", "-cwd", "-b", "y", "echo", "hello", "$JOB_ID", cwd=work)
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'Your job 1 ("echo") has been submitted\n'
    assert wait_file(work / "echo.o1") == "hello 1\n"
    assert (work / "echo.e1").read_text() == ""


def test_a_script_job_runs_as_its_submitter(local_cell: RunningCell) -> None:
    """A job nobody submits runs as nobody (the daemon is root): its output file is nobody's."""
    if os.getuid() != 0:
        pytest.skip("switching to the job's owner needs a daemon running as root")
    uid, gid = nobody_ids()
    work = local_cell.cell.root.parent / "shared"
    work.mkdir()
    work.chmod(0o777)
    script = work / "job.sh"
    script.write_text("#!/bin/sh\nid -u\n")
    done = run_as(local_cell, uid, gid, "qsub", "-wd", str(work), "-N", "who", str(script))
    assert done.returncode == 0, done.stderr
    assert wait_file(work / "who.o1") == f"{uid}\n"
    assert (work / "who.o1").stat().st_uid == uid


@pytest.mark.parametrize("crash", [False, True], ids=["qmaster-stop", "kill-9"])
def test_jobs_run_on_through_a_qmaster_restart(
    local_cell: RunningCell, tmp_path: Path, crash: bool
) -> None:
    """A job that ends while the qmaster is down (stopped or killed) and one that ends after
    it is back are both accounted with their own exit status: the shepherds outlive it."""
    work = tmp_path / "w"
    work.mkdir()
    gate = work / "gate"
    for status, wait in ((5, "sleep 1"), (6, f"while [ ! -e {gate} ]; do sleep 0.1; done")):
        text = f"touch started.$JOB_ID\n{wait}\nexit {status}\n"
        (work / "job.sh").write_text(text)
        local_cell.run("qsub", "-cwd", "job.sh", cwd=work, check=True)
    wait_file_exists(work / "started.1")
    wait_file_exists(work / "started.2")
    (kill9 if crash else stop)(local_cell)
    time.sleep(1.5)  # job 1 ends while no qmaster runs
    local_cell.start()
    lines = accounting(local_cell)
    assert [(f[5], f[12], f[11]) for f in lines] == [("1", "5", "0")]
    assert local_cell.run("qstat").stdout.count(" r ") == 1
    gate.touch()
    lines = accounting(local_cell, 2)
    assert [(f[5], f[12], f[11]) for f in lines] == [("1", "5", "0"), ("2", "6", "0")]


def test_qsub_sync_y_exits_with_the_real_jobs_exit_status(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """qsub -sync y of a job that exits 3 waits for it and exits 3, as Grid Engine's qsub."""
    done = local_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "exit", "3", cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "Job 1 exited with exit code 3."
    assert done.returncode == 3
