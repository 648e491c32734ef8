"""What happens to tasks over time: dispatch, start, end, deletion.

Execution is simulated: a dispatched task is ``t`` until its start timer
fires (at once), then ``r`` for its simulated runtime — the first job
argument when that is a number (Grid Engine's job-simulation convention),
else the configured default — cut short by ``s_rt``/``h_rt`` with the exit
status of a signalled job (128 + signal).
"""

from __future__ import annotations

import math

from qmaster.core import reports, reserved, suspension
from qmaster.core.arlimit import ar_runtime_limit
from qmaster.core.effects import KillTask, StartTask
from qmaster.core.execmode import runs_locally
from qmaster.core.execsignals import (
    FAILED_AFTER_JOB,
    NOTIFY_STOP,
    SIGKILL_EXIT,
    runtime_limit,
    soft_limit_reached,
    warn_deletion,
)
from qmaster.core.holds import start_time
from qmaster.core.job_filter import remember_finished
from qmaster.core.jobs import Job, Task
from qmaster.core.jobspec import lookup
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.pendingindex import PassReasons, pass_view
from qmaster.core.registry import HOOKS, Timer
from qmaster.core.sched_info import job_info_setting
from qmaster.core.states import TaskState
from qmaster.core.view import recovery_view, task_debits
from schedd import Order, schedule

SIGUSR1_EXIT = 138
# accounting(5) "failed" of a job its execd killed with a signal (h_rt: SIGKILL, s_rt:
# SIGUSR1, qdel: SIGKILL) is FAILED_AFTER_JOB: the execd's reaper sets
# SSTATE_FAILURE_AFTER_JOB for any job that died through a signal.
# ... and of a job the qmaster ends without its execd's report (qdel -f, the end of its
# AR): the qmaster makes the report itself, SSTATE_QMASTER_ENFORCED_LIMIT, exit status 0
FAILED_BY_QMASTER = 37
EXIT_STATUS_VAR = "MINIGE_EXIT_STATUS"
START_TIME = "start_time"  # the timer of a job's -a start time


def simulated_runtime(job: Job, default: float) -> float:
    """The job's first argument when it is a number, else ``default``."""
    args = job.spec.args or ()
    if args:
        try:
            value = float(args[0])
        except ValueError:
            return default
        if value >= 0:
            return value
    return default


def end_of_run(core: Core, job: Job, task: Task) -> tuple[float, int, int]:
    """When the running task ends, its exit status and accounting(5)'s ``failed``."""
    assert task.start_time is not None
    runtime = (
        math.inf
        if runs_locally(core, task)
        else simulated_runtime(job, core.settings.default_runtime)
    )
    status = int(lookup(job.spec.env, EXIT_STATUS_VAR) or 0)
    end, exit_status, failed = task.start_time + runtime, status, 0
    s_rt = runtime_limit(job, core, task, "s_rt")
    h_rt = ar_runtime_limit(core, job, task.start_time, runtime_limit(job, core, task, "h_rt"))
    if s_rt is not None and task.start_time + s_rt < end:
        end, exit_status, failed = task.start_time + s_rt, SIGUSR1_EXIT, FAILED_AFTER_JOB
    if h_rt is not None and task.start_time + h_rt < end:
        end, exit_status, failed = task.start_time + h_rt, SIGKILL_EXIT, FAILED_AFTER_JOB
    return end, exit_status, failed


# -- scheduling -------------------------------------------------------------------


def run_pass(core: Core, now: float, out: Outcome) -> None:
    """Run one scheduling pass and apply its orders."""
    interval = core.config.sched_conf.schedule_interval
    core.schedule_at = now + interval if interval > 0 else None
    core.sched_dirty = False
    core.touch(out)  # what this stimulus changed before the pass (an immediate job's submission)
    view, index = pass_view(core, now)
    view.job_info = job_info_setting(core).enabled  # off: nobody reads why jobs wait
    core.reasons = {}
    if view.jobs:
        plan = schedule(view, now)
        core.reasons = plan.reasons
        if index is not None and plan.skipped:
            core.reasons = PassReasons(plan.reasons, plan.skipped, index.waiting_group(core, now))
        core.sched_dirty = core.sched_dirty or plan.load_decaying
        for job_id, fault in plan.failed.items():
            out.log("scheduler_job_failed", job_id=job_id, error=fault)
        for order in plan.orders:
            dispatch(core, order, now, out)
        if plan.orders:
            out.log("scheduler_pass", dispatched=len(plan.orders), pending=len(plan.reasons))
    if core.ars and HOOKS.ar_passes is not None:
        HOOKS.ar_passes(core, now, out)


