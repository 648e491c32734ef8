"""``qevent -sm``: Grid Engine's subscribe mode, cycling through the event object types.

As ``qevent_subscribe_mode`` in 6.2u5's ``qevent.c``: qevent starts subscribed
to the ``SHUTDOWN`` and ``ADMINHOST`` object types and prints every event it
receives as the qmaster's ``event_text`` does (``7. EVENT ADD JOB 12``). After
each event cycle it subscribes to the next object type, printing
``Subscribe event_type: N``; after the last one (``SGE_TYPE_NONE``) it prints
``Unsubscribe all event_types``, drops every subscription and starts again.

An event cycle is one delivery of events, or the event delivery interval
(10 s) passing without any. minige delivers events one frame each, so the
events that arrive together (within :data:`PACKAGE_GAP` of each other) are
one delivery. The subscription changes are ``subscribe`` frames sent on the
open stream; the qmaster sends only the event kinds of the subscribed types.
minige has events for jobs, array tasks, advance reservations and the
shutdown of an event client or the qmaster; subscribing to another type
(a queue, a host, the configuration...) is accepted and brings no events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Event = dict[str, Any]

DELIVERY_INTERVAL = 10.0
"""Seconds without events after which an event cycle ends anyway (Grid Engine's default)."""

PACKAGE_GAP = 0.05
"""Events arriving within this many seconds of each other are one delivery."""

# sge_object_type of 6.2u5 (libs/sgeobj/sge_object.h, built without user mapping)
ADMINHOST, JATASK, JOB, SHUTDOWN, AR, ALL, NONE = 0, 6, 8, 19, 29, 31, 32

KINDS_OF_TYPE: dict[int, tuple[str, ...]] = {
    JATASK: ("job_log", "jatask_del"),
    JOB: ("new_job", "job_log", "acct", "job_del"),
    SHUTDOWN: ("shutdown", "qmaster_goes_down"),
    AR: ("new_ar", "ar_attr", "ar_log", "ar_acct"),
}
"""The event kinds of minige's stream that belong to each object type."""

JOB_LEVEL_LOG_EVENTS = frozenset({"pending", "held", "released"})
"""``job_log`` events that change the job (``MOD JOB``); the others change a task."""


def describe(event: Event) -> tuple[int, str] | None:
    """The object type and ``event_text`` (without its number) of an event; None if it has none."""
    kind = event.get("type")
    job = event.get("job_number", 0)
    task = f"{job}.{event.get('task_number') or 1}"
    if kind == "new_job":
        return JOB, f"ADD JOB {job}"
    if kind == "job_log":
        if event.get("event") in JOB_LEVEL_LOG_EVENTS:
            return JOB, f"MOD JOB {job}"
        return JATASK, f"MOD JATASK {task}"
    if kind == "acct":
        return JOB, f"JOB {task} FINAL USAGE"
    if kind == "job_del":
        return JOB, f"DEL JOB {job}"
    if kind == "jatask_del":
        return JATASK, f"DEL JATASK {task}"
    if kind == "new_ar":
        return AR, f"ADD ADVANCE RESERVATION {event.get('ar_id', 0)}"
    if kind in ("ar_attr", "ar_log"):
        gone = event.get("event") in ("DELETED", "TERMINATED")
        return AR, f"{'DEL' if gone else 'MOD'} ADVANCE RESERVATION {event.get('ar_id', 0)}"
    if kind == "shutdown":
        return SHUTDOWN, "SHUTDOWN"
    if kind == "qmaster_goes_down":
        return SHUTDOWN, "QMASTER GOES DOWN"
    return None


def kinds_of(types: set[int]) -> list[str] | None:
    """The stream's event kinds for the subscribed object types (None: all)."""
    if ALL in types:
        return None
    return sorted({k for t in types for k in KINDS_OF_TYPE.get(t, ())})


START_TYPES = frozenset({SHUTDOWN, ADMINHOST})
"""What ``-sm`` is subscribed to before its first cycle."""


class SubscribeMode:
    """The state of ``-sm``: what is subscribed, the event count and the type cycle."""

    def __init__(self, write: Callable[[str], bool], change: Callable[[list[str] | None], None]):
        self.write = write
        self.change = change
        self.types: set[int] = set(START_TYPES)
        self.event_type = ADMINHOST
        self.number = 0

    def kinds(self) -> list[str] | None:
        """The stream's event kinds for the subscribed types (None: all)."""
        return kinds_of(self.types)

    def event(self, event: Event) -> bool:
        """Print one received event if its type is subscribed; False once output is gone."""
        self.number += 1
        described = describe(event)
        if described is None:
            return True
        kind, text = described
        if kind not in self.types and ALL not in self.types:
            return True
        return self.write(f"{self.number}. EVENT {text}\n")

    def cycle(self) -> bool:
        """An event cycle ended: subscribe the next type, or drop them all after the last."""
        if self.event_type < NONE:
            self.event_type += 1
            line = f"Subscribe event_type: {self.event_type}\n"
            if self.event_type < NONE:  # SGE_TYPE_NONE subscribes nothing
                self.types.add(self.event_type)
        else:
            self.event_type = ADMINHOST
            line = "Unsubscribe all event_types\n"
            self.types.clear()
        if not self.write(line):
            return False
        self.change(self.kinds())
        return True
