"""qmod on jobs: suspend (``-sj``), unsuspend (``-usj``), clear the error state (``-cj``)
and reschedule (``-rj``), task by task, with Grid Engine's answers.

As in Grid Engine's sge_change_job_state, each task that left pending gets its
own answer; a pending task cannot be modified (a warning says so, once for an
array job none of whose tasks started). Clearing an error answers as an error
in Grid Engine (status ESEMANTIC), so ``qmod -cj`` exits 1 there and here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.core import suspension
from qmaster.core.control import as_named
from qmaster.core.jobs import Identity, Job, Task
from qmaster.core.outcome import Outcome
from qmaster.core.reschedule import back_to_pending, reschedule_task
from qmaster.core.states import TaskState
from qmaster.core.taskids import TaskIds
from qmaster.gdi.answers import Answer, Status, error, ok, warning

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def on_job(
    core: Core,
    who: Identity,
    verb: str,
    job: Job,
    ids: TaskIds | range | None,
    force: bool,
    now: float,
    out: Outcome,
) -> list[Answer]:
    """Apply one qmod verb (``s``, ``us``, ``c``, ``r``) to the job's selected tasks."""
    if job.owner.user != who.user and not core.is_operator(who):  # manop_is_operator()
        text = f'{who.user} - you have no permission to modify job "{job.job_id}"'
        return [error(text, Status.ENOTOWNER)]
    wanted = as_named(job, ids)
    enrolled = [
        t
        for t in sorted(job.tasks.values(), key=lambda t: t.task_id)
        if t.state is not TaskState.FINISHED and (wanted is None or t.task_id in wanted)
    ]
    pending = job.pending.copy() if wanted is None else job.pending & wanted
    answers: list[Answer] = []
    for task in enrolled:
        answers.extend(_on_task(core, who, verb, job, task, force, now, out))
    if job.array and wanted is None:
        if not enrolled and pending:
            answers.append(_not_enrolled(job, None))
    else:
        answers.extend(_not_enrolled(job, t) for t in pending)
    return answers


def _not_enrolled(job: Job, task_id: int | None) -> Answer:
    if task_id is not None and job.array:
        what = f"job-array task {job.job_id}.{task_id}"
    else:
        what = f"job {job.job_id}"
    text = f"Modify operation can not be applied on {what} in pending/hold state"
    return warning(text, Status.ESEMANTIC)


def _what(job: Job, task: Task) -> str:
    return f"job-array task {job.job_id}.{task.task_id}" if job.array else f"job {job.job_id}"


def _on_task(
    core: Core,
    who: Identity,
    verb: str,
    job: Job,
    task: Task,
    force: bool,
    now: float,
    out: Outcome,
) -> list[Answer]:
    if verb == "c":
        return [_clear(who, job, task, out)]
    if verb == "r":
        if task.state in (TaskState.RUNNING, TaskState.TRANSFERRING, TaskState.DELETING):
            return reschedule_task(core, who, job, task, force, now, out)
        return []
    if task.state is not TaskState.RUNNING:
        return []  # not running on an execd: nothing to signal (as Grid Engine, no answer)
    what = _what(job, task)
    if verb == "s":
        return [_suspend(core, who, job, task, what, force, now, out)]
    return [_unsuspend(core, who, job, task, what, force, now, out)]


def _suspend(
    core: Core,
    who: Identity,
    job: Job,
    task: Task,
    what: str,
    force: bool,
    now: float,
    out: Outcome,
) -> Answer:
    """qmod_job_suspend: ``-f`` on a suspended task signals it again (a warning)."""
    if suspension.BY_JOB in task.suspended:
        text = (
            f"{who.user} - forced suspension of {what}"
            if force
            else (f"{who.user} - {what} is already suspended")
        )
        return warning(text, Status.ESEMANTIC)
    suspension.suspend(core, job, task, suspension.BY_JOB, now, out)
    verb = "forced suspension of" if force else "suspended"
    return ok(f"{who.user} - {verb} {what}")


def _unsuspend(
    core: Core,
    who: Identity,
    job: Job,
    task: Task,
    what: str,
    force: bool,
    now: float,
    out: Outcome,
) -> Answer:
    """qmod_job_unsuspend: ``-f`` on a task not suspended signals it again (a warning)."""
    if suspension.BY_JOB not in task.suspended:
        text = (
            f"{who.user} - forced enabling of {what}"
            if force
            else (f"{who.user} - {what} is already unsuspended")
        )
        return warning(text, Status.ESEMANTIC)
    suspension.resume(core, job, task, suspension.BY_JOB, now, out)
    if force:
        return ok(f"{who.user}@{who.host} forced unsuspension of {what}")
    return ok(f"{who.user} - unsuspended {what}")


def _clear(who: Identity, job: Job, task: Task, out: Outcome) -> Answer:
    """``Eqw`` -> ``qw``; Grid Engine answers both outcomes with status ESEMANTIC."""
    array = job.array is not None
    if task.state is not TaskState.ERROR:
        if array:
            return error(f"Job-array task {job.job_id}.{task.task_id} is not in error state")
        return error(f"Job {job.job_id} is not in error state")
    task.move(job.job_id, TaskState.PENDING, f"error cleared by {who.user}")
    back_to_pending(job, task, out)
    where = f"{who.user}@{who.host}"
    if array:
        return error(f"{where} cleared error state of job-array task {job.job_id}.{task.task_id}")
    return error(f"{where} cleared error state of job {job.job_id}")
