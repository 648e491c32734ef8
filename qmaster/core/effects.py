"""What handling a stimulus makes happen outside the core: a typed union of effects.

The core performs none of them; a driver does, in the order given (see
:meth:`Outcome.effects <qmaster.core.outcome.Outcome.effects>`): rows are
spooled before anything else, and the :class:`Reply` comes last, so nothing
is acknowledged before it is written. The daemon executes them all; the
simulator keeps what it measures and ignores the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qmaster.model import Answer, Identity, SpoolDelta


@dataclass(frozen=True, slots=True)
class SpoolWrite:
    """Rows to commit in one transaction."""

    delta: SpoolDelta


@dataclass(frozen=True, slots=True)
class ReportRecord:
    """A record for the accounting and reporting files and for event subscribers."""

    record: Any


@dataclass(frozen=True, slots=True)
class Event:
    """An event for subscribers that is no reporting record (``job_del``...)."""

    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LogLine:
    """A line for the qmaster's messages file."""

    event: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VerifyJob:
    """Ask the server JSV about a job; its answer comes back as ``JsvVerdict(token)``.

    ``job_id`` is the id the job has or will get (None for ``-w v|p``), ``spec``
    the job as the JSV sees it (``w`` is the ``-w`` mode when not ``n``);
    ``request`` names the client request waiting for the outcome, None for a
    job that waits for verification (REJECT_WAIT).
    """

    token: int
    job_id: int | None
    owner: Identity
    spec: dict[str, Any]
    verify: str
    request: int | None


@dataclass(frozen=True, slots=True)
class StartTask:
    """A task starts running in ``queue`` (its master queue instance) on ``host``."""

    job_id: int
    task_id: int
    queue: str
    host: str


@dataclass(frozen=True, slots=True)
class KillTask:
    """A running task is killed (qdel, h_rt, qconf -kej...)."""

    job_id: int
    task_id: int
    host: str


@dataclass(frozen=True, slots=True)
class SignalTask:
    """A running task is sent a signal by its execd: ``STOP`` when it is suspended
    (qmod -s, its queue suspended), ``CONT`` when it runs on."""

    job_id: int
    task_id: int
    host: str
    signal: str


@dataclass(frozen=True, slots=True)
class RunLog:
    """The lines of a scheduler run monitored after ``qconf -tsm``, for the file
    ``schedd_runlog``; ``at`` is the run's time."""

    at: float
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ConfigChanged:
    """The configuration changed: settings taken from it are read again."""


@dataclass(frozen=True, slots=True)
class StopQmaster:
    """The qmaster stops (qconf -km)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a client: to the stimulus handled (``request`` None), or to the
    request that waited for the server JSV under that number."""

    answers: list[Answer]
    data: Any = None
    request: int | None = None


Effect = (
    SpoolWrite
    | ReportRecord
    | Event
    | LogLine
    | VerifyJob
    | StartTask
    | KillTask
    | SignalTask
    | RunLog
    | ConfigChanged
    | StopQmaster
    | Reply
)
"""Everything a driver may be asked to do."""
