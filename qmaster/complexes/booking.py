"""Consumable bookkeeping: what running tasks hold at every level.

A *debit* is ``(level_kind, level_name, attribute, amount)``. The scheduler
computes the debits of a task when it dispatches it; :class:`Bookings` adds
them up per level and remembers them per task, so that the task's end releases
exactly what its dispatch booked, whatever changed in the configuration since.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

Debit = tuple[str, str, str, float]
TaskKey = tuple[int, int]
LevelKey = tuple[str, str]

_EPSILON = 1e-9

K = TypeVar("K", bound=Hashable)

CHANGED_ROOM = 1 << 16
"""Keys a :class:`Changed` notes between two reads; past that it notes only that there
were more (its reader then looks at everything)."""


class Changed(Generic[K]):
    """The keys changed since its one reader last took them."""

    __slots__ = ("keys", "lost")

    def __init__(self) -> None:
        self.keys: set[K] = set()
        self.lost = False
        """More changed than were kept, or what changed is not known."""

    def note(self, key: K) -> None:
        """``key`` changed."""
        if not self.lost:
            self.keys.add(key)
            if len(self.keys) > CHANGED_ROOM:
                self.lose()

    def lose(self) -> None:
        """Anything may have changed."""
        self.lost = True
        self.keys = set()

    def take(self) -> set[K] | None:
        """The keys changed since the last take (None: anything may have), forgotten."""
        keys, lost = self.keys, self.lost
        self.keys, self.lost = set(), False
        return None if lost else keys


class Bookings:
    """Per level (``("queue", "all.q@host1")``, ``("host", "host1")``, ``("global", "global")``)
    the booked amount of each consumable, and per task what it booked.

    ``running``: per host, the slots its running tasks hold (their queue-level slot
    debits; advance reservations book under negative ids and are not running), kept as
    tasks come and go: every pass and every host listing reads it, and summing it from
    every booking was a tenth of a pass with 8,000 running tasks.

    ``dispatched``: the tasks booked with their dispatch time, in time order (then in
    booking order), so that a pass finds the tasks dispatched within the load
    adjustment decay time without looking at every running task
    (:meth:`dispatched_after`).
    """

    __slots__ = (
        "_seq", "by_task", "dispatched", "running", "touched", "used", "version", "watch", "when",
    )  # fmt: skip

    def __init__(self) -> None:
        self.used: dict[LevelKey, dict[str, float]] = {}
        self.by_task: dict[TaskKey, tuple[Debit, ...]] = {}
        self.running: dict[str, float] = {}
        self.dispatched: list[tuple[float, int, TaskKey]] = []
        self.when: dict[TaskKey, tuple[float, int]] = {}
        self._seq = 0
        self.version = 0
        """Counts every change of the bookings (what is derived from them may be kept)."""
        self.touched: set[LevelKey] = set()
        """Levels booked or released since a kept view last looked (it clears this)."""
        self.watch: Changed[TaskKey] | None = None
        """The tasks booked or released since the kept plan last looked (it takes them)."""

    def book(self, task: TaskKey, debits: Iterable[Debit], dispatched: float | None = None) -> None:
        """Book a task's debits (a task booked twice is released first); ``dispatched``:
        when the task was dispatched (None for what is not a dispatched task, an AR)."""
        if task in self.by_task:
            self.release(task)
        self.version += 1
        if self.watch is not None:
            self.watch.note(task)
        kept = tuple(debits)
        self.by_task[task] = kept
        if dispatched is not None:
            self._seq += 1
            self.when[task] = (dispatched, self._seq)
            insort(self.dispatched, (dispatched, self._seq, task))
        running = self.running
        for kind, name, attr, amount in kept:
            level = self.used.setdefault((kind, name), {})
            level[attr] = level.get(attr, 0.0) + amount
            self.touched.add((kind, name))
            if kind == "queue" and attr == "slots" and task[0] >= 0:
                host = name.partition("@")[2]
                running[host] = running.get(host, 0.0) + amount

    def release(self, task: TaskKey) -> None:
        """Give back what a task booked; unknown tasks are ignored."""
        if task in self.by_task:
            self.version += 1
            if self.watch is not None:
                self.watch.note(task)
        placed = self.when.pop(task, None)
        if placed is not None:
            at = bisect_right(self.dispatched, placed, key=_time_and_seq)
            del self.dispatched[at - 1]
        running = self.running
        for kind, name, attr, amount in self.by_task.pop(task, ()):
            if kind == "queue" and attr == "slots" and task[0] >= 0:
                host = name.partition("@")[2]
                held = running.get(host, 0.0) - amount
                if held <= _EPSILON:
                    running.pop(host, None)
                else:
                    running[host] = held
            self.touched.add((kind, name))
            level = self.used.get((kind, name))
            if level is None:
                continue
            left = level.get(attr, 0.0) - amount
            if left <= _EPSILON:
                level.pop(attr, None)
            else:
                level[attr] = left
            if not level:
                del self.used[(kind, name)]

    def dispatched_after(self, since: float) -> list[TaskKey]:
        """The booked tasks dispatched after ``since``, in the order they were booked."""
        at = self.dispatched_before(since)
        return [task for _, _, task in sorted(self.dispatched[at:], key=_seq_of)]

    def dispatched_before(self, since: float) -> int:
        """How many of the booked tasks were dispatched at or before ``since``."""
        return bisect_right(self.dispatched, since, key=_time)

    def at(self, kind: str, name: str) -> dict[str, float]:
        """A copy of what is booked at one level."""
        return dict(self.used.get((kind, name), {}))

    def slots(self, queue_instance: str) -> int:
        """Slots booked in a queue instance (qstat's ``used`` column)."""
        return round(self.used.get(("queue", queue_instance), {}).get("slots", 0.0))

    def get(self, queue_instance: str, default: int = 0) -> int:
        """Slots booked in a queue instance, or ``default`` when none are."""
        return self.slots(queue_instance) or default

    def clear(self) -> None:
        """Forget every booking (before a rebuild)."""
        self.touched.update(self.used)
        self.used.clear()
        self.by_task.clear()
        self.running.clear()
        self.dispatched.clear()
        self.when.clear()
        self.version += 1
        if self.watch is not None:
            self.watch.lose()


def _time(entry: tuple[float, int, TaskKey]) -> float:
    return entry[0]


def _time_and_seq(entry: tuple[float, int, TaskKey]) -> tuple[float, int]:
    return entry[0], entry[1]


def _seq_of(entry: tuple[float, int, TaskKey]) -> int:
    return entry[1]
