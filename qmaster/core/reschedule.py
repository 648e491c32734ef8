"""qmod -r: running jobs go back to pending, to be scheduled again.

As Grid Engine's ``reschedule_job``, in its order: a job submitted with ``-r n`` is
not restartable; a ``-ckpt`` job only when its ``-c`` occasions (or else its
environment's ``when``) hold ``r``; a task being deleted is not rescheduled; a job
without ``-r`` only in a queue whose ``rerun`` is true. ``-f`` reschedules it
anyway (a task being deleted stays refused). The rescheduled task gives its slots back, its run is accounted (``failed`` 25) and it
waits again, shown ``Rq`` (then ``Rr``) as a restarted task.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from qmaster.complexes.values import parse_bool
from qmaster.core import reports, reserved
from qmaster.core.activetasks import active_tasks
from qmaster.core.arlife import job_left
from qmaster.core.jobs import Identity, Job, Task
from qmaster.core.lifecycle import granted_pe, kill_task
from qmaster.core.outcome import Outcome
from qmaster.core.states import TaskState
from qmaster.gdi.answers import Answer, Status, warning

FAILED_RESCHEDULED = 25  # accounting(5) failed: SSTATE_AGAIN, "rescheduling"
RESCHEDULED = "job didn't get resources -> schedule it again"

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def what_of(job: Job, task: Task) -> str:
    return f"job-array task {job.job_id}.{task.task_id}" if job.array else f"job {job.job_id}"


def refusal(core: Core, job: Job, task: Task) -> str | None:
    """Why the task may not be rescheduled without ``-f`` (Grid Engine's words), or None."""
    what = what_of(job, task)
    rerun = job.spec.rerun
    if rerun is False:
        return f"The {what} is not restartable"
    ckpt = job.spec.ckpt
    if ckpt:
        env = core.config.ckpts.get(str(ckpt))
        if env is None:
            ids = what.rpartition(" ")[2]
            return f"{ids} requests ckpt object {ckpt}. This ckpt object does not exist."
        occasions = job.spec.ckpt_occasion or env.attrs.get("when", "")
        if "r" not in occasions:  # CHECKPOINT_AT_AUTO_RES
            kind, _, ids = what.rpartition(" ")
            return f"{ids} requests ckpt object {ckpt}. Therefore this {kind} is not restartable."
    if task.state is TaskState.DELETING:
        return f"The {what} is already in deleted state. No rescheduling!"
    qi = core.queue_instance(task.queue or "")
    if rerun is None and qi is not None and not parse_bool(qi.attrs.get("rerun", "FALSE")):
        return f"The {what} is running in queue {qi.name} where jobs are not rerunable."
    return None


def reschedule_task(
    core: Core, who: Identity, job: Job, task: Task, force: bool, now: float, out: Outcome
) -> list[Answer]:
    """Send one running (or transferring) task back to pending."""
    what = what_of(job, task)
    why = None if force else refusal(core, job, task)
    if why is None and task.state is TaskState.DELETING:  # kept under -f as well
        why = f"The {what} is already in deleted state. No rescheduling!"
    if why is not None:
        return [warning(why, Status.ESEMANTIC)]
    host = task.queue.partition("@")[2] if task.queue else ""
    if task.start_time is not None:
        kill_task(job, task, out)  # the execd kills the run that is rescheduled
    requeue(core, job, task, f"rescheduled by {who.user}", now, out)
    text = f"{'Forced' if force else 'Pushed'} rescheduling of {what} on host {host}"
    return [warning(text, Status.ESEMANTIC)]  # Grid Engine's quality and status


def requeue(
    core: Core,
    job: Job,
    task: Task,
    why: str,
    now: float,
    out: Outcome,
    *,
    exit_status: int = 0,
    usage: dict[str, float] | None = None,
) -> None:
    """The task's run ends and it waits again as a restarted task (qmod -r, or a job that
    exits 99): its run is accounted with ``failed`` 25 and ``exit_status``."""
    host = task.queue.partition("@")[2] if task.queue else ""
    account_run(core, job, task, now, out, FAILED_RESCHEDULED, exit_status, usage)
    core.booked.release((job.job_id, task.task_id))
    task.move(job.job_id, TaskState.PENDING, why)
    out.reports.append(
        reports.job_log(job, task.task_id, "restart", "qw", now, host=host, message=RESCHEDULED)
    )
    back_to_pending(job, task, out)
    job.restarted = job.restarted | {task.task_id}
    core.spool_job(out, job)
    if job.spec.ar:
        job_left(core, job, now, out)


def account_run(
    core: Core,
    job: Job,
    task: Task,
    now: float,
    out: Outcome,
    failed: int,
    exit_status: int = 0,
    usage: dict[str, float] | None = None,
) -> None:
    """A run of the task that ends without finishing it (rescheduled, or put into error
    state by its execd) is accounted with ``failed``, ``exit_status`` and the resource
    usage its execd reported (``ru_utime``, ``ru_stime``, ``ru_maxrss``)."""
    if task.start_time is None:
        return
    ar = core.ars.get(job.spec.ar or 0)
    ran = Task(task.task_id, task.state, task.assignment, task.dispatch_time, task.start_time)
    ran.end_time, ran.failed, ran.exit_status = now, failed, exit_status
    pe = granted_pe(core, job, task)
    sub = int(ar.submission_time) if ar else 0
    record = reports.acct(job, ran, now, ar_submission_time=sub, granted_pe=pe)
    if usage:
        utime, stime = usage.get("ru_utime", 0.0), usage.get("ru_stime", 0.0)
        record = dataclasses.replace(
            record,
            ru_utime=utime,
            ru_stime=stime,
            ru_maxrss=usage.get("ru_maxrss", 0.0),
            cpu=utime + stime,
        )
    out.reports.append(reserved.accounted(core, job, ran, record))


def reschedule_queue(
    core: Core, who: Identity, qi_name: str, force: bool, now: float, out: Outcome
) -> list[Answer]:
    """qmod -rq: reschedule the jobs whose master task runs in the queue instance."""
    answers: list[Answer] = []
    for job, task in list(active_tasks(core)):
        active = task.state in (TaskState.RUNNING, TaskState.TRANSFERRING)
        if active and task.queue == qi_name:
            answers.extend(reschedule_task(core, who, job, task, force, now, out))
    return answers


def back_to_pending(job: Job, task: Task, out: Outcome) -> None:
    """A task that left pending waits again: it has no task object (nor row) any more."""
    del job.tasks[task.task_id]
    job.pending.add(task.task_id)
    out.spool.tasks[(job.job_id, task.task_id)] = None
