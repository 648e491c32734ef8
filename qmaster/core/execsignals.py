"""The signals Grid Engine's execd sends a running job before the one that stops or ends it.

* ``-notify``: a job about to be killed (qdel) gets SIGUSR2, one about to be
  stopped (qmod -s, its queue suspended) SIGUSR1, the queue's ``notify`` time
  before the SIGKILL or SIGSTOP (qsub(1));
* ``s_rt``: a job past its soft wall clock limit gets SIGUSR1 and is killed
  the queue's ``notify`` time later, whether it asked for ``-notify`` or not
  (queue_conf(5), RESOURCE LIMITS); ``h_rt`` is a SIGKILL at once.

The core stays pure: the signals are :class:`~qmaster.core.effects.SignalTask`
effects and the delayed ones timers. A simulated task is not signalled by its
driver; in local mode the job may catch the warning and end by itself, and its
real end is what is accounted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.complexes.values import parse_time
from qmaster.core.arlimit import ar_runtime_limit
from qmaster.core.effects import SignalTask
from qmaster.core.jobs import Job, Task
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS, Timer
from qmaster.core.states import TaskState

if TYPE_CHECKING:
    from qmaster.core.machine import Core

NOTIFY_STOP = "notify_stop"  # the timer of the SIGSTOP after a -notify job's SIGUSR1
SIGKILL_EXIT = 137
FAILED_AFTER_JOB = 100


def runtime_limit(job: Job, core: Core, task: Task, name: str) -> float | None:
    """The task's ``s_rt``/``h_rt``: the lower of its request and its queue's, or None."""
    values: list[float] = []
    requested = job.spec.resource(name)
    if requested is not None:
        values.append(_seconds(str(requested)))
    for qi_name, _ in task.assignment[:1]:
        qi = core.queue_instance(qi_name)
        limit = getattr(qi, name, None) if qi else None
        if limit is not None:
            values.append(float(limit))
    finite = [v for v in values if v != float("inf")]
    return min(finite) if finite else None


_SECONDS_KEPT = 4096
_seconds_of: dict[str, float] = {}


def _seconds(text: str) -> float:
    """``parse_time`` of a requested limit, each text parsed once (a bounded table: every
    task's start asks for its ``s_rt`` and ``h_rt``); a refused text raises each time."""
    found = _seconds_of.get(text)
    if found is None:
        if len(_seconds_of) >= _SECONDS_KEPT:
            _seconds_of.clear()
        found = _seconds_of[text] = parse_time(text)
    return found


def queue_notify(core: Core, task: Task) -> float:
    """The ``notify`` time of the task's queue, in seconds."""
    qi = core.queue_instance(task.queue) if task.queue else None
    try:
        return parse_time(qi.attrs.get("notify", "0")) if qi else 0.0
    except ValueError:
        return 0.0


def notify_delay(core: Core, job: Job, task: Task) -> float:
    """Seconds between SIGUSR2 and SIGKILL for a running ``-notify`` job (else 0)."""
    if not job.spec.notify or task.start_time is None:
        return 0.0
    return queue_notify(core, task)


def signal(job: Job, task: Task, name: str, out: Outcome) -> None:
    """Have the task's execd send its job SIG``name``."""
    host = task.queue.partition("@")[2] if task.queue else ""
    out.emit(SignalTask(job.job_id, task.task_id, host, name))


def warn_deletion(core: Core, job: Job, task: Task, out: Outcome) -> float:
    """qdel of a running task: SIGUSR2 first for a ``-notify`` job; the seconds until the
    SIGKILL."""
    delay = notify_delay(core, job, task)
    if job.spec.notify and task.start_time is not None:
        signal(job, task, "USR2", out)
    return delay


def stop(core: Core, job: Job, task: Task, now: float, out: Outcome) -> None:
    """Suspend a running task's job: SIGSTOP, after a SIGUSR1 and the notify time for a
    ``-notify`` job."""
    if not job.spec.notify:
        signal(job, task, "STOP", out)
        return
    signal(job, task, "USR1", out)
    core.set_timer(now + queue_notify(core, task), NOTIFY_STOP, job.job_id, task.task_id)


def _stop_now(core: Core, timer: Timer, now: float, out: Outcome) -> None:
    """The notify time after a suspended ``-notify`` job's SIGUSR1: SIGSTOP, unless it
    runs on (resumed) or has ended meanwhile."""
    job = core.jobs.get(timer.job_id)
    task = job.tasks.get(timer.task_id) if job else None
    if job and task and task.state is TaskState.RUNNING and task.suspended:
        signal(job, task, "STOP", out)


def soft_limit_reached(core: Core, job: Job, task: Task, now: float, out: Outcome) -> None:
    """A local task past ``s_rt``: SIGUSR1 now, and its end planned as a SIGKILL the
    queue's notify time later (or at ``h_rt`` when that comes first)."""
    assert task.start_time is not None
    signal(job, task, "USR1", out)
    kill_at = now + queue_notify(core, task)
    h_rt = ar_runtime_limit(core, job, task.start_time, runtime_limit(job, core, task, "h_rt"))
    if h_rt is not None:
        kill_at = min(kill_at, max(now, task.start_time + h_rt))
    task.plan = (kill_at, SIGKILL_EXIT, FAILED_AFTER_JOB)
    core.spool_task(out, job, task)
    core.set_timer(kill_at, "end", job.job_id, task.task_id)


HOOKS.timers[NOTIFY_STOP] = _stop_now