def dispatch(core: Core, order: Order, now: float, out: Outcome) -> None:
    """Move a pending task to ``t`` on its assignment and book its slots."""
    core.working_on = ("dispatch", order.job_id, order.task_id)
    job = core.jobs[order.job_id]
    job.pending.remove(order.task_id)
    task = Task(order.task_id, TaskState.PENDING, order.assignment)
    task.move(job.job_id, TaskState.TRANSFERRING, "dispatched by the scheduler")
    task.dispatch_time = now
    task.restarted = order.task_id in job.restarted
    task.debits = tuple(order.debits)
    job.tasks[task.task_id] = task
    core.booked.book((job.job_id, task.task_id), task.debits, now)
    core.spool_task(out, job, task)
    _report(core, out, job, task, "sent", now, message="sent to execd")
    core.set_timer(now, "start", job.job_id, task.task_id)
    core.working_on = None


def fire(core: Core, timer: Timer, now: float, out: Outcome) -> None:
    """A task's timer is due; stale timers (task gone or moved on) are ignored."""
    job = core.jobs.get(timer.job_id)
    if timer.kind == START_TIME and job is not None:
        core.request_pass(now)  # its -a start time has come
        return
    task = job.tasks.get(timer.task_id) if job else None
    if job is None or task is None:
        return
    if timer.kind == "start" and task.state is TaskState.TRANSFERRING:
        start(core, job, task, now, out)
    elif timer.kind == "end" and task.state is TaskState.DELETING:
        killed(core, job, task, now, out)
    elif timer.kind == "end" and task.state is TaskState.RUNNING and not task.suspended:
        end_at, status, failed = planned_end(core, job, task)
        if end_at <= now:
            if status == SIGUSR1_EXIT and runs_locally(core, task):  # s_rt: a warning
                soft_limit_reached(core, job, task, now, out)
                return
            if failed:
                kill_task(job, task, out)  # h_rt or s_rt
            # a late timer (the daemon was down) still accounts the real end
            finish(
                core, job, task, end_at, out, exit_status=status, event="finished", failed=failed
            )
        else:
            core.set_timer(end_at, "end", job.job_id, task.task_id)


def watch_start_time(core: Core, job: Job, now: float) -> None:
    """A job with a ``-a`` start time still to come gets a pass when it comes (and none before)."""
    at = start_time(job)
    if at is not None and at > now:
        core.set_timer(at, START_TIME, job.job_id, 0)


def register_deletion(core: Core, job: Job, task: Task, why: str, now: float, out: Outcome) -> None:
    """qdel of a task in ``t`` or ``r``: the execd is told to kill it (``dt``/``dr`` until then).

    A running ``-notify`` job is sent SIGUSR2 first and killed its queue's
    ``notify`` time later, as Grid Engine's execd does.
    """
    task.move(job.job_id, TaskState.DELETING, why)
    kill_at = now + warn_deletion(core, job, task, out)
    if task.plan is not None:  # the kill is now its end: a restart keeps the notify time
        task.plan = (kill_at, task.plan[1], task.plan[2])
    core.spool_task(out, job, task)
    core.set_timer(kill_at, "end", job.job_id, task.task_id)


def killed(core: Core, job: Job, task: Task, now: float, out: Outcome) -> None:
    """The execd killed a task registered for deletion (SIGKILL).

    A task still in ``t`` had reached its execd, which starts the shepherd and
    kills the job at once: like any job the execd reaps, it is accounted.
    """
    if task.start_time is None:
        task.start_time = now
    else:
        kill_task(job, task, out)
    finish(
        core,
        job,
        task,
        now,
        out,
        exit_status=SIGKILL_EXIT,
        event="deleted",
        failed=FAILED_AFTER_JOB,
    )


