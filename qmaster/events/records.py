"""The records minige writes to the cell's ``reporting`` and ``accounting`` files.

Pure and standard library only: the core builds these, the writer formats them.

Formats follow Grid Engine 6.2 (``reporting(5)``, ``accounting(5)`` and the
qmaster's own writer, which wins where it and the manual disagree):

- Every reporting line is ``time:kind:fields...``; times are whole seconds since
  the epoch (6.2 writes seconds; milliseconds came only in later forks).
- ``job_log`` fields are written in the order the 6.2 qmaster writes them:
  ``priority`` comes right after ``state_time``, not after ``account`` as the
  manual page lists them.
- AR records carry the AR's submission time after the event time
  (``ar_attr``, ``ar_log``, ``ar_acct``), and the kind is ``ar_attr``.
- Accounting lines use C ``%f`` (six decimals) for the fields GE prints as
  doubles, and ``NONE`` for absent project, PE, PE task id and category.

``:`` is the field separator and no reader can tell an escaped one, so free
text (names, accounts, messages, the ``category``) has ``:`` replaced by ``_``
and line breaks replaced by spaces: every accounting line has its 45 fields.
The core stores TIME requests in seconds (``h_rt=600``), so a category has a
``:`` only from a string value; :mod:`qmaster.events.parse` still finds the
category's end by counting the fixed fields on both sides, as a reader of a
file Grid Engine wrote must.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from qmaster.events.ar_records import AR_LOG_EVENTS, ArAcct, ArAttr, ArLog, NewAr
from qmaster.events.fields import NONE_STR, all_safe, fmt_double, join_fields, safe

__all__ = [
    "AR_LOG_EVENTS",
    "JOB_LOG_EVENTS",
    "NONE_STR",
    "RECORD_TYPES",
    "Acct",
    "ArAcct",
    "ArAttr",
    "ArLog",
    "JobLog",
    "NewAr",
    "NewJob",
    "Record",
    "event_to_record",
    "record_to_event",
    "safe",
]


JOB_LOG_EVENTS = frozenset(
    {
        "unknown",
        "pending",
        "sent",
        "resent",
        "delivered",
        "running",
        "suspended",
        "unsuspended",
        "held",
        "released",
        "restart",
        "migrate",
        "deleted",
        "finished",
        "error",
    }
)


@dataclass(frozen=True, slots=True)
class NewJob:
    """A job entered the system (``new_job``)."""

    KIND: ClassVar[str] = "new_job"

    time: int
    submission_time: int
    job_number: int
    task_number: int
    pe_taskid: str
    job_name: str
    owner: str
    group: str
    project: str
    department: str
    account: str
    priority: int

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline."""
        return join_fields(
            (
                self.time,
                self.KIND,
                self.submission_time,
                self.job_number,
                self.task_number,
                safe(self.pe_taskid),
                safe(self.job_name),
                safe(self.owner),
                safe(self.group),
                safe(self.project),
                safe(self.department),
                safe(self.account),
                self.priority,
            )
        )


@dataclass(frozen=True, slots=True)
class JobLog:
    """A job, array task or PE task changed state (``job_log``)."""

    KIND: ClassVar[str] = "job_log"

    time: int
    event_time: int
    event: str
    job_number: int
    task_number: int
    pe_taskid: str
    state: str
    user: str
    host: str
    state_time: int
    submission_time: int
    job_name: str
    owner: str
    group: str
    project: str
    department: str
    account: str
    priority: int
    message: str

    def __post_init__(self) -> None:
        if self.event not in JOB_LOG_EVENTS:
            raise ValueError(f"unknown job_log event {self.event!r}")

    def reporting_line(self) -> str:
        """The ``reporting`` line, without the newline (6.2 field order)."""
        if all_safe(
            self.pe_taskid, self.state, self.user, self.host, self.job_name, self.owner,
            self.group, self.project, self.department, self.account, self.message,
        ):  # fmt: skip
            return (
                f"{self.time}:{self.KIND}:{self.event_time}:{self.event}:{self.job_number}:"
                f"{self.task_number}:{self.pe_taskid}:{self.state}:{self.user}:{self.host}:"
                f"{self.state_time}:{self.priority}:{self.submission_time}:{self.job_name}:"
                f"{self.owner}:{self.group}:{self.project}:{self.department}:{self.account}:"
                f"{self.message}"
            )
        return join_fields(
            (
                self.time,
                self.KIND,
                self.event_time,
                self.event,
                self.job_number,
                self.task_number,
                safe(self.pe_taskid),
                safe(self.state),
                safe(self.user),
                safe(self.host),
                self.state_time,
                self.priority,
                self.submission_time,
                safe(self.job_name),
                safe(self.owner),
                safe(self.group),
                safe(self.project),
                safe(self.department),
                safe(self.account),
                safe(self.message),
            )
        )


