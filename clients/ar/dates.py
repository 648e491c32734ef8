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

import math

from clients.common.errors import ClientError
from clients.submit.dates import parse_date_time
from qmaster.complexes.timespec import parse_time_spec
from qmaster.gdi.localtime import U_LONG32_MAX, local_epoch
from qmaster.gdi.values import bad_value

DATE_OPTION_TEXT = "-a"
"""Grid Engine names ``-a`` in the date error of both ``-a`` and ``-e``."""


def date_time_epoch(text: str, current_year: int) -> float:
    """Epoch seconds of a ``[[CC]YY]MMDDhhmm[.SS]`` in local time (see the module notes)."""
    failure = f'ERROR! Wrong date/time format "{text}" specified to {DATE_OPTION_TEXT} option'
    try:  # qrsub parses dates without an answer list: only the last line is shown
        normal = parse_date_time(text, current_year, DATE_OPTION_TEXT)
    except ClientError:
        raise bad_value(failure) from None
    return local_epoch(normal, failure)


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
