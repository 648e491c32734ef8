"""A cell with ``execution = "local"`` in qmaster.toml runs qsub's jobs as real processes."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell, create_cell, fail_on_internal_errors
from tests.e2e.cells import kill9, stop, stop_quietly
from tests.e2e.other_user import nobody_ids, run_as

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def local_cell(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell whose qmaster.toml says execution = "local", its daemon running, under
    a 0755 directory so that other users reach its socket."""
    base = Path(tempfile.mkdtemp(prefix="minige-local-"))
    base.chmod(0o755)
    running = create_cell(base / "sge")
    for path in (base / "sge", running.cell.path, running.cell.common, running.cell.spool):
        path.chmod(path.stat().st_mode | 0o055)
    running.cell.settings.write_text('execution = "local"\n')
    running.start()
    try:
        yield running
    finally:
        stop_quietly(running)
        shutil.rmtree(base, ignore_errors=True)
    fail_on_internal_errors(running.internal_errors(), request.node)


def wait_file(path: Path, timeout: float = 20.0) -> str:
    """The file's text once it has some."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()):
        if time.monotonic() > deadline:
            pytest.fail(f"{path} was not written")
        time.sleep(0.05)
    return path.read_text()


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


def accounting(cell: RunningCell, timeout: float = 20.0) -> list[list[str]]:
    """The accounting file's lines as fields, once it has one."""
    path = cell.cell.common / "accounting"
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text() if path.exists() else ""
        lines = [ln.split(":") for ln in text.splitlines() if ln and not ln.startswith("#")]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


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
    deadline = time.monotonic() + 20
    while len(lines) < 2 and time.monotonic() < deadline:
        lines = accounting(local_cell)
        time.sleep(0.1)
    assert [(f[5], f[12], f[11]) for f in lines] == [("1", "5", "0"), ("2", "6", "0")]


def wait_file_exists(path: Path, timeout: float = 20.0) -> None:
    """Wait until the file exists."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"{path} was not created")
        time.sleep(0.05)


def test_qsub_sync_y_exits_with_the_real_jobs_exit_status(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """qsub -sync y of a job that exits 3 waits for it and exits 3, as Grid Engine's qsub."""
    done = local_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "exit", "3", cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "Job 1 exited with exit code 3."
    assert done.returncode == 3
