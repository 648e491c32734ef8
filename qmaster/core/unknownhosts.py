"""reschedule_unknown: the jobs of a host whose execd is gone wait again.

As Grid Engine's reschedule_unknown_trigger() and reschedule_unknown_event(): when
a host's queue instances become unknown (``u``; minige's simulated hosts only by
``qconf -ke``, as they are never unheard of otherwise) and the global configuration's
``reschedule_unknown`` is not 0 (host-local configurations are not kept), then that
long after, if the host is still unknown, the tasks whose master queue is there are
rescheduled as ``qmod -r`` without ``-f`` would do it: ``-r n``, ``-ckpt`` occasions
and the queue's ``rerun`` decide; a rescheduled run is accounted with ``failed`` 25
and the task waits again (``Rq``, then ``Rr``). The answers go to the messages
file only (``job_rescheduled`` / ``job_not_rescheduled``), as the qmaster's do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.complexes.values import parse_time
from qmaster.core.activetasks import active_tasks
from qmaster.core.lifecycle import kill_task
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS, Timer
from qmaster.core.reschedule import refusal, requeue, what_of
from qmaster.core.states import TaskState

if TYPE_CHECKING:
    from qmaster.core.machine import Core

TIMER = "reschedule_unknown"
_EPSILON = 1e-6


def _delay(core: Core) -> float:
    text = core.config.global_conf.attrs.get("reschedule_unknown", "00:00:00")
    try:
        return parse_time(text)
    except ValueError:
        return 0.0


def host_went_down(core: Core, host: str, now: float) -> None:
    """``host`` became unknown at ``now``: set its reschedule_unknown timer, if any."""
    delay = _delay(core)
    if delay > 0 and host not in core.unknown_since:
        core.unknown_since[host] = now
        core.set_timer(now + delay, TIMER, 0, 0)


def _fire(core: Core, _timer: Timer, now: float, out: Outcome) -> None:
    delay = _delay(core)
    due = [
        host
        for host, since in core.unknown_since.items()
        if delay > 0 and since + delay <= now + _EPSILON
    ]
    for host in due:
        del core.unknown_since[host]
        if host in core.down_hosts:
            _reschedule_host(core, host, now, out)


def _reschedule_host(core: Core, host: str, now: float, out: Outcome) -> None:
    there = [
        (job, task)
        for job, task in active_tasks(core)
        if (task.queue or "").partition("@")[2] == host
        and task.state in (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)
    ]
    for job, task in there:
        what = what_of(job, task)
        why = refusal(core, job, task)
        if why is not None:
            out.log("job_not_rescheduled", job_id=job.job_id, task_id=task.task_id, text=why)
            continue
        if task.start_time is not None:
            kill_task(job, task, out)
        requeue(core, job, task, f"reschedule_unknown of host {host}", now, out)
        text = f"Pushed rescheduling of {what} on host {host}"
        out.log("job_rescheduled", job_id=job.job_id, task_id=task.task_id, text=text)
    if there:
        core.request_pass(now)


HOOKS.timers[TIMER] = _fire
