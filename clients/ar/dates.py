"""Times the AR commands read: ``date_time`` to epoch seconds, and TIME for ``-d``.

TIME is read by :mod:`qmaster.complexes.timespec`, the parser the qmaster uses.

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
import math
import time

from clients.common.errors import ClientError
from clients.submit.dates import parse_date_time
from qmaster.complexes.timespec import parse_time_spec
from qmaster.gdi.values import bad_value

U_LONG32_MAX = 2**32 - 1
"""The largest time Grid Engine keeps (a 32-bit unsigned number of seconds)."""

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
    failure = f'ERROR! Wrong date/time format "{text}" specified to {DATE_OPTION_TEXT} option'
    try:  # qrsub parses dates without an answer list: only the last line is shown
        normal = parse_date_time(text, current_year, DATE_OPTION_TEXT)
        wall = _wall_fields(normal)
    except (ValueError, OverflowError, ClientError):
        raise bad_value(failure) from None
    found = local_occurrences(wall)
    if not found:
        raise ClientError(
            f"The local time {_wall_text(wall)} does not exist "
            f"(skipped by a daylight saving time change).\n{failure}"
        )
    return found[0]


def parse_time_value(text: str) -> int:
    """Whole seconds of ``-d``'s TIME value (the one TIME parser); INFINITY is 2**32-1."""
    try:
        seconds = parse_time_spec(text)
    except ValueError:
        raise ClientError(f'ERROR! Wrong time format "{text}" specified to -d option') from None
    return U_LONG32_MAX if math.isinf(seconds) else min(int(seconds), U_LONG32_MAX)


def hms(seconds: float) -> str:
    """``HH:MM:SS``; the hours grow past 99 when they must."""
    total = max(int(seconds), 0)
    return f"{total // 3600:02d}:{total // 60 % 60:02d}:{total % 60:02d}"
