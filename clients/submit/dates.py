"""Grid Engine's ``date_time`` ``[[CC]YY]MMDDhhmm[.SS]``, normalised to ``CCYYMMDDhhmm.SS``.

Rules (sge_types(1)): 8, 10 or 12 digits before an optional ``.SS`` of
exactly two digits; no year means the current year; a two-digit year below
70 is 20YY. The date parser's own complaint comes first, then the option's.
"""

from __future__ import annotations

from clients.common.errors import OptionError, bad_value

_LIMITS = (
    ("month", 1, 12, "Invalid month specification."),
    ("day", 1, 31, "Invalid day specification."),
    ("hour", 0, 23, "Invalid hour specification."),
    ("minute", 0, 59, "Invalid minute specification."),
)


def _fail(reason: str, text: str, option: str) -> OptionError:
    return bad_value(
        f'{reason}\nERROR! Wrong date/time format "{text}" specified to {option} option'
    )


def _year(digits: str, current_year: int) -> tuple[int, str]:
    if len(digits) == 12:
        return int(digits[:4]), digits[4:]
    if len(digits) == 10:
        short = int(digits[:2])
        return (2000 + short if short < 70 else 1900 + short), digits[2:]
    return current_year, digits


def parse_date_time(text: str, current_year: int, option: str = "-a") -> str:
    """Validate ``text`` and return it as ``CCYYMMDDhhmm.SS``."""
    main, dot, seconds_text = text.partition(".")
    if dot and (len(seconds_text) != 2 or not seconds_text.isdigit()):
        raise _fail("Invalid format of seconds field.", text, option)
    if not main.isdigit() or len(main) not in (8, 10, 12):
        raise _fail("Invalid format of date/hour-minute field.", text, option)
    year, rest = _year(main, current_year)
    fields = [int(rest[i : i + 2]) for i in range(0, 8, 2)]
    for value, (_, low, high, reason) in zip(fields, _LIMITS, strict=True):
        if not low <= value <= high:
            raise _fail(reason, text, option)
    seconds = int(seconds_text) if dot else 0
    if seconds > 59:
        raise _fail("Invalid seconds specification.", text, option)
    month, day, hour, minute = fields
    return f"{year:04d}{month:02d}{day:02d}{hour:02d}{minute:02d}.{seconds:02d}"
