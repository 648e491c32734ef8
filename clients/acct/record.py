"""One accounting(5) line as qacct reads it.

Fields are ``:``-separated, in accounting(5)'s order. The first 33 (``qname``
to ``department``) must be there; the later ones may be missing (older files)
and read as Grid Engine reads them (``granted_pe`` ``none``, numbers 0).
``category`` may itself hold colons: a line with more than 45 fields has its
category joined back from the fields between the 39 before it and the 5 after
it. Numbers are read the way C's ``atol``/``atof`` read them: the leading
number, 0 when there is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

QNAME, HOSTNAME, GROUP, OWNER, JOB_NAME, JOB_NUMBER, ACCOUNT = range(7)
PRIORITY, SUBMISSION, START, END, FAILED, EXIT_STATUS, WALLCLOCK = range(7, 14)
UTIME, STIME = 14, 15
RU_INTS = range(16, 31)  # ru_maxrss .. ru_nivcsw
PROJECT, DEPARTMENT, GRANTED_PE, SLOTS, TASK = 31, 32, 33, 34, 35
CPU, MEM, IO, CATEGORY, IOW, PE_TASKID, MAXVMEM, ARID = range(36, 44)
REQUIRED = DEPARTMENT + 1
FULL = 45  # with ar_submission_time

RU_NAMES = (
    "ru_maxrss", "ru_ixrss", "ru_ismrss", "ru_idrss", "ru_isrss", "ru_minflt", "ru_majflt",
    "ru_nswap", "ru_inblock", "ru_oublock", "ru_msgsnd", "ru_msgrcv", "ru_nsignals",
    "ru_nvcsw", "ru_nivcsw",
)  # fmt: skip

_LONG = re.compile(rb"\s*[+-]?\d+")
_DOUBLE = re.compile(rb"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def atol(text: bytes) -> int:
    """C's ``atol`` of a field."""
    try:
        return int(text)
    except ValueError:
        m = _LONG.match(text)
        return int(m.group()) if m else 0


def atof(text: bytes) -> float:
    """C's ``atof`` of a field."""
    try:
        return float(text)
    except ValueError:
        m = _DOUBLE.match(text)
        return float(m.group()) if m else 0.0


def normalise(fields: list[bytes]) -> list[bytes]:
    """``fields`` with a category that held colons joined back into one field."""
    extra = len(fields) - FULL
    if extra <= 0:
        return fields
    category = b":".join(fields[CATEGORY : CATEGORY + extra + 1])
    return [*fields[:CATEGORY], category, *fields[CATEGORY + extra + 1 :]]


def _text(fields: list[bytes], i: int, default: str = "") -> str:
    return fields[i].decode("utf-8", "replace") if i < len(fields) else default


def _int(fields: list[bytes], i: int) -> int:
    return atol(fields[i]) if i < len(fields) else 0


def _float(fields: list[bytes], i: int) -> float:
    return atof(fields[i]) if i < len(fields) else 0.0


def usage_of(fields: list[bytes]) -> tuple[float, float, float, float, float, float, float]:
    """The usage-table columns of a normalised record."""
    return (
        float(atol(fields[WALLCLOCK])),
        atof(fields[UTIME]),
        atof(fields[STIME]),
        _float(fields, CPU),
        _float(fields, MEM),
        _float(fields, IO),
        _float(fields, IOW),
    )


@dataclass(frozen=True, slots=True)
class JobRecord:
    """A record with the fields ``qacct -j`` shows."""

    qname: str
    hostname: str
    group: str
    owner: str
    project: str
    department: str
    job_name: str
    job_number: int
    task_number: int
    account: str
    priority: int
    submission_time: int
    start_time: int
    end_time: int
    granted_pe: str
    slots: int
    failed: int
    exit_status: int
    ru_wallclock: float
    ru_utime: float
    ru_stime: float
    rusage: tuple[int, ...]
    cpu: float
    mem: float
    io: float
    iow: float
    maxvmem: float
    arid: int

    @classmethod
    def from_fields(cls, fields: list[bytes]) -> JobRecord:
        """The record of a normalised field list with at least :data:`REQUIRED` fields."""
        return cls(
            qname=_text(fields, QNAME),
            hostname=_text(fields, HOSTNAME),
            group=_text(fields, GROUP),
            owner=_text(fields, OWNER),
            project=_text(fields, PROJECT),
            department=_text(fields, DEPARTMENT),
            job_name=_text(fields, JOB_NAME),
            job_number=_int(fields, JOB_NUMBER),
            task_number=_int(fields, TASK),
            account=_text(fields, ACCOUNT),
            priority=_int(fields, PRIORITY),
            submission_time=_int(fields, SUBMISSION),
            start_time=_int(fields, START),
            end_time=_int(fields, END),
            granted_pe=_text(fields, GRANTED_PE, "none"),
            slots=_int(fields, SLOTS),
            failed=_int(fields, FAILED),
            exit_status=_int(fields, EXIT_STATUS),
            ru_wallclock=float(_int(fields, WALLCLOCK)),
            ru_utime=_float(fields, UTIME),
            ru_stime=_float(fields, STIME),
            rusage=tuple(_int(fields, i) for i in RU_INTS),
            cpu=_float(fields, CPU),
            mem=_float(fields, MEM),
            io=_float(fields, IO),
            iow=_float(fields, IOW),
            maxvmem=_float(fields, MAXVMEM),
            arid=_int(fields, ARID),
        )
