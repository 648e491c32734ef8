"""Advance reservations: the objects the core keeps, their state table and their rows.

An advance reservation (AR) holds resources — queue instances with slots, and
the consumables a job with its requests would book — during a window of wall
time. Its states are Grid Engine's letters::

    w  waiting: granted, the start time not reached
    r  running: inside the window; its jobs may run
    W  warning: waiting, and a reserved resource is gone
    E  error: running, and a reserved resource is gone; with -he yes (hard
       error handling) its jobs are not scheduled, with -he no they use
       what remains
    x  exited: the end time was reached; its jobs are deleted, then the AR
    d  deleted: qrdel; goes when its jobs have gone

:data:`TRANSITIONS` is the only place that says which move is legal;
:meth:`AdvanceReservation.move` raises
:class:`~qmaster.core.errors.IllegalTransition` for anything else and keeps
the story of every move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from qmaster.complexes.booking import Debit
from qmaster.core.arspec import ArSpec, acl_list, xacl_list
from qmaster.core.errors import IllegalTransition
from qmaster.core.jobs import Identity


class ArState(Enum):
    """Where an advance reservation is in its life (qrstat's state letter)."""

    WAITING = "w"
    RUNNING = "r"
    ERROR = "E"
    WARNING = "W"
    EXITED = "x"
    DELETED = "d"


A = ArState

TRANSITIONS: dict[ArState, frozenset[ArState]] = {
    A.WAITING: frozenset({A.RUNNING, A.ERROR, A.WARNING, A.EXITED, A.DELETED}),
    A.RUNNING: frozenset({A.ERROR, A.WARNING, A.EXITED, A.DELETED}),
    A.ERROR: frozenset({A.WAITING, A.RUNNING, A.EXITED, A.DELETED}),
    A.WARNING: frozenset({A.WAITING, A.RUNNING, A.ERROR, A.EXITED, A.DELETED}),
    A.EXITED: frozenset(),
    A.DELETED: frozenset({A.EXITED}),
}

LIVE = frozenset({A.WAITING, A.RUNNING, A.ERROR, A.WARNING})
"""States in which an AR still holds its resources and accepts jobs."""


@dataclass(slots=True)
class AdvanceReservation:
    """A granted advance reservation.

    ``spec`` is the request as the user gave it, in its stored form (:class:`ArSpec`);
    ``granted`` the reserved queue instances with their slots; ``debits``
    everything the grant books, per level, for the whole window.
    """

    ar_id: int
    owner: Identity
    submission_time: float
    start_time: float
    end_time: float
    spec: ArSpec
    granted: tuple[tuple[str, int], ...]
    debits: tuple[Debit, ...]
    granted_pe: str | None = None
    state: ArState = ArState.WAITING
    delete_pending: bool = False
    messages: list[str] = field(default_factory=list)
    story: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name or ""

    @property
    def account(self) -> str:
        return self.spec.account or "sge"

    @property
    def duration(self) -> float:
        return self.end_time - self.start_time

    @property
    def hard_errors(self) -> bool:
        """``-he yes``: while in error (``E``), its jobs are not scheduled."""
        return bool(self.spec.hard_errors)

    @property
    def acl(self) -> list[str]:
        """Who may use it (``-u``); by default only its owner."""
        return acl_list(self.spec) or [self.owner.user]

    @property
    def xacl(self) -> list[str]:
        """Who may not use it (``-u '!name'``)."""
        return xacl_list(self.spec)

    @property
    def slots(self) -> int:
        return sum(n for _, n in self.granted)

    def in_window(self, now: float) -> bool:
        return self.start_time <= now < self.end_time

    def move(self, to: ArState, why: str) -> None:
        """Change state through the transition table, recording the cause."""
        if to not in TRANSITIONS[self.state]:
            raise IllegalTransition(
                f"advance reservation {self.ar_id}", self.state.value, to.value, self.story
            )
        self.story.append(f"{self.state.value}->{to.value}: {why}")
        self.state = to

    def to_row(self) -> dict[str, Any]:
        """The spool row (JSON)."""
        o = self.owner
        return {
            "ar_id": self.ar_id,
            "owner": [o.uid, o.gid, o.user, o.group, o.host],
            "submission_time": self.submission_time,
            "start_time": self.start_time,
            "end_time": self.end_time,
            "spec": self.spec.to_dict(),
            "granted": [list(g) for g in self.granted],
            "debits": [list(d) for d in self.debits],
            "granted_pe": self.granted_pe,
            "state": self.state.name,
            "delete_pending": self.delete_pending,
            "messages": self.messages,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> AdvanceReservation:
        uid, gid, user, group, host = row["owner"]
        return cls(
            ar_id=int(row["ar_id"]),
            owner=Identity(uid, gid, user, group, host),
            submission_time=float(row["submission_time"]),
            start_time=float(row["start_time"]),
            end_time=float(row["end_time"]),
            spec=ArSpec.from_dict(row["spec"]),
            granted=tuple((str(q), int(n)) for q, n in row["granted"]),
            debits=tuple((str(k), str(n), str(a), float(v)) for k, n, a, v in row["debits"]),
            granted_pe=row.get("granted_pe"),
            state=ArState[row["state"]],
            delete_pending=bool(row.get("delete_pending")),
            messages=[str(m) for m in row.get("messages") or []],
        )

    def to_ar_row(self) -> dict[str, Any]:
        """The ArRow that ``qrstat`` renders (see ``qmaster.gdi.ops``)."""
        spec = self.spec
        pe = {"name": self.granted_pe, "slots": self.slots} if self.granted_pe else None
        return {
            "ar_id": self.ar_id,
            "name": self.name,
            "owner": self.owner.user,
            "group": self.owner.group,
            "state": self.state.value,
            "submission_time": self.submission_time,
            "start_time": self.start_time,
            "end_time": self.end_time,
            "duration": self.duration,
            "account": self.account,
            "resource_list": dict(spec.hard_resources or ()),
            "granted_slots": [[q, n] for q, n in self.granted],
            "granted_pe": pe,
            "masterq": list(spec.master_queues or ()),
            "ckpt": spec.ckpt,
            "mail_options": spec.mail_options,
            "mail_list": list(spec.mail_list or ()),
            "acl_list": acl_list(spec),
            "xacl_list": self.xacl,
            "error_handling": self.hard_errors,
            "messages": list(self.messages),
        }
