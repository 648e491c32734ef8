"""qmod, queue states in qstat -f and calendars with the installed commands against a daemon."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)


def _state_of(cell: RunningCell, queue: str) -> str:
    """The states column of one queue instance line of qstat -f ('' when none)."""
    for line in cell.run("qstat", "-f").stdout.splitlines():
        words = line.split()
        if words[:1] == [queue]:
            return words[5] if len(words) > 5 else ""
    raise AssertionError(f"{queue} not in qstat -f")


def _job_state(cell: RunningCell, job_id: str) -> str:
    for line in cell.run("qstat").stdout.splitlines():
        words = line.split()
        if words[:1] == [job_id]:
            return words[4]
    return ""


def _wait(predicate: object, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError("condition not reached")


def test_disable_enable_show_in_qstat_and_survive_a_restart(served: RunningCell) -> None:
    """qmod -d answers in Grid Engine's words, qstat -f shows d, a restart keeps it; -e clears."""
    done = served.run("qmod", "-d", "all.q@host1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith('changed state of "all.q@host1" (disabled)\n')
    assert _state_of(served, "all.q@host1") == "d"
    again = served.run("qmod", "-d", "all.q@host1")
    assert (again.returncode, again.stdout) == (
        0, 'Queue instance "all.q@host1" is already in the specified state: disabled\n',
    )  # fmt: skip
    served.stop()
    served.start()
    assert _state_of(served, "all.q@host1") == "d"
    assert served.run("qmod", "-e", "all.q@host1").stdout.endswith("(enabled)\n")
    assert _state_of(served, "all.q@host1") == ""


def test_bad_targets_and_options_exit_1(served: RunningCell) -> None:
    """An unknown queue, an unknown option and a missing argument are refused with exit 1."""
    bad = served.run("qmod", "-d", "nosuch.q")
    assert (bad.returncode, bad.stdout) == (1, 'invalid queue "nosuch.q"\n')
    unknown = served.run("qmod", "-x", "all.q")
    assert unknown.returncode == 1
    assert unknown.stderr.rstrip().endswith('ERROR! invalid option argument "-x"')
    missing = served.run("qmod", "-d")
    assert missing.returncode == 1
    assert missing.stderr.rstrip().endswith("ERROR! -d option must have argument")
    helped = served.run("qmod", "-help")
    assert (helped.returncode, helped.stdout.splitlines()[:2]) == (
        0,
        ["GE 6.2u5", "usage: qmod [options]"],
    )


def test_suspend_and_unsuspend_a_running_job(served: RunningCell) -> None:
    """qmod -sj shows the job as s in qstat; -usj lets it run on."""
    sub = served.run("qsub", "-b", "y", "-q", "all.q@host1", "sleep", "300")
    assert sub.returncode == 0, sub.stderr
    _wait(lambda: _job_state(served, "1") == "r")
    done = served.run("qmod", "-sj", "1")
    assert done.stdout.endswith("- suspended job 1\n"), done.stderr
    assert _job_state(served, "1") == "s"
    assert served.run("qmod", "-usj", "1").stdout.endswith("- unsuspended job 1\n")
    assert _job_state(served, "1") == "r"
    susp = served.run("qmod", "-s", "all.q@host1")
    assert susp.stdout.endswith('changed state of "all.q@host1" (suspended)\n')
    assert _job_state(served, "1") == "S"
    assert _state_of(served, "all.q@host1") == "s"


def test_calendar_objects_and_a_queue_naming_one(served: RunningCell, tmp_path: Path) -> None:
    """qconf -Acal/-scal/-scall/-dcal; a queue with an always-off calendar is D in qstat -f."""
    (tmp_path / "cal").write_text("calendar_name always_off\nyear NONE\nweek mon-sun=off\n")
    added = served.run("qconf", "-Acal", str(tmp_path / "cal"))
    assert added.returncode == 0, added.stderr
    assert added.stdout.endswith('added "always_off" to calendar list\n')
    shown = served.run("qconf", "-scal", "always_off").stdout
    assert shown.splitlines()[2].split() == ["week", "mon-sun=off"]
    assert served.run("qconf", "-scall").stdout == "always_off\n"
    (tmp_path / "bad").write_text("calendar_name b\nweek funday=off\n")
    assert served.run("qconf", "-Acal", str(tmp_path / "bad")).returncode == 1
    queue = served.run("qconf", "-sq", "all.q").stdout
    (tmp_path / "q").write_text(queue.replace("calendar              NONE", "calendar always_off"))
    assert served.run("qconf", "-Mq", str(tmp_path / "q")).returncode == 0
    assert _state_of(served, "all.q@host2") == "D"
    refused = served.run("qconf", "-dcal", "always_off")
    assert (refused.returncode, refused.stderr) == (
        1, 'Calendar "always_off" is still referenced in queue "all.q"\n',
    )  # fmt: skip
    (tmp_path / "q").write_text(queue)
    assert served.run("qconf", "-Mq", str(tmp_path / "q")).returncode == 0
    assert _state_of(served, "all.q@host2") == ""
    assert served.run("qconf", "-dcal", "always_off").returncode == 0


def test_reschedule_a_rerunnable_job(served: RunningCell) -> None:
    """qmod -rj of a -r y job: Grid Engine's answer, the job runs again as Rr, the run is
    accounted with failed 25."""
    sub = served.run("qsub", "-r", "y", "-b", "y", "-q", "all.q@host1", "sleep", "300")
    assert sub.returncode == 0, sub.stderr
    _wait(lambda: _job_state(served, "1") == "r")
    done = served.run("qmod", "-rj", "1")
    assert (done.returncode, done.stdout) == (0, "Pushed rescheduling of job 1 on host host1\n")
    _wait(lambda: _job_state(served, "1") == "Rr")
    accounting = served.cell.common / "accounting"
    _wait(lambda: accounting.exists() and accounting.read_text().strip() != "")
    fields = accounting.read_text().splitlines()[-1].split(":")
    assert (fields[5], fields[11]) == ("1", "25")
