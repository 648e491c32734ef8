"""Job lifecycle options as a Grid Engine user sees them: -now, holds, -a, stored requests."""

from __future__ import annotations

import time

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)


def _fill(cell: RunningCell) -> None:
    """Take all 16 slots of the default cell."""
    cell.run("qsub", "-pe", "mpi", "16", "-b", "y", "sleep", "1000", check=True)


def test_qsub_now_y_on_a_full_cell_is_refused(served: RunningCell) -> None:
    """qsub -now y without a free slot: submitted, then 'could not be scheduled', exit 1."""
    _fill(served)
    result = served.run("qsub", "-now", "y", "-b", "y", "sleep", "1")
    assert result.returncode == 1
    assert result.stdout == 'Your job 2 ("sleep") has been submitted\n'
    assert result.stderr == (
        "Waiting for immediate job to be scheduled.\n"
        "\nYour qsub request could not be scheduled, try again later.\n"
    )
    assert "sleep" not in served.run("qstat", "-j", "2").stdout
    terse = served.run("qsub", "-terse", "-now", "y", "-b", "y", "sleep", "1")
    assert (terse.returncode, terse.stdout) == (1, "3\n")


def test_qsub_now_y_with_room_is_scheduled(served: RunningCell) -> None:
    """qsub -now y on an idle cell: 'Your immediate job 1 has been successfully scheduled.'"""
    result = served.run("qsub", "-now", "y", "-b", "y", "sleep", "100")
    assert result.returncode == 0
    assert result.stderr.endswith("\nYour immediate job 1 has been successfully scheduled.\n")
    assert " r " in served.run("qstat").stdout or " t " in served.run("qstat").stdout


def test_qalter_operator_hold_keeps_the_user_hold(served: RunningCell) -> None:
    """qalter -h o on a user-held job: still hqw; -s hu and -s ho both list it; -h n frees it."""
    served.run("qsub", "-h", "-b", "y", "sleep", "100", check=True)
    result = served.run("qalter", "-h", "o", "1")
    assert (result.returncode, result.stdout) == (0, "modified hold of job 1\n")
    assert "hqw" in served.run("qstat").stdout
    assert " 1 " in f" {served.run('qstat', '-s', 'hu').stdout}"
    assert served.run("qstat", "-s", "hs").stdout == ""
    served.run("qalter", "-h", "n", "1", check=True)
    deadline = time.monotonic() + 10
    while "hqw" in served.run("qstat").stdout and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "hqw" not in served.run("qstat").stdout


def test_start_time_in_the_future_keeps_the_job_waiting(served: RunningCell) -> None:
    """qsub -a (an hour ahead): qw, listed by qstat -s ha, not started by the scheduler."""
    start = time.strftime("%m%d%H%M", time.localtime(time.time() + 3600))
    served.run("qsub", "-a", start, "-b", "y", "sleep", "1", check=True)
    time.sleep(2.5)
    listing = served.run("qstat").stdout
    assert " qw " in listing
    assert served.run("qstat", "-s", "ha").stdout == listing


def test_time_request_is_stored_in_seconds(served: RunningCell) -> None:
    """qsub -l h_rt=0:10:0: qstat -j shows h_rt=600, the accounting line has 45 fields."""
    served.run("qsub", "-l", "h_rt=0:10:0", "-b", "y", "sleep", "0", check=True)
    accounting = served.cell.common / "accounting"
    deadline = time.monotonic() + 15
    while not (accounting.exists() and accounting.read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    (line,) = [ln for ln in accounting.read_text().splitlines() if not ln.startswith("#")]
    assert len(line.split(":")) == 45
    assert line.split(":")[39] == "-l h_rt=600"
    served.run("qsub", "-l", "h_rt=1:0:0", "-b", "y", "sleep", "100", check=True)
    assert "hard resource_list:         h_rt=3600\n" in served.run("qstat", "-j", "2").stdout
