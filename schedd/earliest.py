"""The earliest start of a reservation, without a full placement at every end time.

A job that cannot start now gets the first moment a booking ends at which it
fits for its whole duration (see :mod:`schedd.reservation`). Trying a full
timed placement at every such moment walks every candidate queue instance
each time: with hundreds of running tasks, most of a backfill pass.

What is free at a level over ``[t, t + length)`` can only grow from one
candidate time to the next where a booking *of that level* ends in between:
every span that covered a moment of the old window and does not end by the
new start still covers the new start. So a level's room at some candidate time
bounds its room at every later one until a booking of the level ends. The
search keeps that bound per level (host and queue instance levels, and the
PE's slots), refreshes only the levels whose bookings ended, and does the full
placement only at times where the bounds allow the job at all:

- a serial job needs a host with room and a queue instance on it with room;
- a parallel job needs ``pe_min`` slots from the hosts' rooms (each capped by
  the queue instances offered on it; for ``$pe_slots`` on one host), and the
  PE's free slots and the global level's room must allow ``pe_min``.

The placement found is the one a full placement at every time finds first:
the skipped times are exactly times at which it would have failed. A failed
parallel placement notes why in the category (``pe_slots``); only the first
such note of a kind is kept, so the first time the job gets that far is tried
in full unless that note is there already, or the pass does not say why jobs wait.

The bounds after the first settle are kept from pass to pass (:mod:`schedd.keptbound`):
the next search for the same category takes them and settles only the levels that
may have changed since, instead of every candidate host and queue instance.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection, Mapping

from qmaster.complexes.booking import Debit
from qmaster.complexes.levels import Level
from schedd.categories import Category
from schedd.keptbound import FirstBounds, changed_since, keep, kept_bounds, local_levels
from schedd.matching import debits, may_access, room
from schedd.pe import Assignment
from schedd.reservation import Planner
from schedd.view import JobRequest, QueueState, View

Placed = tuple[Assignment, str | None]
Window = tuple[float, float]
LevelKey = tuple[str, str]
Levels = Collection[LevelKey]


class _Bound:
    """Upper bounds of the room each level leaves for one job, kept across start times."""

    def __init__(self, planner: Planner, view: View, cat: Category, pe: str | None) -> None:
        self.planner = planner
        self.compiled = cat.compiled
        self.master = pe is None
        self.pe_key: LevelKey | None = None if pe is None else ("pe", pe)
        self.pe_slots = 0 if pe is None else view.pes[pe].slots
        self.hosts: dict[LevelKey, tuple[str, Level]] = {}
        self.queues: dict[LevelKey, tuple[str, Level]] = {}
        self.where: dict[LevelKey, str] = {}
        """Every level's host (what a kept search must have had the same)."""
        self.order: list[tuple[QueueState, LevelKey]] = []
        """The candidates the job may use (in the PE's list), in order, with their level."""
        where, order, known = self.where, self.order, view.hosts
        hosts, queues = self.hosts, self.queues
        for q in cat.static:  # a loop per search: names bound once (as view.host would find)
            if pe is not None and pe not in q.pe_list:
                continue
            host = q.host
            state = known.get(host)
            level = (view.host(host) if state is None else state).level
            key = (level.kind, level.name)
            hosts[key] = (host, level)
            where[key] = host
            level = q.queue_level
            key = (level.kind, level.name)
            queues[key] = (host, level)
            where[key] = host
            order.append((q, key))
        self.host_room: dict[str, int] = {}
        self.queue_room: dict[LevelKey, int] = {}
        self.queue_sum: dict[str, int] = {}
        self.cap: dict[str, int] = {}
        self.total = 0
        self.free = 0
        self.pending: set[LevelKey] = set()
        self.stale()

    def resume(
        self,
        kept: FirstBounds | None,
        window: Window,
        times: list[float],
        ends: Mapping[float, Levels],
    ) -> None:
        """Before the first settle, at ``window``: take the bounds ``kept`` from an earlier
        search (the same requests, length and levels), leaving pending only the levels
        that may have changed since, those whose bookings end between the kept start and
        this one (at the candidate ``times``, with the levels ``ends`` names) and the PE's
        slots.

        Another start is as good: every span of a level not changed since is a running
        task's (the others are the planner's own: changed), held from before now until
        its end, so the level's room over a window depends only on which of its tasks
        still run at the window's start; a task of it ending between the two starts ends
        at one of the candidate times in between (or is overdue: the planner's own)."""
        if (
            kept is None
            or kept.master != self.master
            or kept.compiled != self.compiled
            or kept.where != self.where
        ):
            return
        since = changed_since(kept, self.planner)
        if since is None:
            return
        self.host_room = dict(kept.host_room)
        self.queue_room = dict(kept.queue_room)
        self.queue_sum = dict(kept.queue_sum)
        self.cap = dict(kept.cap)
        self.total = kept.total
        lo, hi = sorted((kept.window[0], window[0]))
        for start in times[bisect_right(times, lo) : bisect_right(times, hi)]:
            since.update(ends[start])
        where = self.where
        self.pending = {key for key in since if key in where}
        if self.pe_key is not None:
            self.pending.add(self.pe_key)

    def kept(self, window: Window) -> FirstBounds | None:
        """The bounds as settled at ``window`` (copied), to keep for a later search."""
        plan = self.planner.kept
        if plan is None:
            return None
        return FirstBounds(window, self.compiled, self.master, plan, plan.mark(), self.where,
                           dict(self.host_room), dict(self.queue_room), dict(self.queue_sum),
                           dict(self.cap), self.total, local_levels(self.planner))  # fmt: skip

    def stale(self) -> None:
        """Work every bound out again at the next look (they may be loose)."""
        self.pending = {*self.hosts, *self.queues}
        if self.pe_key is not None:
            self.pending.add(self.pe_key)

    def changed(self, keys: Collection[LevelKey]) -> None:
        """Bookings of these levels ended: their bounds no longer hold."""
        self.pending.update(keys)

    def _room(self, level: Level, window: Window) -> int:
        n, _ = room(self.compiled, level, master=self.master, planner=self.planner,
                    window=window, timed=True)  # fmt: skip
        return max(n, 0)

    def settle(self, window: Window) -> None:
        """Bring the bounds of the levels that changed to their values at ``window``."""
        hosts: set[str] = set()
        for key in self.pending:
            if key in self.queues:
                host, level = self.queues[key]
                n = self._room(level, window)
                self.queue_sum[host] = self.queue_sum.get(host, 0) + n - self.queue_room.get(key, 0)
                self.queue_room[key] = n
                hosts.add(host)
            elif key in self.hosts:
                host, level = self.hosts[key]
                self.host_room[host] = self._room(level, window)
                hosts.add(host)
            elif key == self.pe_key:
                peak = self.planner.peak(("pe", key[1], "slots"), *window)
                self.free = self.pe_slots - round(peak)
        self.pending.clear()
        for host in hosts:
            h = self.host_room.get(host, 0)
            cap = min(self.queue_sum.get(host, 0), h) if h >= 1 else 0
            self.total += cap - self.cap.get(host, 0)
            self.cap[host] = cap

    def open(self) -> list[QueueState]:
        """After a settle: the candidates whose host and queue instance the bounds leave
        room on, in order. The others have none at the window (a bound is at least the
        room), so a timed placement, which passes over them, may be given only these:
        it finds what it would find among all."""
        host_room, queue_room = self.host_room, self.queue_room
        return [
            q
            for q, key in self.order
            if queue_room.get(key, 0) >= 1 and host_room.get(q.host, 0) >= 1
        ]

    def may_fit(self, job: JobRequest, g: int, rule: str) -> bool:
        """False when the bounds leave the job no room (a full placement would fail)."""
        if not job.pe_name:
            return self.total >= 1
        if self.free < job.pe_min or min(job.pe_max, g, self.free, self.total) < job.pe_min:
            return False
        return rule != "$pe_slots" or max(self.cap.values(), default=0) >= job.pe_min