def force_deletion(core: Core, job: Job, task: Task, why: str, now: float, out: Outcome) -> None:
    """qdel -f (or the end of its AR): the task is gone at once, without the execd's word;
    the qmaster accounts it itself, as Grid Engine's does (failed 37, exit status 0)."""
    if task.start_time is not None:
        kill_task(job, task, out)
    if task.state is TaskState.RUNNING:
        task.move(job.job_id, TaskState.DELETING, why)
    finish(
        core,
        job,
        task,
        now,
        out,
        exit_status=0,
        event="deleted",
        failed=FAILED_BY_QMASTER,
        account=True,
    )


def kill_task(job: Job, task: Task, out: Outcome) -> None:
    """Tell the driver a started task is killed (the simulated execution has nothing to do)."""
    host = (task.queue or "").partition("@")[2]
    out.emit(KillTask(job.job_id, task.task_id, host))


def planned_end(core: Core, job: Job, task: Task) -> tuple[float, int, int]:
    """The end fixed when the task started; later qalter changes do not move it."""
    if task.plan is None:
        task.plan = end_of_run(core, job, task)
    return task.plan


def arm_end(core: Core, job: Job, task: Task) -> None:
    """Set the timer of the task's planned end (a local task without limits has none)."""
    end_at = planned_end(core, job, task)[0]
    if end_at != math.inf:
        core.set_timer(end_at, "end", job.job_id, task.task_id)


def start(core: Core, job: Job, task: Task, now: float, out: Outcome) -> None:
    """The simulated execd starts the task, or puts it into error state (a local task's
    shepherd enters its working directory itself: failed 28 when it cannot)."""
    workdir = job.spec.wd or job.spec.cwd
    local = runs_locally(core, task)
    failed = core.workdir_error(str(workdir), job.owner) if workdir and not local else None
    if failed is not None:
        _release(core, job, task)
        core.mark_changed(now)
        task.move(job.job_id, TaskState.ERROR, "working directory missing")
        task.message = f'error: can\'t chdir to directory "{workdir}": {failed}'
        task.assignment = ()
        core.spool_task(out, job, task)
        _report(core, out, job, task, "error", now, message=task.message)
        slots_returned(core, job, now, out)
        return
    task.move(job.job_id, TaskState.RUNNING, "started by the simulated execd")
    task.start_time = now
    task.plan = end_of_run(core, job, task)
    core.spool_task(out, job, task)
    queue = task.queue or ""
    out.emit(StartTask(job.job_id, task.task_id, queue, queue.partition("@")[2]))
    _report(core, out, job, task, "running", now)
    arm_end(core, job, task)
    suspension.started(core, job, task, now, out)


def finish(
    core: Core,
    job: Job,
    task: Task,
    now: float,
    out: Outcome,
    *,
    exit_status: int,
    event: str,
    failed: int = 0,
    account: bool | None = None,
) -> None:
    """The task ended: release its slots, account it, drop the job when all tasks are done.

    A task is accounted when it ran (or ``account`` says so: a forced deletion
    accounts a task the execd had not started yet, as Grid Engine's qmaster does).
    """
    was_running = task.start_time is not None if account is None else account
    pe = granted_pe(core, job, task)
    _release(core, job, task)
    task.move(job.job_id, TaskState.FINISHED, event)
    task.end_time, task.exit_status, task.suspended = now, exit_status, ""  # ended: not suspended
    if was_running:
        task.failed = failed
        ar = core.ars.get(job.spec.ar or 0)
        ar_time = int(ar.submission_time) if ar else 0
        record = reports.acct(job, task, now, ar_submission_time=ar_time, granted_pe=pe)
        out.reports.append(reserved.accounted(core, job, task, record))
    # "dr": the task ran and its acct record (just written) is its end; a SEG reads
    # a deleted job_log as the end only for tasks that never ran
    _report(
        core, out, job, task, event, now, state="dr" if was_running and event == "deleted" else None
    )
    flush = core.config.sched_conf.flush_finish_sec
    if flush > 0:  # Grid Engine's event client holds the event up to flush - 1 seconds
        core.request_pass(now + flush - 1)
    # the event clients' sgeE_JOB_DEL / sgeE_JATASK_DEL (qevent -trigger, -ts); their task id
    # is the ja_task_id, 1 for a job without array tasks (whose reporting records say 0)
    ended = "job_del" if (done := job.is_finished()) else "jatask_del"
    task_number = task.task_id or 1
    out.events.append(
        {"type": ended, "time": int(now), "job_number": job.job_id, "task_number": task_number}
    )
    if done:
        remove_job(core, job, out)
    else:
        core.spool_task(out, job, task)
    if job.spec.ar and HOOKS.job_left is not None:
        HOOKS.job_left(core, job, now, out)


