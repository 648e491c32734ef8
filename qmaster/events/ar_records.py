"""The advance reservation records of the ``reporting`` file (reporting(5)).

``new_ar``, ``ar_attr`` (the code's name; the manual says ``ar_attribute``),
``ar_log`` with Grid Engine's event words, and ``ar_acct``, one per reserved
queue instance. Each carries the AR's submission time after the event time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from qmaster.events.fields import join_fields, safe

AR_LOG_EVENTS = frozenset(
    {
        "CREATED",
        "START TIME REACHED",
        "END TIME REACHED",
        "RESOURCES UNSATISFIED",
        "RESOURCES SATISFIED",
        "TERMINATED",
        "DELETED",
    }
)


@dataclass(frozen=True, slots=True)
class NewAr:
    """An advance reservation was created (``new_ar``)."""

    KIND: ClassVar[str] = "new_ar"

    time: int
    submission_time: int
    ar_id: int
    owner: str

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline."""
        return join_fields(
            (self.time, self.KIND, self.submission_time, self.ar_id, safe(self.owner))
        )


@dataclass(frozen=True, slots=True)
class ArAttr:
    """An AR was created or its attributes changed (``ar_attr``)."""

    KIND: ClassVar[str] = "ar_attr"

    time: int
    event_time: int
    submission_time: int
    ar_id: int
    name: str
    account: str
    start_time: int
    end_time: int
    granted_pe: str
    granted_resources: str

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline."""
        return join_fields(
            (
                self.time,
                self.KIND,
                self.event_time,
                self.submission_time,
                self.ar_id,
                safe(self.name),
                safe(self.account),
                self.start_time,
                self.end_time,
                safe(self.granted_pe),
                safe(self.granted_resources),
            )
        )


@dataclass(frozen=True, slots=True)
class ArLog:
    """An AR changed state (``ar_log``); ``state`` is the state letter."""

    KIND: ClassVar[str] = "ar_log"

    time: int
    event_time: int
    submission_time: int
    ar_id: int
    state: str
    event: str
    message: str

    def __post_init__(self) -> None:
        if self.event not in AR_LOG_EVENTS:
            raise ValueError(f"unknown ar_log event {self.event!r}")

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline."""
        return join_fields(
            (
                self.time,
                self.KIND,
                self.event_time,
                self.submission_time,
                self.ar_id,
                safe(self.state),
                self.event,
                safe(self.message),
            )
        )


@dataclass(frozen=True, slots=True)
class ArAcct:
    """One reserved queue instance of an AR that ended (``ar_acct``)."""

    KIND: ClassVar[str] = "ar_acct"

    time: int
    event_time: int
    submission_time: int
    ar_id: int
    qname: str
    hostname: str
    slots: int

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline."""
        return join_fields(
            (
                self.time,
                self.KIND,
                self.event_time,
                self.submission_time,
                self.ar_id,
                safe(self.qname),
                safe(self.hostname),
                self.slots,
            )
        )