def earliest(
    planner: Planner,
    view: View,
    job: JobRequest,
    cat: Category,
    length: float,
    place: Callable[[Window, list[QueueState] | None], Placed | None],
) -> tuple[Window, Placed] | None:
    """The first window of ``length`` starting when a booking ends at which ``place``
    finds room, with what it found; None when there is none. ``place`` is given the
    candidates the bounds leave room on when they are settled at the window (else
    None: all)."""
    if job.pe_name and len(cat.pes) != 1:
        return _every(sorted(planner.ends()), length, place)
    pe = cat.pes[0] if job.pe_name else None
    store = kept_bounds(view, planner)
    key = (cat.key, pe, length)
    if store is not None and not view.job_info:
        again = repeated(store.get(key), planner, cat)
        if again is not None:
            return again[0]
    ends = planner.ends()
    times = sorted(ends)
    bound = _Bound(planner, view, cat, pe)
    rule = "" if pe is None else view.pes[pe].allocation_rule
    # a parallel job is tried in full the first time it gets that far, unless why it
    # failed is already noted (a failed try notes it; only the first such note counts)
    # or nobody reads why (schedd_job_info false: the notes are never shown)
    tried = (
        pe is None
        or not view.job_info
        or (
            may_access(job, view.pes[pe].user_lists, view.pes[pe].xuser_lists, view.usersets)
            and cat.reasons.holds("pe_slots", "pe", pe)
        )
    )
    first = store is not None
    made: FirstBounds | None = None
    for start in times:
        bound.changed(ends[start])
        window = (start, start + length)
        g, _ = room(cat.compiled, view.global_level, planner=planner, window=window, timed=True)
        if g < 1:
            continue
        if tried:
            if first and store is not None:  # the bounds a search kept at this or before
                bound.resume(store.get(key), window, times, ends)
                bound.settle(window)
                kept = bound.kept(window)
                if kept is not None:
                    keep(store, key, kept)
                    made = kept
                first = False
            else:
                bound.settle(window)
            if not bound.may_fit(job, g, rule):
                continue
            among: list[QueueState] | None = bound.open()
        else:
            among = None
        tried = True
        placed = place(window, among)
        if placed is not None:
            return _found(made, view, planner, cat, (window, placed))
        bound.stale()
    return _found(made, view, planner, cat, None)


