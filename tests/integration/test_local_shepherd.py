"""The shepherd starts and signals a local task as Grid Engine's execd does: default signal
dispositions, its own process group, -notify and s_rt warnings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from qmaster.execd import shepherd
from qmaster.execd.executor import SHEPHERD
from tests.integration.live import LiveDaemon, wait_for
from tests.integration.test_local_execution import script, state_of
from tests.integration.test_timers import EXIT_STATUS, FAILED, acct_of

pytestmark = pytest.mark.timeout(60)
WALLCLOCK = 13


def test_a_job_does_not_inherit_the_shepherds_ignored_signals(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """A job sees SIGHUP, SIGINT and SIGTERM at their defaults (a Ctrl-C or hangup reaches
    it), in a process group of its own; without -pe it has no PE variables."""
    text = "grep SigIgn /proc/self/status > ignored\nps -o pgid= -p $$ > pgid\necho $$ > pid\n"
    text += 'echo "${PE-unset} ${PE_HOSTFILE-unset}" > pe\n'
    assert local.call("submit", script(text, cwd=str(tmp_path))).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    mask = int((tmp_path / "ignored").read_text().split()[1], 16)
    for signum in (1, 2, 15):  # HUP, INT, TERM
        assert not mask & (1 << (signum - 1)), signum
    pgid = int((tmp_path / "pgid").read_text())
    assert pgid == int((tmp_path / "pid").read_text())
    assert (tmp_path / "pe").read_text() == "unset unset\n"  # no -pe: no PE variables


def short_notify(local: LiveDaemon, seconds: int = 2) -> None:
    """all.q's notify time, as qconf -mattr queue notify sets it."""
    pairs = [["notify", f"0:0:{seconds}"]]
    args = {"kind": "cqueue", "mode": "change", "name": "all.q", "pairs": pairs}
    assert local.call("conf_attr", args).ok


TRAP = "trap 'echo {sig} > caught; exit 3' {sig}\necho $$ > pid\nwhile :; do sleep 0.1; done\n"


def test_a_notify_job_catches_sigusr2_on_qdel_and_its_exit_is_accounted(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """qdel of a -notify job that traps SIGUSR2: it sees the signal, exits 3, and accounting
    says 3 (it was not SIGKILLed)."""
    short_notify(local, 5)
    spec = {"cwd": str(tmp_path), "notify": True}
    assert local.call("submit", script(TRAP.format(sig="USR2"), **spec)).ok
    wait_for((tmp_path / "pid").exists, what="the job to start")
    assert local.call("delete", {"job_ids": ["1"]}).ok
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "3"), line
    assert (tmp_path / "caught").read_text() == "USR2\n"
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "3")


def test_s_rt_warns_with_sigusr1_and_kills_after_the_notify_time(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """A job past s_rt=1 that ignores SIGUSR1 is SIGKILLed the notify time (2 s) later:
    exit 137, failed 100, about 3 s of wall clock."""
    short_notify(local, 2)
    text = "trap 'echo USR1 > caught' USR1\nwhile :; do sleep 0.1; done\n"
    spec = {"cwd": str(tmp_path), "l_hard": {"s_rt": "0:0:1"}}
    assert local.call("submit", script(text, **spec)).ok
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (tmp_path / "caught").read_text() == "USR1\n"
    assert (line[FAILED], line[EXIT_STATUS]) == ("100", "137")
    assert 2 <= int(line[WALLCLOCK]) <= 5


def test_a_signal_asked_for_before_the_job_started_reaches_it(tmp_path: Path) -> None:
    """A job suspended before its shepherd started it (qmod -s as it is dispatched) is
    stopped as soon as it starts, not left running while qstat says s."""
    directory = tmp_path / "1.0"
    directory.mkdir()
    config = {
        "argv": ["/bin/sh", "-c", "echo ran > ran"],
        "cwd": str(tmp_path),
        "env": {"PATH": "/bin:/usr/bin"},
        "stdin": os.devnull,
        "stdout": str(tmp_path / "out"),
        "stderr": str(tmp_path / "out"),
        "owner": {},
        "tmpdir": str(tmp_path / "tmp"),
    }
    shepherd.write(str(directory / shepherd.CONFIG), config)
    (directory / shepherd.SIGNALS).write_text(f"{signal.SIGSTOP.value}\n")
    proc = subprocess.Popen([sys.executable, *SHEPHERD, str(directory)])
    try:
        job = directory / shepherd.JOB_PID
        wait_for(lambda: job.exists() and job.read_text().strip(), what="the job's pid")
        pid = int(job.read_text())
        wait_for(lambda: state_of(pid) == "T", what="the job to be stopped")
        assert not (tmp_path / "ran").exists()
    finally:
        proc.terminate()  # the shepherd SIGKILLs the stopped job
        proc.wait(10)
    status = shepherd.read(str(directory / shepherd.STATUS))
    assert (status["exit_status"], status["signalled"]) == (137, True)


def test_a_parallel_job_reads_its_pe_hostfile(local: LiveDaemon, tmp_path: Path) -> None:
    """-pe mpi 6 ($fill_up over 4-slot hosts) runs with NSLOTS 6, NHOSTS 2 and a
    PE_HOSTFILE whose lines give each host's slots and queue; the file goes with the task."""
    text = 'echo "$NSLOTS $NHOSTS $NQUEUES $PE $PE_HOSTFILE"\ncat "$PE_HOSTFILE"\n'
    spec = {"N": "par", "cwd": str(tmp_path), "pe_name": "mpi", "pe_min": 6, "pe_max": 6}
    assert local.call("submit", script(text, **spec)).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    head, *lines = (tmp_path / "par.o1").read_text().splitlines()
    nslots, nhosts, nqueues, pe, hostfile = head.split()
    assert (nslots, nhosts, nqueues, pe) == ("6", "2", "2", "mpi")
    assert hostfile.endswith("/active_jobs/1.1/pe_hostfile")  # task 1, as Grid Engine names it
    rows = sorted(line.split() for line in lines)
    assert sum(int(r[1]) for r in rows) == 6
    assert all(r[2] == f"all.q@{r[0]}" and r[3] == "UNDEFINED" for r in rows)
    wait_for(lambda: not Path(hostfile).exists(), what="the task's directory to go")
