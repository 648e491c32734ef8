"""The warnings Grid Engine's execd sends before SIGKILL or SIGSTOP (-notify, s_rt), and what
a local job that ends on them is accounted with."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core, Outcome
from qmaster.core.effects import KillTask, SignalTask
from qmaster.core.stimuli import TaskEnded
from qmaster.events.records import Acct
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, run_until, states, submit

NOTIFY = 60  # the default cell's all.q: notify 00:00:60


def signals(outs: list[Outcome]) -> list[str]:
    return [e.signal for o in outs for e in o.effects() if isinstance(e, SignalTask)]


def kills(outs: list[Outcome]) -> int:
    return sum(isinstance(e, KillTask) for o in outs for e in o.effects())


def accts(outs: list[Outcome]) -> list[tuple[int, int, int]]:
    """(exit status, failed, wallclock) of the accounting records."""
    return [
        (r.exit_status, r.failed, int(r.ru_wallclock))
        for o in outs
        for r in o.reports
        if isinstance(r, Acct)
    ]


def running(local: bool = True, **spec: Any) -> Core:
    """A core with job 1 running since T0 (started by the first pass)."""
    core = make_core(local_execution=local)
    submit(core, ALICE, now=T0, CMDARGS=["10000"], **spec)
    run_until(core, T0)
    assert states(core, T0) == {"1": "r"}
    return core


def test_qdel_of_a_notify_job_sends_sigusr2_and_kills_it_after_the_notify_time() -> None:
    """qdel of a -notify job: SIGUSR2 at once, SIGKILL (137, failed 100) 60 s later."""
    core = running(notify=True)
    outs = [request(core, ROOT, "delete", T0 + 10, job_ids=["1"])]
    assert signals(outs) == ["USR2"]
    core.validate_state()
    outs += run_until(core, T0 + 10 + NOTIFY - 1)
    assert kills(outs) == 0
    outs += run_until(core, T0 + 10 + NOTIFY)
    assert kills(outs) == 1
    assert accts(outs) == [(137, 100, 10 + NOTIFY)]


def test_a_notify_job_that_exits_on_its_sigusr2_is_accounted_as_it_ended() -> None:
    """A -notify job that catches SIGUSR2 and exits 3 is accounted with 3, not killed."""
    core = running(notify=True)
    request(core, ROOT, "delete", T0 + 10, job_ids=["1"])
    outs = [core.handle(TaskEnded(ROOT, 1, 0, exit_status=3), T0 + 12)]
    outs += run_until(core, T0 + 10 + NOTIFY)
    assert kills(outs) == 0
    assert accts(outs) == [(3, 0, 12)]
    assert states(core, T0 + 100) == {}
    core.validate_state()


def test_qdel_without_notify_sends_no_warning() -> None:
    """qdel of a job without -notify: no SIGUSR2, SIGKILL at once."""
    core = running()
    outs = [request(core, ROOT, "delete", T0 + 10, job_ids=["1"])]
    outs += run_until(core, T0 + 10)
    assert signals(outs) == []
    assert kills(outs) == 1


def test_s_rt_sends_sigusr1_then_sigkill_after_the_notify_time() -> None:
    """A local job past s_rt=10 gets SIGUSR1 at 10 s and is killed at 70 s (137, failed
    100), whether or not it asked for -notify."""
    core = running(l_hard={"s_rt": "0:0:10"})
    outs = run_until(core, T0 + 10)
    assert (signals(outs), kills(outs)) == (["USR1"], 0)
    assert states(core, T0 + 11) == {"1": "r"}
    core.validate_state()  # the warned task's new planned end has its timer
    outs += run_until(core, T0 + 10 + NOTIFY)
    assert kills(outs) == 1
    assert accts(outs) == [(137, 100, 10 + NOTIFY)]


def test_a_job_that_dies_of_its_s_rt_sigusr1_is_accounted_138_failed_100() -> None:
    """A shell job killed by the SIGUSR1 it does not catch: exit 138, failed 100."""
    core = running(l_hard={"s_rt": "0:0:10"})
    run_until(core, T0 + 10)
    out = core.handle(TaskEnded(ROOT, 1, 0, exit_status=138, signalled=True), T0 + 10)
    assert accts([out]) == [(138, 100, 10)]
    assert kills(run_until(core, T0 + 100)) == 0


def test_h_rt_before_the_notify_time_kills_at_h_rt() -> None:
    """s_rt=10 and h_rt=20: SIGUSR1 at 10 s, SIGKILL at 20 s (h_rt), not at 70 s."""
    core = running(l_hard={"s_rt": "0:0:10", "h_rt": "0:0:20"})
    outs = run_until(core, T0 + 20)
    assert signals(outs) == ["USR1"]
    assert kills(outs) == 1
    assert accts(outs) == [(137, 100, 20)]


def test_simulated_s_rt_still_ends_the_job_as_its_sigusr1_would() -> None:
    """In a simulated cell s_rt ends the job at s_rt with 138, failed 100, as before."""
    core = running(local=False, l_hard={"s_rt": "0:0:10"})
    outs = run_until(core, T0 + 10)
    assert accts(outs) == [(138, 100, 10)]


def test_suspending_a_notify_job_sends_sigusr1_then_sigstop() -> None:
    """qmod -sj of a -notify job: SIGUSR1 at once (qstat shows s), SIGSTOP 60 s later."""
    core = running(notify=True)
    outs = [request(core, ROOT, "qmod", T0 + 5, action="sj", targets=["1"])]
    assert signals(outs) == ["USR1"]
    assert states(core, T0 + 5) == {"1": "s"}
    outs = run_until(core, T0 + 5 + NOTIFY)
    assert signals(outs) == ["STOP"]
    core.validate_state()


def test_a_notify_job_resumed_before_its_sigstop_is_not_stopped() -> None:
    """qmod -usj within the notify time: the pending SIGSTOP is not sent."""
    core = running(notify=True)
    request(core, ROOT, "qmod", T0 + 5, action="sj", targets=["1"])
    request(core, ROOT, "qmod", T0 + 6, action="usj", targets=["1"])
    assert "STOP" not in signals(run_until(core, T0 + 5 + NOTIFY))


def test_a_restart_in_the_notify_time_still_stops_the_suspended_job() -> None:
    """A -notify job suspended just before a qmaster restart still gets its SIGSTOP."""
    core = running(notify=True)
    request(core, ROOT, "qmod", T0 + 5, action="sj", targets=["1"])
    jobs = [core.jobs[1].to_row()]
    tasks = [{"job_id": 1, **task.to_row()} for task in core.jobs[1].tasks.values()]
    again = Core.recover(core.config, core.settings, jobs, tasks, {"job": 2}, T0 + 6)
    assert signals(run_until(again, T0 + 6, start=T0 + 6)) == ["STOP"]
    assert states(again, T0 + 6) == {"1": "s"}


def test_a_restart_in_the_notify_time_of_a_qdel_keeps_the_sigkill_at_its_time() -> None:
    """qdel of a -notify job, then a qmaster restart 10 s later: the SIGKILL still comes at
    the end of the notify time, not at the restart."""
    core = running(notify=True)
    request(core, ROOT, "delete", T0 + 10, job_ids=["1"])
    jobs = [core.jobs[1].to_row()]
    tasks = [{"job_id": 1, **task.to_row()} for task in core.jobs[1].tasks.values()]
    again = Core.recover(core.config, core.settings, jobs, tasks, {"job": 2}, T0 + 20)
    outs = run_until(again, T0 + 10 + NOTIFY - 1, start=T0 + 20)
    assert kills(outs) == 0
    outs += run_until(again, T0 + 10 + NOTIFY)
    assert kills(outs) == 1
    assert accts(outs) == [(137, 100, 10 + NOTIFY)]
    again.validate_state()