Found = tuple[Window, Placed] | None


def _alone(planner: Planner) -> bool:
    """The planner holds nothing of its own: every span is the kept running plan's."""
    return not planner.owned and not planner.reserved and not planner.overdue


def _found(
    made: FirstBounds | None, view: View, planner: Planner, cat: Category, found: Found
) -> Found:
    """``found``, kept with the bounds this search made when a later search may take it
    (:func:`repeated`)."""
    if made is not None and not view.job_info and _alone(planner):
        made.outcome = (found, tuple(q.name for q in cat.static))
    return found


def repeated(kept: FirstBounds | None, planner: Planner, cat: Category) -> tuple[Found] | None:
    """What the search that made ``kept`` found, when this one would find the same (in a
    1-tuple; None: search).

    Both planners hold only the kept running plan's spans, and not one was put or
    dropped since: the end times now are those then still to come, and the room a level
    leaves over a window is what it was, but for the levels the view's keeper changed
    (their capacity or load), none of them a candidate. A search takes the first end
    time at which a placement over the candidates, in the same order, succeeds (the
    bounds only pass over times at which it would fail): the same time and placement,
    as long as that time is still to come. With job info off a search notes nothing
    that the pass shows."""
    if kept is None or kept.outcome is None or not _alone(planner):
        return None
    plan = planner.kept
    if plan is None or plan is not kept.plan or plan.since(kept.mark) != []:
        return None
    if kept.local or any(key in kept.where for key in kept.dirty):
        return None
    if kept.compiled is not cat.compiled and kept.compiled != cat.compiled:
        return None
    found, names = kept.outcome
    if found is not None and found[0][0] <= planner.now:
        return None
    static = cat.static
    if len(static) != len(names) or any(q.name != n for q, n in zip(static, names, strict=True)):
        return None
    if found is None:
        return (None,)
    by_name = {q.name: q for q, _ in found[1][0]}
    here = {q.name: q for q in static if q.name in by_name}
    if len(here) != len(by_name):
        return None
    window, (assignment, pe) = found
    return ((window, ([(here[q.name], n) for q, n in assignment], pe)),)


def reserved(view: View, cat: Category, placed: Placed) -> tuple[Debit, ...]:
    """What a reservation where ``placed`` says books (with the PE's slots)."""
    booked = debits(cat.compiled, view, placed[0])
    if placed[1] is not None:
        booked += (("pe", placed[1], "slots", float(sum(n for _, n in placed[0]))),)
    return booked


def _every(
    times: list[float],
    length: float,
    place: Callable[[Window, list[QueueState] | None], Placed | None],
) -> tuple[Window, Placed] | None:
    """A full placement at every time (parallel jobs that may go to several PEs)."""
    for start in times:
        window = (start, start + length)
        placed = place(window, None)
        if placed is not None:
            return window, placed
    return None
