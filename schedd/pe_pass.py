"""A parallel job's turn in a scheduling pass: for each PE it may use, the PE's free slots
(now, or over a reservation's window), the slots its allocation rule takes from the queue
instances offered, and a master task's queue (``-masterq``, ``JOB`` consumables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schedd.matching import master_reason, may_access, queue_matches
from schedd.pe import Assignment, allocate, early_stop, master_first
from schedd.reasons import Reason

if TYPE_CHECKING:
    from schedd.categories import Category
    from schedd.pass_ import _Pass
    from schedd.view import JobRequest, QueueState


def try_pe(
    run: _Pass,
    job: JobRequest,
    cat: Category,
    pe_name: str,
    window: tuple[float, float],
    g: int,
    timed: bool,
    among: list[QueueState] | None = None,
) -> Assignment | None:
    pe = run.view.pes[pe_name]
    if not may_access(job, pe.user_lists, pe.xuser_lists, run.view.usersets):
        cat.note(Reason("pe_access", "pe", pe_name))
        return None
    free = pe_free(run, pe_name, window, timed)
    if free < job.pe_min:
        cat.note(Reason("pe_slots", "pe", pe_name, "slots", str(job.pe_min), str(free)))
        return None
    limit = min(g, free)
    # $fill_up takes the first hosts offered: those that give what it takes will do
    enough = min(job.pe_max, limit) if early_stop(pe.allocation_rule, timed, run.why) else 0
    offers, host_room = run.offers(cat, pe_name, window, timed, enough, among)
    got = allocate(pe.allocation_rule, job.pe_min, job.pe_max, offers, host_room, limit)
    if got is not None and not good_master(run, job, cat, got[0][0], window, timed):
        got = None
        if enough:  # the master is looked for among all
            offers, host_room = run.offers(cat, pe_name, window, timed, among=among)
        for master in _masters(run, job, cat, offers, window, timed):
            tried = allocate(
                pe.allocation_rule, job.pe_min, job.pe_max, master_first(offers, master),
                host_room, limit,
            )  # fmt: skip
            if tried is not None and tried[0][0] is master:
                got = tried
                break
    if got is None and run.why:
        total = sum(min(n, host_room.get(q.host, 0)) for q, n in offers)
        cat.note(Reason("pe_slots", "pe", pe_name, "slots", str(job.pe_min), str(total)))
    return got


def pe_free(run: _Pass, pe_name: str, window: tuple[float, float], timed: bool) -> int:
    """A PE's slots free now, or over ``window`` where reservations hold some of them."""
    pe = run.view.pes[pe_name]
    key = ("pe", pe_name, "slots")
    planner = run.planner
    if planner is not None and (timed or key in planner.reserved):
        return pe.slots - round(planner.peak(key, *window))
    return pe.slots - pe.used


def _masters(
    run: _Pass,
    job: JobRequest,
    cat: Category,
    offers: list[tuple[QueueState, int]],
    window: tuple[float, float],
    timed: bool,
) -> list[QueueState]:
    """The offered queue instances that may hold the master task, in preference order."""
    return [q for q, _ in offers if good_master(run, job, cat, q, window, timed)]


def good_master(
    run: _Pass,
    job: JobRequest,
    cat: Category,
    q: QueueState,
    window: tuple[float, float],
    timed: bool,
) -> bool:
    """In the master queue list (``-masterq``), and with the job's ``JOB`` consumables."""
    if job.master_queues and not any(queue_matches(p, q) for p in job.master_queues):
        if not timed and run.why:
            cat.note(Reason("masterq", "queue", q.name))
        return False
    levels = (run.view.global_level, run.view.host(q.host).level, q.queue_level)
    reason = master_reason(cat.compiled, levels)
    if reason is not None:
        if not timed and run.why:
            cat.note(reason)
        return False
    return bool(run.fits(cat, q, window, timed, master=True))
