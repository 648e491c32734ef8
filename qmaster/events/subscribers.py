"""Live event subscriptions over the GDI (``qevent -json``): the daemon's side.

Each subscriber has a bounded queue; :meth:`Subscribers.publish` drops a
subscriber that falls 10,000 events behind rather than let it grow the
daemon's memory. A subscription ends when its client goes away (EOF or a
closed connection) or when the daemon stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import structlog

from qmaster.events.records import Record, record_to_event
from qmaster.gdi.server import Reply, Stream

log = structlog.get_logger("qmaster.events")
Event = dict[str, Any]


class Subscribers:
    """The open ``subscribe`` streams."""

    def __init__(self, backlog: int = 10_000) -> None:
        self.backlog = backlog
        self._queues: set[asyncio.Queue[Event | None]] = set()
        self._meta: dict[int, tuple[int, str, str]] = {}  # id(queue) -> (client id, name, host)
        self._next_id = 11

    def __bool__(self) -> bool:
        return bool(self._queues)

    def publish(self, record: Record) -> None:
        """Hand one record to every subscriber."""
        if not self._queues:
            return
        self.publish_event(record_to_event(record))

    def publish_events(self, events: list[Event]) -> None:
        """Hand events that are no reporting record (``job_del``, ``jatask_del``) to everyone."""
        if self._queues:
            for event in events:
                self.publish_event(event)

    def publish_event(self, event: Event) -> None:
        """Hand one event to every subscriber."""
        for q in list(self._queues):
            try:
                q.put_nowait(event)
            except asyncio.QueueFull:
                self._end(q)
                log.warning("subscriber_dropped", reason="too slow")

    def subscribe(self, kinds: list[str] | None, host: str = "-", name: str = "qevent") -> Stream:
        """A new stream of events (of ``kinds``, or all); an event client on ``host``."""
        q: asyncio.Queue[Event | None] = asyncio.Queue(maxsize=self.backlog)
        self._queues.add(q)
        self._meta[id(q)] = (self._next_id, name, host)
        self._next_id += 1
        return Stream(self._replies(q, set(kinds) if kinds else None), lambda: self._end(q))

    def clients(self) -> list[tuple[int, str, str]]:
        """``(id, name, host)`` of each open subscription, by id."""
        return sorted(self._meta[id(q)] for q in self._queues if id(q) in self._meta)

    def kill(self, client_id: int) -> None:
        """End the subscription with event client id ``client_id``."""
        for q in list(self._queues):
            if self._meta.get(id(q), (None,))[0] == client_id:
                self._end(q)

    def close(self) -> None:
        """End every stream (the daemon stops)."""
        for q in list(self._queues):
            self._end(q)

    def _end(self, q: asyncio.Queue[Event | None]) -> None:
        self._queues.discard(q)
        self._meta.pop(id(q), None)
        if q.full():
            q.get_nowait()
        q.put_nowait(None)

    async def _replies(
        self, q: asyncio.Queue[Event | None], kinds: set[str] | None
    ) -> AsyncIterator[Reply]:
        try:
            yield Reply([], {"type": "subscribed"})
            while (event := await q.get()) is not None:
                if kinds is None or event.get("type") in kinds:
                    yield Reply([], event)
        finally:
            self._queues.discard(q)
            self._meta.pop(id(q), None)
