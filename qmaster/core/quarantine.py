"""Jobs and tasks the qmaster keeps failing on go into error state, so the rest goes on.

A bug in the core that a timer or a dispatch of one task runs into would
otherwise come back forever: the driver throws the half-done change away and
reloads the spool, the task's timer is armed again and fires again. The
driver counts the failures per job and task (:attr:`Core.working_on` names
what the core was doing when it raised); at the second it calls
:func:`put_in_error`. The task (for a job-wide timer: every pending task of
the job) goes into error state, ``Eqw``, with the reason that ``qstat -j``
shows as its ``error reason``; its slots are given back. ``qmod -cj`` clears
the error once the bug is fixed, and ``qdel`` deletes it.
"""

from __future__ import annotations

from qmaster.core import reports
from qmaster.core.jobs import Job, Task
from qmaster.core.lifecycle import START_TIME, slots_returned
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.states import ACTIVE, TaskState

TASK_STEPS = frozenset({"start", "end", "dispatch"})
"""What the core works on for one task; :data:`START_TIME` is for the whole job."""


def culprit(working_on: tuple[str, int, int] | None) -> tuple[int, int | None] | None:
    """The job and task (None: the whole job) a failed step was about, or None."""
    if working_on is None:
        return None
    kind, job_id, task_id = working_on
    if kind in TASK_STEPS:
        return job_id, task_id
    if kind == START_TIME:
        return job_id, None
    return None


def put_in_error(core: Core, job_id: int, task_id: int | None, reason: str, now: float) -> Outcome:
    """Move the task (or every pending task of the job) into ``Eqw`` with ``reason``."""
    core.advance(now)
    out = Outcome(answered=False)  # the driver acts on its own: nobody is answered
    job = core.jobs.get(job_id)
    if job is None:
        return out
    with core.journal.stimulus("quarantine", now, out, core.jobs):
        _quarantine(core, job, task_id, reason, now, out)
    core.touch(out)  # the pass and the AR index learn of the jobs it changed (or removed)
    return out


def _quarantine(
    core: Core, job: Job, task_id: int | None, reason: str, now: float, out: Outcome
) -> None:
    ids = list(job.pending) if task_id is None else [task_id]
    for tid in ids:
        task = _task(job, tid)
        if task is None or task.state in (TaskState.ERROR, TaskState.FINISHED):
            continue
        if task.state in ACTIVE:
            core.booked.release((job.job_id, tid))
        task.move(job.job_id, TaskState.ERROR, "the qmaster failed on it twice")
        task.message = reason
        task.assignment = ()
        task.suspended, task.remaining, task.plan, task.debits = "", None, None, ()
        core.spool_task(out, job, task)
        out.reports.append(reports.job_log(job, tid, "error", "Eqw", now, message=reason))
        out.log("job_put_in_error", job_id=job.job_id, task_id=tid, reason=reason)
    core.spool_job(out, job)
    slots_returned(core, job, now, out)


def _task(job: Job, task_id: int) -> Task | None:
    """The task object, made for a task still pending."""
    if task_id in job.tasks:
        return job.tasks[task_id]
    if task_id not in job.pending:
        return None
    job.pending.remove(task_id)
    task = Task(task_id, TaskState.PENDING)
    job.tasks[task_id] = task
    return task
