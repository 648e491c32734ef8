"""qhold and qrls against a running qmaster: the hold bits qstat shows, and who may change them."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def _state(cell: RunningCell, job: str) -> str:
    for line in cell.run("qstat").stdout.splitlines()[2:]:
        if line.split()[0] == job:
            return line.split()[4]
    return ""


def _submit_pending(cell: RunningCell, *extra: str) -> str:
    out = cell.run("qsub", "-h", "-b", "y", *extra, "sleep", "100").stdout
    return out.split()[2].partition(".")[0]


def test_qhold_then_qrls_by_hold_type(minige_cell: RunningCell) -> None:
    """qhold -h o adds the operator hold; qrls releases the user hold and -h o the rest."""
    job = _submit_pending(minige_cell)
    held = minige_cell.run("qhold", "-h", "o", job)
    assert held.returncode == 0, held.stderr
    assert held.stdout.strip() == f"modified hold of job {job}"
    assert job in minige_cell.run("qstat", "-s", "ho").stdout.split()
    assert minige_cell.run("qrls", job).returncode == 0
    assert job not in minige_cell.run("qstat", "-s", "hu").stdout.split()
    assert _state(minige_cell, job) == "hqw"
    assert minige_cell.run("qrls", "-h", "o", job).returncode == 0
    assert _state(minige_cell, job) != "hqw"


def test_qhold_default_is_the_user_hold_and_all_is_a_name(minige_cell: RunningCell) -> None:
    """qhold without -h sets the user hold; 'all' is a job name, as for qalter (qalter.c
    reads it so: its 'all' branch is commented out), answered on stdout with exit 3."""
    job = minige_cell.run("qsub", "-b", "y", "-a", "209901010000", "sleep", "1").stdout.split()[2]
    named = minige_cell.run("qhold", "all")
    assert (named.returncode, named.stdout) == (3, 'denied: job "all" does not exist\n')
    assert minige_cell.run("qhold", job).returncode == 0
    assert job in minige_cell.run("qstat", "-s", "hu").stdout.split()
    assert minige_cell.run("qrls", "-h", "u", job).returncode == 0
    assert job not in minige_cell.run("qstat", "-s", "hu").stdout.split()


def test_bad_input(minige_cell: RunningCell) -> None:
    """An unknown job is STATUS_EEXIST (exit 3) on stdout; a bad hold type is qalter's
    complaint (exit 7); a task range naming no task of the job changes nothing."""
    missing = minige_cell.run("qhold", "99999")
    assert (missing.returncode, missing.stdout) == (3, 'denied: job "99999" does not exist\n')
    bad = minige_cell.run("qrls", "-h", "x", "1")
    assert (bad.returncode, bad.stderr) == (
        7, 'qalter: ERROR! Unknown hold list "x" specified to -h option\n'
    )  # fmt: skip
    array = _submit_pending(minige_cell, "-t", "1-4")
    none = minige_cell.run("qhold", "-h", "o", f"{array}.7-9")
    assert (none.returncode, none.stdout) == (0, "")
    assert array not in minige_cell.run("qstat", "-s", "ho").stdout.split()
    usage = minige_cell.run("qhold", "-help")
    assert usage.returncode == 0
    assert usage.stdout.startswith("GE 6.2u5\nusage: qhold")


def _lines(cell: RunningCell, job: str, *argv: str) -> list[tuple[str, str]]:
    """(state, task ids) of the job's qstat lines."""
    out = cell.run("qstat", *argv).stdout.splitlines()[2:]
    return [(w[4], w[-1]) for w in map(str.split, out) if w[0] == job]


