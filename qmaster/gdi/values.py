"""Value parsers of the submit options, with Grid Engine's messages on bad input.

Standard library only: qsub's grammar, the JSV codec (a JSV's ``PARAM``
values) and the qmaster (every job specification, whatever its source) call
the same parsers, so a value is refused with the same text wherever it came
from. Every parser is pure: it takes the option's text (and, for dates, the
current year) and returns a value or raises :class:`ValueRefused`.
"""

from __future__ import annotations

import re


class ValueRefused(Exception):
    """A value Grid Engine would refuse; ``message`` is its text.

    The clients know it as ``ClientError``: ``exit_code`` is what the command
    returns and ``show_usage`` adds the command's usage after the message.
    """

    def __init__(self, message: str, exit_code: int = 1, *, show_usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.show_usage = show_usage


RANGE_INFINITY = 9999999
"""Grid Engine's stand-in for an open upper bound (``-pe mpi 2-``)."""

_YES = frozenset({"y", "yes", "true"})
_NO = frozenset({"n", "no", "false"})


def yes_no(option: str, text: str) -> bool:
    """``y``/``yes`` or ``n``/``no``, as ``-j``, ``-r``, ``-b``, ``-R``, ``-now`` take."""
    low = text.lower()
    if low in _YES:
        return True
    if low in _NO:
        return False
    raise ValueRefused(f'invalid option argument "{option} {text}"')


def name_list(text: str) -> list[str]:
    """A comma separated list; empty items are dropped."""
    return [item for item in text.split(",") if item]


def priority(text: str) -> int:
    """``-p``: an integer from -1023 to 1024."""
    try:
        value = int(text)
    except ValueError:
        value = 2000
    if not -1023 <= value <= 1024:
        raise ValueRefused("ERROR! invalid priority, must be an integer from -1023 to 1024")
    return value


def resource_list(text: str) -> dict[str, str]:
    """``-l a=1,b=2``: names to values as typed."""
    found: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not name.strip():
            raise ValueRefused(f'ERROR! Wrong resource list format "{text}" specified to -l option')
        if not sep or not value:
            raise ValueRefused(f'denied: missing value for request "{name}"')
        found[name.strip()] = value.strip()
    return found


def variable_list(text: str, env: dict[str, str]) -> dict[str, str]:
    """``-v A=1,B``: a name without a value takes it from the caller's environment."""
    found: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not name:
            raise ValueRefused(
                f'ERROR! Wrong variable list format -v "{text}" or environment variable not set'
            )
        if not sep:
            if name not in env:
                raise ValueRefused(
                    f'ERROR! Wrong variable list format -v "{text}" or environment variable not set'
                )
            value = env[name]
        found[name] = value
    return found


def context_list(option: str, text: str, *, names_only: bool = False) -> dict[str, str]:
    """``-ac``/``-sc`` ``a=1,b`` (``b`` gets an empty value); ``-dc`` takes names only."""
    found: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not name or (names_only and sep):
            raise ValueRefused(f'ERROR! Wrong context list format {option} "{text}"')
        found[name] = value
    return found


def mail_options(text: str) -> str:
    """``-m``: letters from ``beas`` or just ``n``."""
    letters = text.replace(",", "")
    bad = any(ch not in "beasn" for ch in letters) or ("n" in letters and letters != "n")
    if not letters or bad:
        raise ValueRefused(f'ERROR! Wrong mail options list format "{text}" specified to -m option')
    return "".join(dict.fromkeys(letters))


def job_name(text: str) -> str:
    """``-N``: not empty and without ``/``."""
    if not text:
        raise ValueRefused("ERROR! empty string argument to -N option invalid")
    if "/" in text:
        raise ValueRefused("ERROR! argument to -N option must not contain / ")
    return text


_NUMBER = re.compile(r"\d+")


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise ValueRefused(
            "Numerical value invalid!\n"
            f'The initial portion of string "{text}" contains no decimal number'
        )
    return int(text)


def task_range(text: str) -> tuple[int, int, int]:
    """``-t n[-m[:s]]`` -> (first, last, step), all at least 1 and first <= last."""
    span, _, step_text = text.partition(":")
    first_text, dash, last_text = span.partition("-")
    first = _number(first_text)
    last = _number(last_text) if dash else first
    step = _number(step_text) if step_text else 1
    if first < 1 or last < first or step < 1:
        raise ValueRefused("ERROR! -t option must have a list of task id ranges")
    return first, last, step


def slot_range(text: str) -> tuple[int, int]:
    """``-pe name n[-[m]]``: ``4``, ``2-8``, ``2-`` (open) or ``-8`` (from 1)."""
    first_text, dash, last_text = text.partition("-")
    try:
        first = int(first_text) if first_text else 1
        last = int(last_text) if last_text else (RANGE_INFINITY if dash else first)
    except ValueError:
        raise ValueRefused("ERROR! -pe option must have range as 2nd argument") from None
    if first < 0 or last < first or (not first_text and not last_text):
        raise ValueRefused("ERROR! -pe option must have range as 2nd argument")
    return first, last


def ar_id(text: str) -> int:
    """``-ar``: a positive advance reservation id."""
    if not _NUMBER.fullmatch(text) or int(text) == 0:
        raise ValueRefused(f'ERROR! invalid option argument "{text}"')
    return int(text)


# -- date_time [[CC]YY]MMDDhhmm[.SS] (sge_types(1)), normalised to CCYYMMDDhhmm.SS

_LIMITS = (
    ("month", 1, 12, "Invalid month specification."),
    ("day", 1, 31, "Invalid day specification."),
    ("hour", 0, 23, "Invalid hour specification."),
    ("minute", 0, 59, "Invalid minute specification."),
)


def _fail(reason: str, text: str, option: str) -> ValueRefused:
    return ValueRefused(
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


VERIFY_MODES = frozenset("ewnvp")


def verify_mode(text: str) -> str:
    """``-w e|w|n|v|p``."""
    if len(text) != 1 or text not in VERIFY_MODES:
        raise ValueRefused(f'invalid option argument "-w {text}"')
    return text
