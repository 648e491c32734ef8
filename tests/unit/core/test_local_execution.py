"""Local execution in the core: a started task runs until its driver reports its end."""

from __future__ import annotations

from qmaster.core.effects import SignalTask, StartTask
from qmaster.core.stimuli import TaskEnded
from qmaster.events.records import Acct
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    rows,
    run_until,
    states,
    submit,
)


def ended(job_id: int, status: int, **more: object) -> TaskEnded:
    return TaskEnded(ROOT, job_id, 0, exit_status=status, **more)  # type: ignore[arg-type]


def test_a_local_task_runs_past_its_simulated_runtime() -> None:
    """'sleep 1' in a local cell is still running an hour later: only its process ends it."""
    core = make_core(local_execution=True)
    submit(core, ALICE, CMDARGS=["1"])
    outs = run_until(core, T0 + 3600)
    assert any(isinstance(e, StartTask) for o in outs for e in o.effects())
    assert states(core, T0 + 3600) == {"1": "r"}
    assert core.next_deadline() is None or core.next_deadline() > T0 + 3600  # type: ignore[operator]


def test_task_ended_accounts_the_real_status_and_usage() -> None:
    """The driver's report ends the job: accounting has its exit status and rusage."""
    core = make_core(local_execution=True)
    submit(core, ALICE, CMDARGS=["1"])
    run_until(core, T0 + 5)
    out = core.handle(ended(1, 3, ru_utime=1.5, ru_stime=0.25, ru_maxrss=2048.0), T0 + 7)
    (acct,) = [r for r in out.reports if isinstance(r, Acct)]
    assert (acct.exit_status, acct.failed, acct.ru_wallclock) == (3, 0, 7)
    assert (acct.ru_utime, acct.ru_stime, acct.ru_maxrss, acct.cpu) == (1.5, 0.25, 2048.0, 1.75)
    assert rows(core, T0 + 7) == []


def test_a_signalled_process_is_accounted_failed_100() -> None:
    """A process killed by a signal is accounted as Grid Engine's execd does: failed 100."""
    core = make_core(local_execution=True)
    submit(core, ALICE)
    run_until(core, T0 + 5)
    out = core.handle(ended(1, 137, signalled=True), T0 + 6)
    (acct,) = [r for r in out.reports if isinstance(r, Acct)]
    assert (acct.exit_status, acct.failed) == (137, 100)


def test_a_task_that_could_not_start_goes_to_error_state_with_its_reason() -> None:
    """When the host cannot start the task, the job shows Eqw and qstat -j gives the reason."""
    core = make_core(local_execution=True)
    submit(core, ALICE)
    run_until(core, T0 + 5)
    core.handle(ended(1, 0, error='error: can\'t switch to user "alice"'), T0 + 6)
    assert states(core, T0 + 6) == {"1": "Eqw"}
    assert core.jobs[1].tasks[0].message == 'error: can\'t switch to user "alice"'
    assert core.booked.by_task.get((1, 0)) is None


def test_a_report_for_a_task_no_longer_running_changes_nothing() -> None:
    """A late report (the job was killed and accounted already) writes nothing."""
    core = make_core(local_execution=True)
    out = core.handle(ended(7, 0), T0)
    assert not out.reports
    assert not out.spool


def test_suspending_and_resuming_signal_the_task() -> None:
    """qmod -sj asks the execd to SIGSTOP the task, -usj to SIGCONT it; it stays running."""
    core = make_core(local_execution=True)
    submit(core, ALICE)
    run_until(core, T0 + 5)
    stop = request(core, ROOT, "qmod", T0 + 6, action="sj", targets=["1"])
    assert [e for e in stop.effects() if isinstance(e, SignalTask)] == [
        SignalTask(1, 0, "host1", "STOP")
    ]
    cont = request(core, ROOT, "qmod", T0 + 7, action="usj", targets=["1"])
    assert [e.signal for e in cont.effects() if isinstance(e, SignalTask)] == ["CONT"]
    assert states(core, T0 + 8) == {"1": "r"}
    core.validate_state()
