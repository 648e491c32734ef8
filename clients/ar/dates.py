"""Times the AR commands read: ``date_time`` to epoch seconds, and TIME for ``-d``.

``[[CC]YY]MMDDhhmm[.SS]`` is checked by :func:`clients.submit.dates.parse_date_time`
(Grid Engine's rules and messages) and then placed in **local time**, with the
daylight-saving edges decided explicitly instead of by ``mktime``'s guess:

* a wall-clock time that does not exist (the hour skipped when clocks go
  forward) is an error;
* a wall-clock time that exists twice (the hour repeated when clocks go back)
  means its **first** occurrence, the one still on summer time.

A day past the end of its month rolls over into the next month, as ``mktime``
does (Grid Engine checks only 1-31). The time zone is the process's (``TZ``).
"""

from __future__ import annotations

import datetime as dt
import re
import time

from clients.common.errors import ClientError
from clients.submit.dates import parse_date_time

DATE_OPTION_TEXT = "-a"
"""Grid Engine names ``-a`` in the date error of both ``-a`` and ``-e``."""

_Wall = tuple[int, int, int, int, int, int]


def _wall_fields(normal: str) -> _Wall:
    """The fields of a normalised ``CCYYMMDDhhmm.SS``, the day rolled over as mktime does."""
    year, month, day = int(normal[:4]), int(normal[4:6]), int(normal[6:8])
    hour, minute, second = int(normal[8:10]), int(normal[10:12]), int(normal[13:15])
    date = dt.date(year, month, 1) + dt.timedelta(days=day - 1)
    return date.year, date.month, date.day, hour, minute, second


def local_occurrences(wall: _Wall) -> list[float]:
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


def _wall_text(wall: _Wall) -> str:
    year, month, day, hour, minute, second = wall
    return f"{month:02d}/{day:02d}/{year:04d} {hour:02d}:{minute:02d}:{second:02d}"


def date_time_epoch(text: str, current_year: int) -> float:
    """Epoch seconds of a ``[[CC]YY]MMDDhhmm[.SS]`` in local time (see the module notes)."""
    normal = parse_date_time(text, current_year, DATE_OPTION_TEXT)
    failure = f'ERROR! Wrong date/time format "{text}" specified to {DATE_OPTION_TEXT} option'
    try:
        wall = _wall_fields(normal)
    except (ValueError, OverflowError):
        raise ClientError(f"Invalid format of date/hour-minute field.\n{failure}") from None
    found = local_occurrences(wall)
    if not found:
        raise ClientError(
            f"The local time {_wall_text(wall)} does not exist "
            f"(skipped by a daylight saving time change).\n{failure}"
        )
    return found[0]


def parse_time_value(text: str) -> int:
    """Seconds of a TIME value: ``h:m:s`` (fields may be empty) or a C integer (dec/hex/oct)."""
    failure = ClientError(f'ERROR! Wrong time format "{text}" specified to -d option')
    stripped = text.strip()
    if ":" in stripped:
        fields = stripped.split(":")
        if len(fields) != 3 or not all(f == "" or f.isdigit() for f in fields):
            raise failure
        hours, minutes, seconds = (int(f) if f else 0 for f in fields)
        return hours * 3600 + minutes * 60 + seconds
    try:
        return _c_integer(stripped)
    except ValueError:
        raise failure from None


_HEX = re.compile(r"0[xX][0-9a-fA-F]+")
_OCT = re.compile(r"0[0-7]+")
_DEC = re.compile(r"0|[1-9][0-9]*")


def _c_integer(text: str) -> int:
    """A non-negative integer as ``strtol`` base 0 reads it; anything else is ValueError."""
    if _HEX.fullmatch(text):
        return int(text[2:], 16)
    if _OCT.fullmatch(text):
        return int(text, 8)
    if _DEC.fullmatch(text):
        return int(text)
    raise ValueError(text)


def hms(seconds: float) -> str:
    """``HH:MM:SS``; the hours grow past 99 when they must."""
    total = max(int(seconds), 0)
    return f"{total // 3600:02d}:{total // 60 % 60:02d}:{total % 60:02d}"
