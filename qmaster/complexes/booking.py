"""Consumable bookkeeping: what running tasks hold at every level.

A *debit* is ``(level_kind, level_name, attribute, amount)``. The scheduler
computes the debits of a task when it dispatches it; :class:`Bookings` adds
them up per level and remembers them per task, so that the task's end releases
exactly what its dispatch booked, whatever changed in the configuration since.
"""

from __future__ import annotations

from collections.abc import Iterable

Debit = tuple[str, str, str, float]
TaskKey = tuple[int, int]
LevelKey = tuple[str, str]

_EPSILON = 1e-9


class Bookings:
    """Per level (``("queue", "all.q@host1")``, ``("host", "host1")``, ``("global", "global")``)
    the booked amount of each consumable, and per task what it booked."""

    __slots__ = ("by_task", "running", "touched", "used")

    def __init__(self) -> None:
        self.used: dict[LevelKey, dict[str, float]] = {}
        self.by_task: dict[TaskKey, tuple[Debit, ...]] = {}
        self.running: dict[str, float] = {}
        """Slots running tasks hold per host (queue-level ``slots`` debits of jobs; an
        advance reservation, booked under a negative key, puts no load on a host)."""
        self.touched: set[LevelKey] = set()
        """Levels booked or released since a kept view last looked (it clears this)."""

    def book(self, task: TaskKey, debits: Iterable[Debit]) -> None:
        """Book a task's debits (a task booked twice is released first)."""
        if task in self.by_task:
            self.release(task)
        kept = tuple(debits)
        self.by_task[task] = kept
        for kind, name, attr, amount in kept:
            level = self.used.setdefault((kind, name), {})
            level[attr] = level.get(attr, 0.0) + amount
            self.touched.add((kind, name))
            if kind == "queue" and attr == "slots" and task[0] >= 0:
                host = name.partition("@")[2]
                self.running[host] = self.running.get(host, 0.0) + amount

    def release(self, task: TaskKey) -> None:
        """Give back what a task booked; unknown tasks are ignored."""
        for kind, name, attr, amount in self.by_task.pop(task, ()):
            if kind == "queue" and attr == "slots" and task[0] >= 0:
                host = name.partition("@")[2]
                running = self.running.get(host, 0.0) - amount
                if running <= _EPSILON:
                    self.running.pop(host, None)
                else:
                    self.running[host] = running
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
        self.running.clear()
        self.used.clear()
        self.by_task.clear()
