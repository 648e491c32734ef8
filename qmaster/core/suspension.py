"""Suspended tasks: by qmod -sj (``s``) or through their suspended queue instance (``S``).

A simulated task that is suspended keeps its slots and the runtime it has left:
its end timer is ignored while it is suspended and planned again, ``remaining``
seconds ahead, when the last reason for the suspension goes. Both reasons are
kept on the task (``Task.suspended``) and spooled with it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from qmaster.core import execsignals, reports
from qmaster.core.activetasks import active_tasks
from qmaster.core.effects import SignalTask
from qmaster.core.jobs import Job, Task
from qmaster.core.outcome import Outcome
from qmaster.core.qinstances import letters
from qmaster.core.qstates import suspends
from qmaster.core.states import TaskState
from qmaster.core.story import task_noted

if TYPE_CHECKING:
    from qmaster.core.machine import Core

BY_JOB = "s"
BY_QUEUE = "S"


def shown_state(task: Task) -> str | None:
    """qstat's state of a suspended task (``s`` before ``S``), or None."""
    if task.state is not TaskState.RUNNING or not task.suspended:
        return None
    return BY_JOB if BY_JOB in task.suspended else BY_QUEUE


def suspend(core: Core, job: Job, task: Task, why: str, now: float, out: Outcome) -> bool:
    """Add a reason to suspend a running task; True when the task was running until now."""
    if task.state is not TaskState.RUNNING or why in task.suspended:
        return False
    was_running = not task.suspended
    if was_running:
        end = task.plan[0] if task.plan else now
        task.remaining = max(0.0, end - now)
    task.suspended = "".join(sorted(set(task.suspended) | {why}))
    core.spool_task(out, job, task)
    if was_running:
        task_noted(job.job_id, task.task_id, "running -> suspended", task.queue)
        _log(job, task, "suspended", now, out)
        execsignals.stop(core, job, task, now, out)
    return was_running


def resume(core: Core, job: Job, task: Task, why: str, now: float, out: Outcome) -> bool:
    """Drop a reason; when none is left the task runs on for the time it had left."""
    if why not in task.suspended:
        return False
    task.suspended = task.suspended.replace(why, "")
    if not task.suspended and task.state is TaskState.RUNNING:
        status, failed = (task.plan[1], task.plan[2]) if task.plan else (0, 0)
        task.plan = (now + (task.remaining or 0.0), status, failed)
        task.remaining = None
        if task.plan[0] != math.inf:  # a local task without limits: its process ends it
            core.set_timer(task.plan[0], "end", job.job_id, task.task_id)
        task_noted(job.job_id, task.task_id, "suspended -> running", task.queue)
        _log(job, task, "unsuspended", now, out)
        _signal(job, task, "CONT", out)
    core.spool_task(out, job, task)
    return not task.suspended


def tasks_in(core: Core, qi_name: str) -> list[tuple[Job, Task]]:
    """The running tasks whose master queue is ``qi_name``."""
    return [
        (job, task)
        for job, task in active_tasks(core)
        if task.state is TaskState.RUNNING and task.queue == qi_name
    ]


def follow_queue(core: Core, qi_name: str, now: float, out: Outcome) -> None:
    """After a queue instance's states changed: suspend or resume the tasks running in it."""
    held = suspends(letters(core, qi_name))
    for job, task in tasks_in(core, qi_name):
        if held:
            suspend(core, job, task, BY_QUEUE, now, out)
        else:
            resume(core, job, task, BY_QUEUE, now, out)


def started(core: Core, job: Job, task: Task, now: float, out: Outcome) -> None:
    """A task starting in a suspended queue instance is suspended at once."""
    if task.queue and suspends(letters(core, task.queue)):
        suspend(core, job, task, BY_QUEUE, now, out)


def _signal(job: Job, task: Task, signal: str, out: Outcome) -> None:
    host = task.queue.partition("@")[2] if task.queue else ""
    out.emit(SignalTask(job.job_id, task.task_id, host, signal))


def _log(job: Job, task: Task, event: str, now: float, out: Outcome) -> None:
    host = task.queue.partition("@")[2] if task.queue else ""
    state = shown_state(task) or task.state.value
    out.reports.append(reports.job_log(job, task.task_id, event, state, now, host=host))
