"""Dates placed in local time, the daylight-saving edges decided explicitly. Standard library only.

qsub, qalter and JSVs (``-a``, ``-dl``) and qrsub (``-a``, ``-e``) all turn a
``date_time`` into seconds here, so every client refuses the same times: a
wall-clock time the clocks skip in spring is refused; one they repeat in autumn
is its first occurrence (mktime would guess). Grid Engine keeps times as 32-bit
unsigned seconds, so a date beyond them is refused too.
"""

from __future__ import annotations

import datetime as dt
import time

from qmaster.gdi.values import ValueRefused, bad_value, parse_date_time

Wall = tuple[int, int, int, int, int, int]


def wall_fields(normal: str) -> Wall:
    """The fields of a normalised ``CCYYMMDDhhmm.SS``, the day rolled over as mktime does."""
    year, month, day = int(normal[:4]), int(normal[4:6]), int(normal[6:8])
    hour, minute, second = int(normal[8:10]), int(normal[10:12]), int(normal[13:15])
    date = dt.date(year, month, 1) + dt.timedelta(days=day - 1)
    return date.year, date.month, date.day, hour, minute, second


def local_occurrences(wall: Wall) -> list[float]:
    """Every epoch whose local time reads ``wall``, earliest first (0, 1 or 2 of them)."""
    found: set[float] = set()
    for isdst in (-1, 0, 1):
        try:
            epoch = time.mktime((*wall, 0, 0, isdst))
            back = time.localtime(epoch)[:6]
        except (OverflowError, ValueError, OSError):
            continue
        if back == wall:
            found.add(epoch)
    return sorted(found)


def wall_text(wall: Wall) -> str:
    year, month, day, hour, minute, second = wall
    return f"{month:02d}/{day:02d}/{year:04d} {hour:02d}:{minute:02d}:{second:02d}"


U_LONG32_MAX = 2**32 - 1
"""The largest time Grid Engine keeps (a 32-bit unsigned number of seconds)."""


def local_epoch(normal: str, failure: str) -> float:
    """A normalised ``CCYYMMDDhhmm.SS`` placed in local time, the daylight-saving edges
    decided explicitly (not by mktime's guess): a wall-clock time that does not exist
    (the hour skipped in spring) is refused with ``failure`` as the last line; one that
    exists twice (the hour repeated in autumn) is its first occurrence, on summer time.
    qsub, qalter, JSVs (``-a``, ``-dl``) and qrsub (``-a``, ``-e``) all place dates here."""
    try:
        wall = wall_fields(normal)
    except (ValueError, OverflowError):
        raise bad_value(failure) from None
    found = local_occurrences(wall)
    if not found:
        raise ValueRefused(
            f"The local time {wall_text(wall)} does not exist "
            f"(skipped by a daylight saving time change).\n{failure}"
        )
    if not 0 <= found[0] <= U_LONG32_MAX:
        raise bad_value(failure)
    return found[0]


def date_time_epoch(text: str, current_year: int, option: str) -> int:
    """A ``date_time`` (``-a``, ``-dl``) as seconds since the epoch, local time."""
    normal = parse_date_time(text, current_year, option)
    return int(
        local_epoch(normal, f'ERROR! Wrong date/time format "{text}" specified to {option} option')
    )
