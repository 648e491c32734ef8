"""A booking calendar: consumables over time, and placing an advance reservation in it.

Theory of operation. Granting an advance reservation asks the scheduler's own
question — where would a job with these requests fit? — for a window in the
future instead of for now. The :class:`Calendar` answers the time-dependent
half: per level and consumable (``("queue", "all.q@host1", "slots")``,
``("host", "host1", "mem")``, ``("global", "global", "lic")``, and
``("pe", "mpi", "slots")``) it keeps the spans during which something holds
an amount: advance reservations over their windows, running jobs until their
expected end. It is a :class:`~schedd.reservation.Planner`, so the pass's
matching uses it unchanged with ``timed=True``: a level has room for the
window only if the peak of what is booked during all of it leaves enough.

:class:`Placer` keeps one prepared pass per configuration; categories (the
static verdicts: values, access, ``-q``, PE lists) are evaluated once per
kind of request and reused for every later grant of that kind.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace

from qmaster.complexes.booking import Debit
from qmaster.complexes.levels import Level
from schedd.categories import Category
from schedd.matching import debits
from schedd.pass_ import _Pass
from schedd.pe import Assignment
from schedd.reservation import Key, Planner, Span
from schedd.view import JobRequest, QueueState, View


class Calendar(Planner):
    """Amounts booked over time per ``(level kind, level name, attribute)``."""

    __slots__ = ("owners",)

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self.spans: dict[Key, list[Span]] = {}
        self.owned: set[Key] = set()
        self.from_now: dict[Key, tuple[list[float], list[float]]] = {}
        self.reserved: set[Key] = set()
        self.owners: dict[Hashable, list[tuple[Key, Span]]] = {}

    def book(self, owner: Hashable, booked: Iterable[Debit], start: float, end: float) -> None:
        """Hold ``booked`` during ``[start, end)`` for ``owner`` (booked again: replaced)."""
        self.cancel(owner)
        held: list[tuple[Key, Span]] = []
        for kind, name, attr, amount in booked:
            key, span = (kind, name, attr), (start, end, amount)
            self.spans.setdefault(key, []).append(span)
            held.append((key, span))
        self.owners[owner] = held

    def cancel(self, owner: Hashable) -> None:
        """Give back everything ``owner`` holds; unknown owners are ignored."""
        for key, span in self.owners.pop(owner, ()):
            spans = self.spans[key]
            spans.remove(span)
            if not spans:
                del self.spans[key]

    def with_spans(self, extra: Iterable[tuple[tuple[Debit, ...], float, float]]) -> Calendar:
        """A copy with more spans (running jobs) that leaves this calendar as it is."""
        copy = Calendar(self.now)
        copy.spans = dict(self.spans)
        for booked, start, end in extra:
            for kind, name, attr, amount in booked:
                key = (kind, name, attr)
                copy.spans[key] = [*copy.spans.get(key, ()), (start, end, amount)]
        return copy

    def affects(self, level: Level, attr: str) -> bool:
        """Every consumable is looked at over time."""
        return True

    def peak(self, key: Key, a: float, b: float) -> float:
        """The most booked at any moment of ``[a, b)``."""
        spans = [sp for sp in self.spans.get(key, ()) if sp[0] < b and sp[1] > a]
        if not spans:
            return 0.0
        if len(spans) == 1:
            return spans[0][2]
        points = [a, *(s for s, _, _ in spans if s > a)]
        return max(sum(amt for s, e, amt in spans if s <= t < e) for t in points)

    def free(self, key: Key, capacity: float, a: float, b: float) -> float:
        """What is left of ``capacity`` during all of ``[a, b)``."""
        return capacity - self.peak(key, a, b)

    def times(self) -> list[float]:
        """Every finite moment at which something booked ends, in order."""
        ends = {e for spans in self.spans.values() for _, e, _ in spans if e < math.inf}
        return sorted(ends)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where an advance reservation fits: queue instances with slots, what it books."""

    assignment: tuple[tuple[str, int], ...]
    debits: tuple[Debit, ...]
    pe_name: str | None


Keep = Callable[[QueueState], bool]


class Placer:
    """The scheduler's matching, prepared once for a configuration, asked about windows."""

    def __init__(self, view: View) -> None:
        probe = JobRequest(0, 0, 0.0, "", "", [0], hard_queues=("*",))
        self.view = replace(
            view,
            jobs=[probe],
            max_reservation=0,
            advance=(),
            running=(),
            running_plan=None,
            ar_queues=frozenset(),
        )
        self.run = _Pass(self.view, 0.0, cache=True)
        self.kept: dict[tuple[Hashable, Hashable], list[QueueState]] = {}

    def category(self, job: JobRequest, keep: Keep, key: Hashable, more: Keep | None) -> Category:
        """The job's category with only the queue instances ``keep`` and ``more`` accept.

        What ``keep`` decides is remembered under ``key`` (it must depend on
        the configuration only); ``more`` is asked every time.
        """
        cat = self.run.cats.category(job)
        found = self.kept.get((cat.key, key))
        if found is None:
            found = self.kept[(cat.key, key)] = [q for q in cat.static if keep(q)]
        static = found if more is None else [q for q in found if more(q)]
        return replace(cat, static=static, candidates=static)

    def place(
        self, job: JobRequest, cat: Category, calendar: Calendar, window: tuple[float, float]
    ) -> Placement | None:
        """Where ``job`` fits during all of ``window``, given what ``calendar`` holds."""
        if not cat.static:
            return None
        run = self.run
        run.planner = calendar
        try:
            placed = run.place(job, cat, window, timed=True)
        finally:
            run.planner = None
        if placed is None:
            return None
        assignment, pe_name = placed
        booked = debits(cat.compiled, self.view, assignment)
        if pe_name is not None:
            total = sum(n for _, n in assignment)
            limit = self.view.pes[pe_name].slots
            if calendar.free(("pe", pe_name, "slots"), limit, *window) < total:
                return None
            booked += (("pe", pe_name, "slots", float(total)),)
        return Placement(_names(assignment), booked, pe_name)

    def earliest(
        self,
        job: JobRequest,
        cat: Category,
        calendar: Calendar,
        window: tuple[float, float],
        *,
        tries: int = 500,
    ) -> float | None:
        """The first start after ``window``'s at which the same length fits, or None."""
        length = window[1] - window[0]
        for start in [t for t in calendar.times() if t > window[0]][:tries]:
            if self.place(job, cat, calendar, (start, start + length)) is not None:
                return start
        return None


def _names(assignment: Assignment) -> tuple[tuple[str, int], ...]:
    return tuple((q.name, n) for q, n in assignment)
