"""What :class:`~qmaster.complexes.booking.Bookings` keeps besides the bookings, checked
against them (part of :func:`qmaster.core.validate.validate_state`'s ``bookings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.complexes.load import summed_running_slots
from qmaster.core.viewload import RECENT_KEY, recent_dispatches

if TYPE_CHECKING:
    from qmaster.core.machine import Core

_EPSILON = 1e-6


def kept_by_bookings(core: Core) -> list[str]:
    """The running slots per host, the dispatch times in order and the recent dispatches
    a pass keeps, as the booked tasks have them."""
    booked, problems = core.booked, []
    summed = summed_running_slots(booked)
    for host in sorted(summed.keys() | booked.running.keys()):
        want, have = summed.get(host, 0.0), booked.running.get(host, 0.0)
        if abs(want - have) > _EPSILON:
            problems.append(f"running slots on {host}: kept {have}, its tasks hold {want}")
    if sorted(booked.dispatched) != booked.dispatched:
        problems.append("the booked dispatch times are out of order")
    kept = {task: (when, seq) for when, seq, task in booked.dispatched}
    if kept != booked.when:
        problems.append("the booked dispatch times and their order disagree")
    for key in sorted(k for k in booked.by_task if k[0] > 0):
        job = core.jobs.get(key[0])
        task = job.tasks.get(key[1]) if job is not None else None
        live = task.dispatch_time if task is not None else None
        have_time = booked.when.get(key)
        if (have_time[0] if have_time else None) != live:
            problems.append(
                f"task {key[0]}.{key[1]} is booked as dispatched at {have_time}, not {live}"
            )
    kept_recent = core.derived.get(RECENT_KEY)
    if kept_recent is not None:
        token, value = kept_recent
        assert isinstance(value, tuple)
        since, recent = value
        current = token == (booked.version, booked.dispatched_before(since))
        if current and recent != recent_dispatches(core, since):
            problems.append("the kept recent dispatches differ from the booked tasks'")
    return problems