def _wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_a_held_task_waits_while_the_others_of_its_array_run(minige_cell: RunningCell) -> None:
    """qrls J.1 -t 3-4 releases tasks 1, 3 and 4 of an array submitted held: they run while
    task 2 waits hqw on a line of its own (qstat -s hu shows it alone); qrls J.2 starts it."""
    job = _submit_pending(minige_cell, "-t", "1-4")
    assert _lines(minige_cell, job) == [("hqw", "1-4:1")]
    released = minige_cell.run("qrls", f"{job}.1", "-t", "3-4")
    assert released.returncode == 0, released.stderr
    assert released.stdout.splitlines() == [
        f"modified hold of job-array task {job}.{t}" for t in (1, 3, 4)
    ]
    _wait_for(lambda: len(_lines(minige_cell, job)) == 4, "tasks 1, 3 and 4 dispatched")
    assert sorted(_lines(minige_cell, job)) == [("hqw", "2"), ("r", "1"), ("r", "3"), ("r", "4")]
    assert _lines(minige_cell, job, "-s", "hu") == [("hqw", "2")]
    held = minige_cell.run("qhold", "-h", "o", f"{job}.2")
    assert held.stdout == f"modified hold of job-array task {job}.2\n"
    assert _lines(minige_cell, job, "-s", "ho") == [("hqw", "2")]
    assert minige_cell.run("qrls", "-h", "uo", f"{job}.2").returncode == 0
    _wait_for(lambda: ("r", "2") in _lines(minige_cell, job), "task 2 dispatched")


def test_qhold_of_one_task_of_an_array_waiting_for_its_start_time(
    minige_cell: RunningCell,
) -> None:
    """qhold J.2 on an array held to a start time: qstat shows 1,3,4 qw and 2 hqw; when the
    start time comes (qalter -a) the others run while 2 waits, until qrls J.2."""
    out = minige_cell.run("qsub", "-a", "209901010000", "-t", "1-4", "-b", "y", "sleep", "100")
    job = out.stdout.split()[2].partition(".")[0]
    held = minige_cell.run("qhold", f"{job}.2")
    assert held.stdout == f"modified hold of job-array task {job}.2\n"
    assert _lines(minige_cell, job) == [("qw", "1,3,4"), ("hqw", "2")]
    assert minige_cell.run("qalter", "-a", "200001010000", job).returncode == 0
    _wait_for(lambda: len(_lines(minige_cell, job, "-s", "r")) == 3, "tasks 1, 3, 4 running")
    assert _lines(minige_cell, job, "-s", "p") == [("hqw", "2")]
    assert minige_cell.run("qrls", f"{job}.2").stdout == (
        f"modified hold of job-array task {job}.2\n"
    )
    _wait_for(lambda: ("r", "2") in _lines(minige_cell, job), "task 2 dispatched")


def _jobs(cell: RunningCell, *argv: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The job ids qstat lists, each once (what the testsuite's parse_qstat counts), and
    (state, task ids) of its lines."""
    out = [line.split() for line in cell.run("qstat", *argv).stdout.splitlines()[2:]]
    return list(dict.fromkeys(w[0] for w in out)), [(w[4], w[-1]) for w in out]


def test_qalter_h_of_an_array_with_running_tasks_as_the_testsuite_checks_issue_1800(
    minige_cell: RunningCell,
) -> None:
    """qstat's check.60.exp (issue 1800): -t 1-1000 -l h=host1, 4 tasks run; -s p counts 1
    job. After qalter -h u of the job, -s hu counts 1 job: its running tasks hold u too
    (GE sets JAT_hold of enrolled tasks) and are listed hr with the hqw line of the rest.
    The same for -h s / -s hs and -h o / -s ho, each 0 before."""
    out = minige_cell.run("qsub", "-t", "1-1000", "-l", "h=host1", "-b", "y", "sleep", "1000")
    job = out.stdout.split()[2].partition(".")[0]
    _wait_for(lambda: len(_lines(minige_cell, job, "-s", "r")) == 4, "4 tasks running")
    assert _jobs(minige_cell, "-s", "p") == ([job], [("qw", "5-1000:1")])
    running = [("hr", str(t)) for t in (1, 2, 3, 4)]
    for letter in "uso":
        assert _jobs(minige_cell, "-s", f"h{letter}") == ([], [])
        altered = minige_cell.run("qalter", "-h", letter, job)
        assert altered.returncode == 0, altered.stderr
        assert altered.stdout.splitlines()[-1] == f"modified hold of job-array task {job}.4"
        assert _jobs(minige_cell, "-s", f"h{letter}") == ([job], [*running, ("hqw", "5-1000:1")])
    assert _lines(minige_cell, job, "-s", "r") == running