@dataclass(frozen=True, slots=True)
class Acct:
    """A job or task ended: one ``accounting(5)`` line, also an ``acct`` reporting record.

    ``time`` is when the record was made (the reporting line's first field);
    every other field is an accounting(5) field, in the file's order.
    """

    KIND: ClassVar[str] = "acct"

    time: int
    qname: str
    hostname: str
    group: str
    owner: str
    job_name: str
    job_number: int
    account: str
    priority: int
    submission_time: int
    start_time: int
    end_time: int
    failed: int
    exit_status: int
    ru_wallclock: int
    ru_utime: float = 0.0
    ru_stime: float = 0.0
    ru_maxrss: float = 0.0
    ru_ixrss: int = 0
    ru_ismrss: int = 0
    ru_idrss: int = 0
    ru_isrss: int = 0
    ru_minflt: int = 0
    ru_majflt: int = 0
    ru_nswap: int = 0
    ru_inblock: float = 0.0
    ru_oublock: int = 0
    ru_msgsnd: int = 0
    ru_msgrcv: int = 0
    ru_nsignals: int = 0
    ru_nvcsw: int = 0
    ru_nivcsw: int = 0
    project: str = NONE_STR
    department: str = "defaultdepartment"
    granted_pe: str = NONE_STR
    slots: int = 1
    task_number: int = 0
    cpu: float = 0.0
    mem: float = 0.0
    io: float = 0.0
    category: str = NONE_STR
    iow: float = 0.0
    pe_taskid: str = NONE_STR
    maxvmem: float = 0.0
    arid: int = 0
    ar_submission_time: int = 0

    def accounting_line(self) -> str:
        """The ``accounting`` line, without the newline."""
        if all_safe(
            self.qname, self.hostname, self.group, self.owner, self.job_name, self.account,
            self.project, self.department, self.granted_pe, self.category, self.pe_taskid,
        ):  # fmt: skip
            return (
                f"{self.qname}:{self.hostname}:{self.group}:{self.owner}:{self.job_name}:"
                f"{self.job_number}:{self.account}:{self.priority}:{self.submission_time}:"
                f"{self.start_time}:{self.end_time}:{self.failed}:{self.exit_status}:"
                f"{self.ru_wallclock}:{self.ru_utime:f}:{self.ru_stime:f}:{self.ru_maxrss:f}:"
                f"{self.ru_ixrss}:{self.ru_ismrss}:{self.ru_idrss}:{self.ru_isrss}:"
                f"{self.ru_minflt}:{self.ru_majflt}:{self.ru_nswap}:{self.ru_inblock:f}:"
                f"{self.ru_oublock}:{self.ru_msgsnd}:{self.ru_msgrcv}:{self.ru_nsignals}:"
                f"{self.ru_nvcsw}:{self.ru_nivcsw}:{self.project}:{self.department}:"
                f"{self.granted_pe}:{self.slots}:{self.task_number}:{self.cpu:f}:{self.mem:f}:"
                f"{self.io:f}:{self.category}:{self.iow:f}:{self.pe_taskid}:{self.maxvmem:f}:"
                f"{self.arid}:{self.ar_submission_time}"
            )
        return join_fields(
            (
                safe(self.qname),
                safe(self.hostname),
                safe(self.group),
                safe(self.owner),
                safe(self.job_name),
                self.job_number,
                safe(self.account),
                self.priority,
                self.submission_time,
                self.start_time,
                self.end_time,
                self.failed,
                self.exit_status,
                self.ru_wallclock,
                fmt_double(self.ru_utime),
                fmt_double(self.ru_stime),
                fmt_double(self.ru_maxrss),
                self.ru_ixrss,
                self.ru_ismrss,
                self.ru_idrss,
                self.ru_isrss,
                self.ru_minflt,
                self.ru_majflt,
                self.ru_nswap,
                fmt_double(self.ru_inblock),
                self.ru_oublock,
                self.ru_msgsnd,
                self.ru_msgrcv,
                self.ru_nsignals,
                self.ru_nvcsw,
                self.ru_nivcsw,
                safe(self.project),
                safe(self.department),
                safe(self.granted_pe),
                self.slots,
                self.task_number,
                fmt_double(self.cpu),
                fmt_double(self.mem),
                fmt_double(self.io),
                safe(self.category),
                fmt_double(self.iow),
                safe(self.pe_taskid),
                fmt_double(self.maxvmem),
                self.arid,
                self.ar_submission_time,
            )
        )

    def reporting_line(self) -> str:
        """The ``acct`` reporting line, without the newline."""
        return self.acct_line(self.accounting_line())

    def acct_line(self, accounting_line: str) -> str:
        """The ``acct`` reporting line of this record's accounting line (made once for both)."""
        return f"{self.time}:{self.KIND}:{accounting_line}"


Record = NewJob | JobLog | Acct | NewAr | ArAttr | ArLog | ArAcct

RECORD_TYPES: dict[str, type[Record]] = {
    cls.KIND: cls for cls in (NewJob, JobLog, Acct, NewAr, ArAttr, ArLog, ArAcct)
}


def record_to_event(record: Record) -> dict[str, Any]:
    """The JSON event for a record: ``{"type": kind, **fields}`` (``subscribe``, ``qevent``)."""
    event: dict[str, Any] = {"type": record.KIND}
    for f in fields(record):
        event[f.name] = getattr(record, f.name)
    return event


def event_to_record(event: dict[str, Any]) -> Record:
    """The record an event from :func:`record_to_event` was made from."""
    kind = event.get("type")
    cls = RECORD_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event type {kind!r}")
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in event.items() if k in names})
