"""What handling one stimulus produced: the answer for the caller and the effects.

Handlers fill an :class:`Outcome` as they go (rows in ``spool``, ``reports``,
``logs``, ``events``, ``answers`` and ``data`` for the caller, further effects
with :meth:`Outcome.emit`); a driver reads :meth:`Outcome.effects`, the typed
effects in the order it must perform them (see :mod:`qmaster.core.effects`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qmaster.core.effects import (
    ConfigChanged,
    Effect,
    Event,
    KillTask,
    LogLine,
    Reply,
    ReportRecord,
    RunLog,
    SignalTask,
    SpoolWrite,
    StartTask,
    StopQmaster,
    VerifyJob,
)
from qmaster.model import Answer, SpoolDelta

__all__ = ["Outcome", "SpoolDelta"]


@dataclass(slots=True)
class Outcome:
    """The result of :meth:`Core.handle`; see :meth:`effects`."""

    answers: list[Answer] = field(default_factory=list)
    data: Any = None
    spool: SpoolDelta = field(default_factory=SpoolDelta)
    reports: list[Any] = field(default_factory=list)
    logs: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    config_changed: bool = False
    shutdown: bool = False
    emitted: list[VerifyJob | StartTask | KillTask | SignalTask | RunLog] = field(
        default_factory=list
    )
    answered: bool = True
    """The answers go to a client now (False: a tick, or a request waiting for the JSV)."""
    request: int | None = None
    """The client request (waiting for the JSV) the answers go to; None: the caller."""

    def log(self, event: str, **fields: Any) -> None:
        self.logs.append((event, fields))

    def emit(self, effect: VerifyJob | StartTask | KillTask | SignalTask | RunLog) -> None:
        """Ask the driver for one more effect."""
        self.emitted.append(effect)

    def merge(self, other: Outcome) -> None:
        """Fold a later outcome's answers and effects into this one."""
        self.answers.extend(other.answers)
        self.spool.merge(other.spool)
        self.reports.extend(other.reports)
        self.logs.extend(other.logs)
        self.events.extend(other.events)
        self.emitted.extend(other.emitted)
        self.config_changed = self.config_changed or other.config_changed
        self.shutdown = self.shutdown or other.shutdown

    def discard_effects(self) -> None:
        """A refusal: nothing but the answers is left."""
        self.spool = SpoolDelta()
        self.reports.clear()
        self.events.clear()
        self.emitted.clear()

    def verify_jobs(self) -> list[VerifyJob]:
        """The ``VerifyJob`` effects alone, in their order in :meth:`effects`."""
        return [e for e in self.emitted if isinstance(e, VerifyJob)]

    def reply(self) -> Reply | None:
        """The ``Reply`` effect alone (None when the answers go to no client now)."""
        return Reply(self.answers, self.data, self.request) if self.answered else None

    def effects(self) -> list[Effect]:
        """The effects in the order a driver performs them: rows first, the reply last."""
        found: list[Effect] = [SpoolWrite(self.spool)] if self.spool else []
        found.extend(ReportRecord(r) for r in self.reports)
        found.extend(Event(e) for e in self.events)
        found.extend(LogLine(name, fields) for name, fields in self.logs)
        found.extend(self.emitted)
        if self.config_changed:
            found.append(ConfigChanged())
        if self.shutdown:
            found.append(StopQmaster())
        reply = self.reply()
        if reply is not None:
            found.append(reply)
        return found
