"""What the scheduler view needs of the load settings: sorting, formula, adjustments.

The job load adjustments of tasks dispatched within ``load_adjustment_decay_time``
still count (decaying) in a pass, so the view lists those tasks' hosts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qmaster.complexes.values import parse_time
from qmaster.conf import fields as f
from qmaster.core.states import TaskState

if TYPE_CHECKING:
    from qmaster.core.machine import Core

ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)
RECENT_KEY = "recent_dispatches"
Recent = list[tuple[tuple[tuple[str, int], ...], float]]


def load_settings(core: Core, now: float, empty: bool) -> dict[str, Any]:
    """queue_sort_method, load_formula and the job load adjustments still decaying."""
    queue_sort, formula, adjustments, decay = core.per_config(
        "sched_load_settings", tuple, lambda: _settings(core)
    )
    recent: Recent = []
    if adjustments and decay > 0 and not empty:
        recent = _recent(core, now - decay)
    return {
        "queue_sort": queue_sort,
        "load_formula": formula,
        "load_adjustments": list(adjustments),
        "load_decay": decay,
        "recent": recent,
    }


def _settings(core: Core) -> tuple[str, str, tuple[tuple[str, float], ...], float]:
    """The load settings of the scheduler configuration (read once per configuration)."""
    attrs = core.config.sched_conf.attrs
    adjustments = tuple(
        (name, float(value))
        for name, value in f.split_pairs(attrs.get("job_load_adjustments", "NONE")).items()
        if _is_number(value)
    )
    decay = parse_time(attrs.get("load_adjustment_decay_time", "0"))
    formula = attrs.get("load_formula", "np_load_avg")
    return core.config.sched_conf.queue_sort_method, formula, adjustments, decay


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _recent(core: Core, since: float) -> Recent:
    """:func:`recent_dispatches`, kept while no booking changed and no task left the decay
    window (every pass of a full cell would go through all its running tasks again)."""
    booked = core.booked
    token = (booked.version, booked.dispatched_before(since))
    kept = core.derived.get(RECENT_KEY)
    if kept is not None and kept[0] == token:
        found = kept[1]
        assert isinstance(found, tuple)
        return list(found[1])
    recent = recent_dispatches(core, since)
    core.derived[RECENT_KEY] = (token, (since, recent))
    return list(recent)


def recent_dispatches(core: Core, since: float) -> Recent:
    """The slots of running tasks dispatched after ``since`` per host, with their
    slot-weighted mean dispatch time: the linear decay of all of them adds up to the
    decay of one such entry. Only tasks holding a booking can be active, so the
    bookings say where to look: those booked as dispatched after ``since``, in the
    order they were booked (each pass would otherwise look at every running task)."""
    slots: dict[str, int] = {}
    weighted: dict[str, float] = {}
    jobs = core.jobs
    for job_id, task_id in core.booked.dispatched_after(since):
        job = jobs.get(job_id)  # advance reservations book under negative ids
        task = job.tasks.get(task_id) if job is not None else None
        if task is None:
            continue
        when = task.dispatch_time
        if task.state in ACTIVE and when is not None and when > since:
            for name, n in task.assignment:
                host = name.partition("@")[2]
                slots[host] = slots.get(host, 0) + n
                weighted[host] = weighted.get(host, 0.0) + n * when
    return [(((host, n),), weighted[host] / n) for host, n in slots.items() if n > 0]
