"""The values every layer shares: who asks, what it is answered, what is spooled.

A leaf module: it imports nothing of minige, so the GDI (wire and client), the
core and the spool all import it without importing one another. Standard
library only (client commands import it through :mod:`qmaster.gdi.answers`).

- :class:`Identity`: the caller, as the kernel told the daemon;
- :class:`Answer` and :class:`Status`: Grid Engine's answer lists, ``(status,
  quality, text)`` triples numbered as in ``sge_answer.h`` (clients map them to
  exit codes; ``NOTOK_DOAGAIN`` is the 25 that qsub and qrsub exit with);
- :class:`SpoolDelta`: the rows one outcome writes in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class Identity:
    """Who is calling, as the kernel told the daemon (never as the client said)."""

    uid: int
    gid: int
    user: str
    group: str
    host: str = "localhost"


class Status(IntEnum):
    """Answer status, numbered as in Grid Engine."""

    OK = 1
    ESYNTAX = 2
    EILLEGALSTATE = 3
    ESEMANTIC = 4
    EEXIST = 5
    EUNKNOWN = 6
    ENOIMP = 7
    ENOKEY = 8
    ENOMGR = 9
    ENOOPR = 10
    ENOSUCHUSER = 12
    EVERSION = 13
    EDENIED = 15
    ENOTOWNER = 16
    NOTOK_DOAGAIN = 25
    EDISK = 26


class Quality(StrEnum):
    """How serious an answer is."""

    CRITICAL = "CRITICAL"
    ERROR = "ERROR"
    WARNING = "WARNING"
    INFO = "INFO"


class Answer(NamedTuple):
    """One entry of an answer list."""

    status: int
    quality: str
    text: str

    @property
    def is_error(self) -> bool:
        return self.quality in (Quality.CRITICAL, Quality.ERROR)


def ok(text: str = "") -> Answer:
    """An INFO answer with status OK."""
    return Answer(Status.OK, Quality.INFO, text)


def error(text: str, status: Status = Status.ESEMANTIC) -> Answer:
    """An ERROR answer."""
    return Answer(int(status), Quality.ERROR, text)


def warning(text: str, status: Status = Status.OK) -> Answer:
    """A WARNING answer."""
    return Answer(int(status), Quality.WARNING, text)


@dataclass(slots=True)
class SpoolDelta:
    """Rows to write in one transaction. ``None`` as a value deletes the row."""

    jobs: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    tasks: dict[tuple[int, int], dict[str, Any] | None] = field(default_factory=dict)
    config: dict[tuple[str, str], str | None] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    ars: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    story: dict[int, list[Any]] = field(default_factory=dict)
    """Story lines to add, per job (see :mod:`qmaster.core.story`); they go with the job."""

    def __bool__(self) -> bool:
        return bool(
            self.jobs or self.tasks or self.config or self.counters or self.ars or self.story
        )

    def merge(self, other: SpoolDelta) -> None:
        """Fold a later delta into this one (later writes win)."""
        for job_id, row in other.jobs.items():
            self.jobs[job_id] = row
            if row is None:
                for key in [k for k in self.tasks if k[0] == job_id]:
                    del self.tasks[key]
                self.story.pop(job_id, None)
        self.tasks.update(other.tasks)
        for job_id, rows in other.story.items():
            self.story.setdefault(job_id, []).extend(rows)
        self.config.update(other.config)
        self.counters.update(other.counters)
        self.ars.update(other.ars)
