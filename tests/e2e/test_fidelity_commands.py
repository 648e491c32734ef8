"""Installed commands: bad options and -help in Grid Engine's form, qdel -t, qsub -sync."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell, create_cell, fail_on_internal_errors
from tests.e2e.cells import stop_quietly

pytestmark = pytest.mark.timeout(60)


def test_bad_option_exits_like_grid_engine(shared_served: RunningCell) -> None:
    """qsub -x: one 'qsub: ERROR!' line, no usage, exit 2; qstat -x: usage first, exit 1."""
    result = shared_served.run("qsub", "-x", "-b", "y", "sleep", "1")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == 'qsub: ERROR! invalid option argument "-x"\n'
    result = shared_served.run("qstat", "-x")
    assert result.returncode == 1
    assert result.stderr.startswith("GE 6.2u5\nusage: qstat")


def test_help_of_every_command_starts_with_the_version(shared_served: RunningCell) -> None:
    """Every command's -help begins with 'GE 6.2u5' on stdout."""
    for command in ("qsub", "qalter", "qdel", "qstat", "qconf", "qrsub", "qrdel", "qevent"):
        result = shared_served.run(command, "-help")
        assert result.stdout.startswith("GE 6.2u5\nusage:"), command
        assert result.returncode == 0, command


def test_qdel_task_range_and_name_pattern(served: RunningCell) -> None:
    """qdel 1 -t 3-4 deletes two tasks, qdel 1.1 -t 2 two more; qdel 'sl*' deletes the caller's
    sleep job; qstat -q takes every word up to the next option."""
    assert (
        served.run("qsub", "-h", "-N", "arr", "-t", "1-6", "-b", "y", "sleep", "1").returncode == 0
    )
    assert served.run("qsub", "-h", "-N", "sleepy", "-b", "y", "sleep", "1").returncode == 0
    result = served.run("qdel", "1", "-t", "3-4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("has deleted job-array tasks 3,4 of job 1\n")
    result = served.run("qdel", "1.1", "-t", "2")  # the word's own task and the -t's
    assert result.stdout.endswith("has deleted job-array tasks 1,2 of job 1\n")
    listed = served.run("qstat", "-f", "-q", "all.q@host1", "all.q@host2").stdout
    assert [line.split()[0] for line in listed.splitlines() if "@" in line] == [
        "all.q@host1",
        "all.q@host2",
    ]
    result = served.run("qdel", "sl*")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("has deleted job 2\n")
    assert " 5,6\n" in served.run("qstat", "-u", "*").stdout


def test_sync_waits_for_the_job_and_returns_its_status(served: RunningCell) -> None:
    """qsub -sync y prints the submission, waits, then 'Job N exited with exit code 0.'"""
    result = served.run("qsub", "-sync", "y", "-b", "y", "sleep", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        'Your job 1 ("sleep") has been submitted',
        "Job 1 exited with exit code 0.",
    ]


def test_immediate_job_is_scheduled_or_refused(served: RunningCell) -> None:
    """qsub -now y waits for the first pass: scheduled (exit 0), or 'try again later' (exit 1)."""
    result = served.run("qsub", "-now", "y", "-b", "y", "sleep", "5")
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "Waiting for immediate job to be scheduled.\n\n"
        "Your immediate job 1 has been successfully scheduled.\n"
    )
    result = served.run("qsub", "-now", "y", "-l", "arch=no-such", "-b", "y", "sleep", "5")
    assert result.returncode == 1
    assert result.stderr.endswith("\nYour qsub request could not be scheduled, try again later.\n")
    assert served.run("qstat", "-u", "*", "-j", "2").returncode == 1


def test_job_names_are_checked_as_grid_engine_checks_them(served: RunningCell) -> None:
    """A binary's name may hold a space (``qsub -b y 'exit 3'`` is job "exit 3"); ``*`` in
    -N is refused with Grid Engine's words and exit 1, and nothing is submitted."""
    done = served.run("qsub", "-h", "-b", "y", "exit 3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == 'Your job 1 ("exit 3") has been submitted\n'
    refused = served.run("qsub", "-h", "-N", "a*b", "-b", "y", "true")
    assert refused.returncode == 1
    assert (
        refused.stderr == "Unable to run job: Asterisk ('*') not allowed in objectname.\nExiting.\n"
    )
    assert served.run("qstat", "-u", "*").stdout.count("\n") == 3


def test_sync_does_not_wait_for_the_accounting_flush(
    minige_conf_copy: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """With Grid Engine's flush_time of a minute, qsub -sync y still reports the job's exit
    code as soon as the job is gone (asking for a gone job writes the buffered records)."""
    conf = minige_conf_copy / "configuration"
    conf.write_text(conf.read_text().replace("flush_time=00:00:00", "flush_time=00:01:00"))
    cell = create_cell(tmp_path / "sge", minige_conf_copy)
    cell.start()
    try:
        result = cell.run("qsub", "-sync", "y", "-b", "y", "sleep", "1")
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1] == "Job 1 exited with exit code 0."
        assert "\njobname      sleep" in cell.run("qacct", "-j", "1").stdout
    finally:
        stop_quietly(cell)
    fail_on_internal_errors(cell.internal_errors(), request.node)
