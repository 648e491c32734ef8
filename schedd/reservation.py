"""Resource reservation and backfilling: consumables over time.

When a pass may reserve (``max_reservation`` > 0 and some job asks with
``-R y``), the planner keeps, per level and consumable, the bookings with
their time spans: running tasks until their expected end (``h_rt``, else
``default_duration``), tasks dispatched in this pass for their duration, and
reservations, and advance reservations over their windows. A job that cannot start now gets the earliest start at which
everything it needs is free for its whole duration, and those resources are
booked from then on. Later jobs may start now only where they do not cut into
a reservation during their own duration — that is backfilling.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Collection, Iterable, Sequence

from qmaster.complexes.booking import Debit, TaskKey
from qmaster.complexes.levels import Level
from schedd.view import View

Span = tuple[float, float, float]
Key = tuple[str, str, str]


class RunningPlan:
    """The running tasks' bookings until their expected end, kept from pass to pass.

    ``spans`` holds per key the spans ``(-inf, end, amount)`` of the tasks
    :meth:`put` (a pass's :class:`Planner` shares the lists and copies one
    before it books into it); ``ends`` the tasks by expected end, so that a
    pass finds the ones already overdue without looking at the others;
    ``levels_at`` per expected end the levels ``(kind, name)`` whose bookings end
    then (with how many), so that a pass need not read every span for them; ``log``
    the levels whose spans changed, in order, so that what was worked out from the
    spans can be kept for the levels not named since;
    ``peaks`` the peaks the planners on it worked out for windows not starting at now,
    per key with the spans they were worked out from (see :meth:`Planner.peak`).
    """

    __slots__ = ("ends", "levels_at", "log", "logged", "peaks", "spans", "tasks")

    def __init__(self) -> None:
        self.spans: dict[Key, list[Span]] = {}
        self.tasks: dict[TaskKey, tuple[tuple[Debit, ...], float]] = {}
        self.ends: list[tuple[float, TaskKey]] = []
        self.levels_at: dict[float, dict[tuple[str, str], int]] = {}
        self.peaks: dict[Key, tuple[list[Span], dict[tuple[float, float], float]]] = {}
        self.log: list[tuple[str, str]] = []
        """The levels ``(kind, name)`` whose spans :meth:`put` and :meth:`drop` changed,
        in order (``logged`` of them forgotten from the front)."""
        self.logged = 0

    def mark(self) -> int:
        """Where the log stands (for :meth:`since`)."""
        return self.logged + len(self.log)

    def since(self, mark: int) -> list[tuple[str, str]] | None:
        """The levels whose spans changed since ``mark`` (None: forgotten, any may have)."""
        return None if mark < self.logged else self.log[mark - self.logged :]

    def _logged(self, kind: str, name: str) -> None:
        self.log.append((kind, name))
        if len(self.log) >= LOG_KEPT:
            half = len(self.log) // 2
            del self.log[:half]
            self.logged += half

    def put(self, task: TaskKey, debits: tuple[Debit, ...], end: float) -> None:
        """Hold ``debits`` for ``task`` until ``end`` (put again: replaced)."""
        self.drop(task)
        self.tasks[task] = (debits, end)
        insort(self.ends, (end, task))
        levels = self.levels_at.setdefault(end, {}) if debits else {}
        for kind, name, attr, amount in debits:
            self.spans.setdefault((kind, name, attr), []).append((-math.inf, end, amount))
            levels[(kind, name)] = levels.get((kind, name), 0) + 1
            self._logged(kind, name)

    def drop(self, task: TaskKey) -> None:
        """Forget what ``task`` holds; unknown tasks are ignored."""
        found = self.tasks.pop(task, None)
        if found is None:
            return
        debits, end = found
        del self.ends[bisect_right(self.ends, (end, task)) - 1]
        levels = self.levels_at.get(end, {})
        for kind, name, attr, amount in debits:
            key = (kind, name, attr)
            spans = self.spans[key]
            spans.remove((-math.inf, end, amount))
            if not spans:
                del self.spans[key]
            self._logged(kind, name)
            left = levels[(kind, name)] - 1
            if left:
                levels[(kind, name)] = left
            else:
                del levels[(kind, name)]
        if debits and not levels:
            del self.levels_at[end]

    def overdue(self, now: float) -> list[tuple[float, TaskKey]]:
        """The tasks expected to have ended by ``now``, with that end."""
        return self.ends[: bisect_right(self.ends, now, key=_end)]


def _end(entry: tuple[float, TaskKey]) -> float:
    return entry[0]


LOG_KEPT = 1 << 16
"""The running plan's log is halved when it reaches this many entries."""

