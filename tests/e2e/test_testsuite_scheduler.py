"""Scenarios of Grid Engine's own testsuite (system_tests/scheduler, clients/qstat), run
with the installed commands against a live cell, as its expect scripts run them."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(120)


def _ok(cell: RunningCell, *args: str) -> str:
    done = cell.run(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _wait(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _state(cell: RunningCell, job: str) -> str:
    for line in cell.run("qstat", "-u", "*").stdout.splitlines()[2:]:
        fields = line.split()
        if fields[0] == job:
            return fields[4]
    return ""


def test_consumable_with_a_default_and_queue_limits_of_infinity(
    served: RunningCell, tmp_path: Path
) -> None:
    """resource_reservation's setup: h_vmem made consumable with a default of 100M, one
    host offering 5G. A job that requests nothing asks for the default; where the host
    defines no h_vmem the queue's h_vmem INFINITY bounds nothing. The job runs (it was
    kept pending: 'cannot convert float NaN to integer') and uses 100M of host1's 5G."""
    complexes = [
        "h_vmem h_vmem MEMORY <= YES YES 100M 0.0000001" if line.startswith("h_vmem ") else line
        for line in _ok(served, "qconf", "-sc").splitlines()
    ]
    (tmp_path / "cx").write_text("\n".join(complexes) + "\n")
    _ok(served, "qconf", "-Mc", str(tmp_path / "cx"))
    _ok(served, "qconf", "-mattr", "exechost", "complex_values", "h_vmem=5G", "host1")
    _ok(served, "qmod", "-d", "all.q@host2", "all.q@host3", "all.q@host4")
    job = _ok(served, "qsub", "-terse", "-b", "y", "sleeper", "60").strip()
    _wait(lambda: _state(served, job) == "r", "the job did not start")
    shown = _ok(served, "qstat", "-F", "h_vmem", "-q", "all.q@host1")
    assert "\thc:h_vmem=4.902G" in shown.splitlines()
    _ok(served, "qmod", "-e", "all.q@host2")
    other = _ok(served, "qsub", "-terse", "-q", "all.q@host2", "-b", "y", "sleeper", "60")
    _wait(lambda: _state(served, other.strip()) == "r", "a job on a host without h_vmem")


def _count(cell: RunningCell, *args: str) -> int:
    lines = _ok(cell, "qstat", *args).splitlines()[2:]
    return sum(1 for line in lines if line.split()[0].isdigit())


def test_qstat_s_selects_as_the_testsuite_counts(served: RunningCell) -> None:
    """clients/qstat check.60 qstat_option_s: a running job, a job suspended with qmod -s,
    and jobs in user, system, operator and job dependency hold. A suspended job is not
    running (-s r left it in, -s s found nothing)."""
    sleeper = ["-o", "/dev/null", "-e", "/dev/null", "-N", "Sleeper", "-b", "y", "sleeper"]
    first = _ok(served, "qsub", "-terse", *sleeper, "100000").strip()
    suspended = _ok(served, "qsub", "-terse", *sleeper, "100000").strip()
    _wait(lambda: _state(served, first) == _state(served, suspended) == "r", "no start")
    _ok(served, "qmod", "-s", suspended)
    held = [_ok(served, "qsub", "-terse", "-h", *sleeper, "1000").strip() for _ in range(3)]
    for job, hold in zip(held[1:], ("s", "o"), strict=True):
        _ok(served, "qalter", "-h", hold, job)
        _ok(served, "qalter", "-h", "U", job)
    _ok(served, "qsub", "-hold_jid", "Sleeper", *sleeper, "1000")
    counts = {s: _count(served, "-s", s) for s in ("a", "h", "hu", "hs", "ho", "hj", "p", "r", "s")}
    assert counts == {"a": 6, "h": 4, "hu": 1, "hs": 1, "ho": 1, "hj": 1, "p": 4, "r": 1, "s": 1}


def _info(cell: RunningCell, job: str) -> list[str]:
    shown = _ok(cell, "qstat", "-j", job).splitlines()
    return [line.split(":", 1)[1].strip() for line in shown if line.startswith("scheduling info:")]


def test_scheduling_info_of_error_time_and_dependency_waits(served: RunningCell) -> None:
    """scheduler/job_state_handling error_timehold_jobhold: qstat -j tells why each job
    waits: in error state (its -wd is missing), its -a time not reached, its -hold_jid
    predecessor (the error job had no message)."""
    args = ["-o", "/dev/null", "-e", "/dev/null", "-b", "y", "sleeper", "15"]
    error = _ok(served, "qsub", "-terse", "-wd", "/nonexistent/dir", *args).strip()
    later = time.strftime("%Y%m%d%H%M.%S", time.localtime(time.time() + 600))
    timed = _ok(served, "qsub", "-terse", "-a", later, *args).strip()
    waiting = _ok(served, "qsub", "-terse", "-hold_jid", timed, *args).strip()
    _wait(lambda: _state(served, error) == "Eqw", "the job did not go into error state")
    _wait(lambda: _info(served, error) == ["Job is in error state"], "no error message")
    assert _info(served, timed) == ["execution time not reached"]
    assert _info(served, waiting) == ["job dropped because of job dependencies"]
    assert _state(served, waiting) == "hqw"


def test_int_consumable_requested_with_a_fraction(served: RunningCell, tmp_path: Path) -> None:
    """resource_reservation's array case: ``license`` an INT consumable, 5 in the global
    host; ``-t 1-2 -l license=2.5`` is taken (6.2u5 reads an INT with its number parser,
    keeping the fraction), both tasks run on the 5 licenses, and a job asking one more waits."""
    complexes = _ok(served, "qconf", "-sc").splitlines()
    complexes.insert(-1, "license lic INT <= YES YES 0 100")
    (tmp_path / "cx").write_text("\n".join(complexes) + "\n")
    _ok(served, "qconf", "-Mc", str(tmp_path / "cx"))
    _ok(served, "qconf", "-mattr", "exechost", "complex_values", "license=5", "global")
    array = _ok(served, "qsub", "-terse", "-t", "1-2", "-l", "license=2.5", "-b", "y",
                "sleeper", "60")  # fmt: skip
    job = array.split(".")[0].strip()
    _wait(lambda: _count(served, "-s", "r") == 2, "the two tasks of license=2.5 did not run")
    assert "license=2.5" in _ok(served, "qstat", "-j", job)
    assert "\tgc:license=0" in _ok(served, "qstat", "-F", "license").splitlines()
    one = _ok(served, "qsub", "-terse", "-l", "lic=1", "-b", "y", "sleeper", "60").strip()
    time.sleep(2)
    assert _state(served, one) == "qw"
