"""What running tasks use of each resource quota limit, kept as tasks start and end.

A task counts, for each queue instance it holds slots in and each enabled set, in the
set's first matching rule (rqs_debit_consumable()): per consumable limit, its slots
times what it asks per slot (``slots``: one; another consumable: its request, else the
attribute's default). The counts are kept under ``(set, rule index, attribute, rue)``
(:func:`qmaster.rqs.match.rue_name`) and changed only for the task booked or released,
never by walking the running tasks, but once when the sets or what they match change
(rqs_reinit_consumable_actual_list()).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from qmaster.complexes.booking import Bookings, Debit, TaskKey
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import Consumable
from qmaster.complexes.values import ValueParseError
from qmaster.rqs.match import Groups, Who, matching_rule, rue_name
from qmaster.rqs.model import RqsSet

MATCHED_ROOM = 100_000
"""Requests whose matching rules are kept (forgotten all at once beyond this)."""
Key = tuple[str, int, str, str]
"""A limit's usage entry: set name, rule index, attribute, rue name."""


@dataclass(frozen=True, slots=True)
class Requester:
    """Who asks, as a rule sees it, and what it asks per slot (full attribute names)."""

    user: str
    group: str
    project: str | None
    requests: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Quotas:
    """The enabled sets of a configuration with what their rules match against."""

    sets: tuple[RqsSet, ...]
    groups: Groups
    complexes: ComplexTable
    matched: dict[Who, list[tuple[RqsSet, int, str]]] = field(default_factory=dict, compare=False)
    """:meth:`rules_for` of each request seen (the sets and groups do not change)."""

    def per_slot(self, attr: str, requests: Mapping[str, str]) -> float:
        """What one slot uses of a consumable ``attr`` (0 when nothing)."""
        if attr == "slots":
            return 1.0
        entry = self.complexes.get(attr)
        if entry is None or entry.consumable is Consumable.NO:
            return 0.0
        text = requests.get(entry.name, entry.default)
        try:
            value = entry.parse(text)
        except ValueParseError:
            return 0.0
        return value if isinstance(value, float) else 0.0

    def rules_for(self, who: Who) -> list[tuple[RqsSet, int, str]]:
        """Per enabled set, its matching rule's index and rue name."""
        kept = self.matched.get(who)
        if kept is not None:
            return kept
        if len(self.matched) > MATCHED_ROOM:
            self.matched.clear()
        found: list[tuple[RqsSet, int, str]] = []
        for rqs in self.sets:
            index = matching_rule(rqs, who, self.groups)
            if index is not None:
                found.append((rqs, index, rue_name(rqs.rules[index], who)))
        self.matched[who] = found
        return found

    def contributions(
        self, req: Requester, pe: str | None, assignment: Iterable[tuple[str, int]]
    ) -> list[tuple[Key, float]]:
        """What a task holding ``assignment`` (queue instance, slots) counts."""
        out: list[tuple[Key, float]] = []
        for qi, slots in assignment:
            cqueue, _, host = qi.partition("@")
            who = Who(req.user, req.group, req.project, pe, cqueue, host)
            for rqs, index, rue in self.rules_for(who):
                for attr, _ in rqs.rules[index].limits:
                    amount = self.per_slot(attr, req.requests)
                    if amount:
                        out.append(((rqs.name, index, attr, rue), slots * amount))
        return out


def assignment_of(debits: Iterable[Debit]) -> tuple[list[tuple[str, int]], str | None]:
    """A booked task's queue instances with their slots, and its PE (None: serial)."""
    slots: list[tuple[str, int]] = []
    pe: str | None = None
    for kind, name, attr, amount in debits:
        if kind == "queue" and attr == "slots":
            slots.append((name, round(amount)))
        elif kind == "pe":
            pe = name
    return slots, pe


class Usage:
    """The counts of the running tasks, per :data:`Key`, for one configuration."""

    __slots__ = ("by_task", "quotas", "requester", "token", "totals")

    def __init__(
        self, token: object, quotas: Quotas, requester: Callable[[int], Requester | None]
    ) -> None:
        self.token = token
        """The configuration the counts were made under (rebuilt when it changes)."""
        self.quotas = quotas
        self.requester = requester
        self.totals: dict[Key, float] = {}
        self.by_task: dict[TaskKey, list[tuple[Key, float]]] = {}

    def booked(self, task: TaskKey, debits: Iterable[Debit]) -> None:
        """A task was booked: count it (advance reservations' bookings do not count)."""
        if task[0] <= 0:
            return
        req = self.requester(task[0])
        if req is None:
            return
        slots, pe = assignment_of(debits)
        counted = self.quotas.contributions(req, pe, slots)
        if counted:
            self.by_task[task] = counted
            totals = self.totals
            for key, amount in counted:
                totals[key] = totals.get(key, 0.0) + amount

    def released(self, task: TaskKey) -> None:
        """A task's booking was given back."""
        totals = self.totals
        for key, amount in self.by_task.pop(task, ()):
            left = totals.get(key, 0.0) - amount
            if left <= 1e-9:
                totals.pop(key, None)
            else:
                totals[key] = left


class QuotaBookings(Bookings):
    """The core's bookings, telling the resource quota usage (when kept) of each change."""

    __slots__ = ("quota",)

    def __init__(self) -> None:
        super().__init__()
        self.quota: Usage | None = None

    def book(self, task: TaskKey, debits: Iterable[Debit], dispatched: float | None = None) -> None:
        kept = tuple(debits)
        super().book(task, kept, dispatched)
        if self.quota is not None:
            self.quota.booked(task, kept)

    def release(self, task: TaskKey) -> None:
        if self.quota is not None:
            self.quota.released(task)
        super().release(task)

    def clear(self) -> None:
        super().clear()
        self.quota = None