KEEP_WINDOWS = 8
"""How many windows' peaks are kept per key (the first start of the search, and the
later ones where the key's bookings end)."""


def _at(spans: Iterable[Span], t: float) -> float:
    """What is booked at ``t``."""
    here: float = 0
    for s, e, amt in spans:
        if s <= t < e:
            here += amt
    return here


def peak_of(spans: Sequence[Span], a: float, b: float) -> float:
    """The most of ``spans`` booked at any moment of ``[a, b)``."""
    best = _at(spans, a)  # loops, not sums of generators: asked for every level
    for t, _, _ in spans:
        if a < t < b:  # a booking starts within: the sum then may be more
            best = max(best, _at(spans, t))
    return best


def peaks_differ(plan: RunningPlan) -> list[str]:
    """The kept peaks that differ from those worked out again from their spans."""
    return [
        f"kept peaks: {' '.join(key)} over {window} kept {got}, rebuilt {peak_of(spans, *window)}"
        for key, (spans, peaks) in plan.peaks.items()
        for window, got in peaks.items()
        if peak_of(spans, *window) != got
    ]


class Planner:
    """Bookings over time, per ``(level kind, level name, attribute)``."""

    __slots__ = ("added", "base", "from_now", "kept", "now", "overdue", "owned", "peaks",
                 "reserved", "reserved_adds", "spans", "version")  # fmt: skip

    def __init__(self, view: View, now: float) -> None:
        self.now = now
        self.spans: dict[Key, list[Span]] = {}
        """The span lists of the keys this planner booked into (its own copies)."""
        self.base: dict[Key, list[Span]] = {}
        """The kept running plan's span lists, for the other keys (read, not copied)."""
        self.owned: set[Key] = set()
        """The keys whose span lists are this planner's own (the others are shared)."""
        self.reserved: set[Key] = set()
        self.from_now: dict[Key, tuple[list[float], list[float]]] = {}
        self.version = 0
        """Counts the bookings (what was worked out from the spans before holds no more)."""
        self.reserved_adds = 0
        """Counts the bookings into keys a reservation holds (see :attr:`reserved`)."""
        """Per key, the moments after now at which bookings start, and the peak from now
        up to each (kept until the pass books into the key)."""
        self.added: dict[float, set[tuple[str, str]]] = {}
        """Per end after now, the levels whose bookings :meth:`add` made end then."""
        self.overdue: set[tuple[str, str]] = set()
        """The levels of the kept running tasks expected to have ended (now: soon)."""
        kept = view.running_plan
        self.kept = kept if isinstance(kept, RunningPlan) else None
        self.peaks = self.kept.peaks if self.kept is not None else {}
        """Peaks over windows not starting at now, per key with the spans they were
        worked out from (kept with the running plan: the next pass asks again)."""
        if isinstance(kept, RunningPlan):
            self.base = kept.spans
            for end, task in kept.overdue(now):  # expected to have ended: soon, then
                for kind, name, attr, amount in kept.tasks[task][0]:
                    spans = self._own((kind, name, attr))
                    spans.remove((-math.inf, end, amount))
                    spans.append((-math.inf, now + 1.0, amount))
                    self.overdue.add((kind, name))
        else:
            for run in view.running:
                end = run.end if run.end > now else now + 1.0
                self.add(run.debits, -math.inf, end)
        for booked in view.advance:
            self.add(booked.debits, booked.start, booked.end, reserve=True)

    def _own(self, key: Key) -> list[Span]:
        """The key's spans as a list of this planner's own, to book into."""
        if key in self.owned:
            return self.spans[key]
        self.owned.add(key)
        spans = self.spans[key] = list(self.base.get(key, ()))
        return spans

    def spans_of(self, key: Key) -> list[Span] | None:
        """The key's spans (None: nothing booked)."""
        found = self.spans.get(key)
        return self.base.get(key) if found is None else found

    def add(
        self, debits: Iterable[Debit], start: float, end: float, *, reserve: bool = False
    ) -> None:
        """Book debits for ``[start, end)``; ``reserve`` marks them as a reservation."""
        for kind, name, attr, amount in debits:
            key = (kind, name, attr)
            self._own(key).append((start, end, amount))
            self.from_now.pop(key, None)
            self.version += 1
            if key in self.reserved:
                self.reserved_adds += 1
            if self.now < end < math.inf:
                self.added.setdefault(end, set()).add((kind, name))
            if reserve:
                self.reserved.add(key)

    def affects(self, level: Level, attr: str) -> bool:
        """True when a reservation holds part of this consumable."""
        return (level.kind, level.name, attr) in self.reserved

    def peak(self, key: Key, a: float, b: float) -> float:
        """The most booked at any moment of ``[a, b)``.

        From now (every job a reservation may hold back asks, for each level it
        may use), the peaks up to each later start are worked out once per key.
        """
        if a != self.now:
            return self._peak(key, a, b)
        starts, peaks = self.steps(key)
        return peaks[bisect_left(starts, b)]

    def steps(self, key: Key) -> tuple[list[float], list[float]]:
        """The moments after now at which bookings of ``key`` start, and the peak from
        now up to each: over ``[now, b)`` the peak is ``peaks[bisect_left(starts, b)]``."""
        found = self.from_now.get(key)
        if found is None:
            found = self.from_now[key] = self._steps(key)
        return found

    def _steps(self, key: Key) -> tuple[list[float], list[float]]:
        spans = self.spans_of(key) or ()
        now = self.now
        starts = sorted({s for s, _, _ in spans if s > now})
        best = _at(spans, now)
        peaks = [best]
        for t in starts:
            best = max(best, _at(spans, t))
            peaks.append(best)
        return starts, peaks

    def _peak(self, key: Key, a: float, b: float) -> float:
        """The peak over ``[a, b)``, kept per key and window while the key's spans stay
        the same (compared as values: a pass books into copies, the kept running plan
        changes its lists in place)."""
        spans = self.spans_of(key)
        if not spans:
            return peak_of((), a, b)
        found = self.peaks.get(key)
        if found is None or found[0] != spans:
            found = self.peaks[key] = (list(spans), {})
        elif (got := found[1].get((a, b))) is not None:
            return got
        best = peak_of(spans, a, b)
        if len(found[1]) >= KEEP_WINDOWS:
            found[1].clear()
        found[1][(a, b)] = best
        return best

    def available(self, level: Level, attr: str, a: float, b: float) -> float:
        """What is free of a consumable during all of ``[a, b)``."""
        left = level.capacity[attr] - self.peak((level.kind, level.name, attr), a, b)
        load = level.load_cap.get(attr)
        return left if load is None or load > left else load

    def ends(self) -> dict[float, Collection[tuple[str, str]]]:
        """The moments after now at which bookings end, each with the levels
        ``(kind, name)`` whose bookings end then: the kept running tasks' (the overdue
        ones' soon) and those booked by :meth:`add`."""
        now = self.now
        if self.kept is None:
            return dict(self.added)
        out: dict[float, Collection[tuple[str, str]]] = {
            e: levels.keys() for e, levels in self.kept.levels_at.items() if now < e < math.inf
        }
        more = dict(self.added)
        if self.overdue:
            more[now + 1.0] = more.get(now + 1.0, set()) | self.overdue
        for e, levels in more.items():
            found = out.get(e)
            out[e] = levels if found is None else {*found, *levels}
        return out

    def times(self) -> list[float]:
        """Candidate start times: now and every moment a booking ends."""
        lists = [*self.spans.values(), *(v for k, v in self.base.items() if k not in self.spans)]
        ends = {e for spans in lists for _, e, _ in spans if self.now < e < math.inf}
        return [self.now, *sorted(ends)]
