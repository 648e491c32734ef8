"""Time formats of Grid Engine's clients, always in local time."""

from __future__ import annotations

import math
import time

_GE_TIMES: dict[int, str] = {}
_ZONE: list[object] = [None]


def ge_time(epoch: float) -> str:
    """``%m/%d/%Y %H:%M:%S``, as the job listings print times (each second formatted once:
    a big listing has many jobs submitted in the same second; ``time.tzset`` forgets them)."""
    if _ZONE[0] is not time.tzname or len(_GE_TIMES) > 100_000:
        _ZONE[0] = time.tzname
        _GE_TIMES.clear()
    second = math.floor(epoch)
    text = _GE_TIMES.get(second)
    if text is None:
        text = _GE_TIMES[second] = time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(second))
    return text


def xml_time(epoch: float) -> str:
    """``%Y-%m-%dT%H:%M:%S`` with no offset, as the XML output writes times."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(epoch))


def ctime(epoch: float) -> str:
    """``ctime(3)``'s ``Thu Jan  1 10:00:00 2026``, as ``qstat -j`` prints times."""
    return time.ctime(epoch)


def date_time_epoch(value: str) -> float | None:
    """The epoch of a normalised ``CCYYMMDDhhmm.SS``, or ``None`` if it is not one."""
    try:
        return time.mktime(time.strptime(value, "%Y%m%d%H%M.%S"))
    except (ValueError, OverflowError):
        return None
