"""Grid Engine answer lists: ``(status, quality, text)`` triples. Standard library only.

Status numbers follow Grid Engine's ``sge_answer.h``; clients map them to exit
codes (``STATUS_NOTOK_DOAGAIN`` is the 25 that qsub and qrsub exit with).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple


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
