"""qacct's output: the per-job block of ``-j`` and the usage table, in Grid Engine's layout.

Widths and formats are those of Grid Engine 6.2u5's qacct (``showjob()`` and
the table printer): labels in 13 columns, most values padded to 20 (so lines
carry trailing blanks, as Grid Engine's do), times as ``ctime(3)`` prints
them in local time, unsigned fields printed as C's ``%u`` prints them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from clients.acct import texts
from clients.acct.record import RU_NAMES, JobRecord

SEPARATOR = "=" * 62
TITLE = "%13.13s %13.13s %13.13s %13.13s %18.18s %18.18s %18.18s" % (  # noqa: UP031
    "WALLCLOCK", "UTIME", "STIME", "CPU", "MEMORY", "IO", "IOW",
)  # fmt: skip
_KILO = 1024.0


def u32(value: int) -> int:
    """``value`` as C's ``%u`` prints a 32-bit unsigned field."""
    return value & 0xFFFFFFFF


def ctime(seconds: int) -> str:
    """``ctime(3)`` without its newline: ``Mon Nov 23 10:54:30 2026`` in local time."""
    try:
        return time.asctime(time.localtime(seconds))
    except (OverflowError, OSError, ValueError):
        return "(invalid time)"


def memory(value: float) -> str:
    """A memory amount as Grid Engine prints ``maxvmem``: ``1.939G``, ``12.000K``, ``0.000``."""
    if value == float("inf"):
        return "infinity"
    size = abs(value)
    for unit, scale in (("G", _KILO**3), ("M", _KILO**2), ("K", _KILO)):
        if size >= scale:
            return f"{value / scale:.3f}{unit}"
    return f"{size:.3f}"


def _line(label: str, value: str) -> str:
    return f"{label[:12]:<13}{value}"


def _text(label: str, value: str) -> str:
    return _line(label, f"{value:<20}")


def _uint(label: str, value: int) -> str:
    return _line(label, f"{u32(value):<20}")


def _time(label: str, seconds: int, *, always: bool = False) -> str:
    return _line(label, f"{ctime(seconds):<20}" if seconds or always else "-/-")


def _failed(code: int) -> str:
    code = u32(code)
    return _line("failed", f"{code:<3} {':' if code else ''} {texts.failed_text(code)}")


def job_block(rec: JobRecord) -> str:
    """The block ``qacct -j`` prints for one record, with its ``====`` line first."""
    task = f"{u32(rec.task_number):<20}" if rec.task_number else "undefined"
    arid = f"{u32(rec.arid):<20}" if rec.arid else "undefined"
    lines = [
        SEPARATOR,
        _text("qname", rec.qname),
        _text("hostname", rec.hostname),
        _text("group", rec.group),
        _text("owner", rec.owner),
        _text("project", rec.project),
        _text("department", rec.department),
        _text("jobname", rec.job_name),
        _uint("jobnumber", rec.job_number),
        _line("taskid", task),
        _text("account", rec.account),
        _uint("priority", rec.priority),
        _time("qsub_time", rec.submission_time, always=True),
        _time("start_time", rec.start_time),
        _time("end_time", rec.end_time),
        _text("granted_pe", rec.granted_pe),
        _uint("slots", rec.slots),
        _failed(rec.failed),
        _uint("exit_status", rec.exit_status),
        _line("ru_wallclock", f"{rec.ru_wallclock:<13.0f}"),
        _line("ru_utime", f"{rec.ru_utime:<13.3f}"),
        _line("ru_stime", f"{rec.ru_stime:<13.3f}"),
        *(_uint(name, value) for name, value in zip(RU_NAMES, rec.rusage, strict=True)),
        _line("cpu", f"{rec.cpu:<13.3f}"),
        _line("mem", f"{rec.mem:<18.3f}"),
        _line("io", f"{rec.io:<18.3f}"),
        _line("iow", f"{rec.iow:<18.3f}"),
        _line("maxvmem", memory(rec.maxvmem)),
        _line("arid", arid),
    ]
    return "\n".join(lines) + "\n"


def usage_row(values: Iterable[float]) -> str:
    """One row of the usage table (wallclock in whole seconds, the rest with three decimals)."""
    w, u, s, c, m, i, iow = values
    return f"{w:13.0f} {u:13.3f} {s:13.3f} {c:13.3f} {m:18.3f} {i:18.3f} {iow:18.3f}"


def pad(width: int, text: str) -> str:
    """Grid Engine's ``print_full``: ``text`` padded with blanks to ``width``."""
    return text.ljust(width)


def slot_cell(width: int, value: int) -> str:
    """A number column of the grouped table (``%5u`` padded to the column)."""
    return pad(width, f"{u32(value):5d}")