def slots_returned(core: Core, job: Job, now: float, out: Outcome) -> None:
    """A task gave its slots back without ending (it went into error state, ``Eqw``): those
    of a job inside an advance reservation are the AR's again, not the cell's."""
    if job.spec.ar and HOOKS.job_in_error is not None:
        HOOKS.job_in_error(core, job, now, out)


def granted_pe(core: Core, job: Job, task: Task) -> str:
    """The parallel environment the task's slots were booked in (``-pe`` may be a pattern)."""
    for kind, name, _, _ in core.booked.by_task.get((job.job_id, task.task_id), ()):
        if kind == "pe":
            return name
    return str(job.spec.pe_name or reports.NONE)


def finish_pending(core: Core, job: Job, task_id: int, now: float, out: Outcome) -> None:
    """A pending task is deleted before it ever ran."""
    job.pending.remove(task_id)
    task = Task(task_id, TaskState.PENDING)
    job.tasks[task_id] = task
    finish(core, job, task, now, out, exit_status=0, event="deleted")


def remove_job(core: Core, job: Job, out: Outcome) -> None:
    """Forget a job whose tasks have all finished."""
    del core.jobs[job.job_id]
    core.reasons.pop(job.job_id, None)
    core.verify_waiting.discard(job.job_id)
    remember_finished(core, job)
    core.user_jobs[job.owner.user] -= 1
    if core.user_jobs[job.owner.user] <= 0:
        del core.user_jobs[job.owner.user]
    out.spool.jobs[job.job_id] = None
    for key in [k for k in out.spool.tasks if k[0] == job.job_id]:
        del out.spool.tasks[key]


def restore_task_timers(core: Core, job: Job, now: float) -> None:
    """After recovery: rebook consumables and re-arm the timers of active tasks."""
    watch_start_time(core, job, now)
    for task in job.tasks.values():
        if task.state in (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING):
            # rows spooled before tasks kept their debits: worked out again
            debits = task.debits or task_debits(core, job, task, recovery_view(core, now))
            core.booked.book((job.job_id, task.task_id), debits, task.dispatch_time)
        if task.state is TaskState.TRANSFERRING:
            core.set_timer(now, "start", job.job_id, task.task_id)
        elif task.state is TaskState.RUNNING:
            arm_end(core, job, task)
            if task.suspended and job.spec.notify:  # its SIGSTOP may still be due
                core.set_timer(now, NOTIFY_STOP, job.job_id, task.task_id)
        elif task.state is TaskState.DELETING:  # SIGKILL at once, or when its notify time ends
            kill_at = task.plan[0] if task.plan and task.plan[0] != math.inf else now
            core.set_timer(max(now, kill_at), "end", job.job_id, task.task_id)


def _release(core: Core, job: Job, task: Task) -> None:
    if task.state in (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING):
        core.booked.release((job.job_id, task.task_id))


def _report(
    core: Core,
    out: Outcome,
    job: Job,
    task: Task,
    event: str,
    now: float,
    *,
    message: str = "",
    state: str | None = None,
) -> None:
    host = task.queue.partition("@")[2] if task.queue else core.settings.qmaster_host
    shown = state or task.state.value
    out.reports.append(
        reports.job_log(job, task.task_id, event, shown, now, host=host, message=message)
    )


HOOKS.timers["*"] = fire
HOOKS.timers["start"] = HOOKS.timers["end"] = fire  # a task's own: found without a search
HOOKS.run_pass = run_pass
HOOKS.restore_job = restore_task_timers
