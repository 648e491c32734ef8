"""Live event subscriptions over the GDI (``qevent``): the daemon's side.

Each subscriber has a bounded queue and the set of event kinds it asked for
(``None``: all). The kinds may change while the stream runs: a ``subscribe``
frame the client sends on the open connection replaces them, as Grid Engine's
``ec_subscribe``/``ec_unsubscribe`` change an event client's subscription
(``qevent -sm``). :meth:`Subscribers.publish` drops a subscriber that falls
10,000 events behind rather than let it grow the daemon's memory.

A subscription ends when its client goes away (EOF or a closed connection),
when ``qconf -kec`` kills it (its last event is ``shutdown``, Grid Engine's
``sgeE_SHUTDOWN``) or when the daemon stops (``qmaster_goes_down``,
``sgeE_QMASTER_GOES_DOWN``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import structlog

from qmaster.events.records import Record, record_to_event
from qmaster.gdi.server import Reply, Stream

log = structlog.get_logger("qmaster.events")
Event = dict[str, Any]


@dataclass(slots=True)
class _Subscription:
    """One open stream: its queue, the kinds it wants and who it is."""

    queue: asyncio.Queue[Event | None]
    kinds: set[str] | None
    client_id: int
    name: str
    host: str

    def wants(self, event: Event) -> bool:
        return self.kinds is None or event.get("type") in self.kinds


class Subscribers:
    """The open ``subscribe`` streams."""

    def __init__(self, backlog: int = 10_000) -> None:
        self.backlog = backlog
        self._subs: dict[int, _Subscription] = {}  # client id -> subscription
        self._next_id = 11

    def __bool__(self) -> bool:
        return bool(self._subs)

    def publish(self, record: Record) -> None:
        """Hand one record to every subscriber."""
        if not self._subs:
            return
        self.publish_event(record_to_event(record))

    def publish_events(self, events: list[Event]) -> None:
        """Hand events that are no reporting record (``job_del``, ``jatask_del``) to everyone."""
        if self._subs:
            for event in events:
                self.publish_event(event)

    def publish_event(self, event: Event) -> None:
        """Hand one event to every subscriber that wants it."""
        for sub in list(self._subs.values()):
            if sub.wants(event):
                self._put(sub, event)

    def subscribe(self, kinds: list[str] | None, host: str = "-", name: str = "qevent") -> Stream:
        """A new stream of events (of ``kinds``, or all); an event client on ``host``."""
        sub = _Subscription(
            asyncio.Queue(maxsize=self.backlog),
            set(kinds) if kinds else None,
            self._next_id,
            name,
            host,
        )
        self._subs[sub.client_id] = sub
        self._next_id += 1
        return Stream(
            self._replies(sub),
            lambda: self._end(sub),
            lambda body: self._control(sub, body),
        )

    def clients(self) -> list[tuple[int, str, str]]:
        """``(id, name, host)`` of each open subscription, by id."""
        return sorted((s.client_id, s.name, s.host) for s in self._subs.values())

    def kill(self, client_id: int) -> None:
        """End the subscription with event client id ``client_id`` (its last event: shutdown)."""
        sub = self._subs.get(client_id)
        if sub is not None:
            self._put(sub, {"type": "shutdown"})
            self._end(sub)

    def close(self) -> None:
        """End every stream (the daemon stops; the last event: qmaster_goes_down)."""
        for sub in list(self._subs.values()):
            self._put(sub, {"type": "qmaster_goes_down"})
            self._end(sub)

    def _put(self, sub: _Subscription, event: Event) -> None:
        try:
            sub.queue.put_nowait(event)
        except asyncio.QueueFull:
            self._end(sub)
            log.warning("subscriber_dropped", reason="too slow", client=sub.client_id)

    def _control(self, sub: _Subscription, body: bytes) -> None:
        """A frame the client sent on its open stream: ``subscribe`` replaces its kinds."""
        try:
            msg = json.loads(body)
            ok = msg.get("op") == "subscribe"
            kinds = msg["args"]["kinds"]
        except (ValueError, KeyError, TypeError, AttributeError):
            ok, kinds = False, None
        if not ok or not (
            kinds is None or (isinstance(kinds, list) and all(isinstance(k, str) for k in kinds))
        ):
            log.warning("subscription_change_refused", client=sub.client_id)
            return
        sub.kinds = set(kinds) if kinds is not None else None

    def _end(self, sub: _Subscription) -> None:
        if self._subs.pop(sub.client_id, None) is None:
            return
        q = sub.queue
        while q.full():
            q.get_nowait()
        q.put_nowait(None)

    async def _replies(self, sub: _Subscription) -> AsyncIterator[Reply]:
        try:
            yield Reply([], {"type": "subscribed", "client_id": sub.client_id})
            while (event := await sub.queue.get()) is not None:
                yield Reply([], event)
        finally:
            self._subs.pop(sub.client_id, None)
