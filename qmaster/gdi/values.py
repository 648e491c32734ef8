"""Value parsers of the submit options, with Grid Engine's messages on bad input.

Standard library only: qsub's grammar, the JSV codec (a JSV's ``PARAM``
values) and the qmaster (every job specification, whatever its source) call
the same parsers, so a value is refused with the same text wherever it came
from. Every parser is pure: it takes the option's text (and, for dates, the
current year) and returns a value or raises :class:`ValueRefused`.
"""

from __future__ import annotations

import math
import re
import time

from qmaster.digits import is_digits

SEMANTIC = 2
"""Grid Engine's ``STATUS_ESEMANTIC``: an unknown option, a missing argument."""

SYNTAX = 7
"""Grid Engine's ``STATUS_ESYNTAX``: an option argument that does not parse."""


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


class OptionError(ValueRefused):
    """A bad command line or option value, in Grid Engine's words.

    ``status`` is the answer status Grid Engine's parser gives it (qsub and
    qalter exit with it); how the text is laid out (a ``qsub: `` prefix, the
    usage before it, ``Usage: qconf -help`` after it) is the command's
    ``clients.common.conventions.ErrorStyle``. ``kind`` is ``unknown``
    (an option the command does not have; ``token`` is it), ``missing`` (an
    option without its argument; ``token`` is the option) or ``value``.
    """

    def __init__(
        self, message: str, status: int = SYNTAX, *, kind: str = "value", token: str = ""
    ) -> None:
        super().__init__(message, 1)
        self.status = status
        self.kind = kind
        self.token = token


def bad_value(message: str, status: int = SYNTAX) -> OptionError:
    """An option argument Grid Engine's parser refuses, with its text."""
    return OptionError(message, status)


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
    raise bad_value(f'invalid option argument "{option} {text}"')


def name_list(text: str) -> list[str]:
    """A comma separated list; empty items are dropped."""
    return [item for item in text.split(",") if item]


def mail_list(text: str) -> list[str]:
    """``-M user[@host],...`` as Grid Engine's mailrec_parse() reads it: an entry is split
    at ``@`` as strtok() splits it (``@grp`` is user ``grp`` with no host; a third part is
    dropped) and an address given twice is kept once."""
    found: list[str] = []
    for item in name_list(text):
        address = "@".join([part for part in item.split("@") if part][:2])
        if address and address not in found:
            found.append(address)
    return found


def priority(text: str) -> int:
    """``-p``: an integer from -1023 to 1024."""
    try:
        value = int(text)
    except ValueError:
        value = 2000
    if not -1023 <= value <= 1024:
        raise bad_value("ERROR! invalid priority, must be an integer from -1023 to 1024")
    return value


def resource_list(text: str) -> dict[str, str]:
    """``-l a=1,b``: names to values as typed; a name without a value is kept empty
    (the qmaster fills in TRUE for a BOOL attribute and refuses the others)."""
    found: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not name.strip():
            raise bad_value(f'ERROR! Wrong resource list format "{text}" specified to -l option')
        found[name.strip()] = value.strip() if sep else ""
    return found


def variable_list(text: str, env: dict[str, str]) -> dict[str, str]:
    """``-v A=1,B``: a name without a value takes it from the caller's environment.

    A name that is not set there either gets an empty value, as Grid Engine's
    ``var_list_parse_from_string()`` gives it.
    """
    found: dict[str, str] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not name:
            raise bad_value(
                f'ERROR! Wrong variable list format -v "{text}" or environment variable not set'
            )
        found[name] = value if sep else env.get(name, "")
    return found


def context_list(option: str, text: str) -> dict[str, str]:
    """``-ac``/``-sc``/``-dc`` ``a=1,b`` (``b`` gets an empty value; -dc ignores values)."""
    found: dict[str, str] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if not name:
            raise bad_value(f'ERROR! Wrong context list format {option} "{text}"')
        found[name] = value
    return found


def mail_options(text: str) -> str:
    """``-m``: letters from ``beas`` or just ``n``."""
    letters = text.replace(",", "")
    bad = any(ch not in "beasn" for ch in letters) or ("n" in letters and letters != "n")
    if not letters or bad:
        raise bad_value(f'ERROR! Wrong mail options list format "{text}" specified to -m option')
    return "".join(dict.fromkeys(letters))


def job_name(text: str) -> str:
    """``-N``: not empty and without ``/``."""
    if not text:
        raise bad_value("ERROR! empty string argument to -N option invalid", SEMANTIC)
    if "/" in text:
        raise bad_value("ERROR! argument to -N option must not contain / ", SEMANTIC)
    return text


_NUMBER = re.compile(r"\d+")


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise bad_value(
            "Numerical value invalid!\n"
            f'The initial portion of string "{text}" contains no decimal number'
        )
    return int(text)


TaskRange = tuple[int, int, int]
ONE_RANGE_ONLY = "ERROR! -t option only allows one range specification"
_ENUMERATED_IDS = 1_000_000  # ranges stepping unlike are joined by their ids, up to this many


def task_range(text: str) -> TaskRange:
    """``-t n[-m[:s]][,...]`` -> (first, last, step), all at least 1 and first <= last.
    A list is taken as Grid Engine's range_list_sort_uniq_compress() leaves it: its ids
    in order, once each; when they are not one range (``1-2,4``; ``1,3`` is ``1-3:2``),
    it is refused."""
    ranges = [_one_task_range(item) for item in text.split(",") if item] or [_one_task_range("")]
    if len(ranges) == 1:
        return ranges[0]
    joined = _joined(ranges)
    if joined is None:
        raise bad_value(ONE_RANGE_ONLY)
    return joined


def _one_task_range(text: str) -> TaskRange:
    span, _, step_text = text.partition(":")
    first_text, dash, last_text = span.partition("-")
    first = _number(first_text)
    last = _number(last_text) if dash else first
    step = _number(step_text) if step_text else 1
    if first < 1 or last < first or step < 1:
        raise bad_value("ERROR! -t option must have a list of task id ranges")
    return first, last, step


def _joined(ranges: list[TaskRange]) -> TaskRange | None:
    """The one range holding exactly the ids of ``ranges``, if there is one: its step is
    the gcd of their steps and of the distances between their starts."""
    first, last = min(r[0] for r in ranges), max(r[1] for r in ranges)
    step = math.gcd(*(r[2] for r in ranges if r[1] > r[0]), *(r[0] - first for r in ranges))
    if step == 0:
        return first, first, 1
    if all(s == step for a, b, s in ranges if b > a):  # spans of one grid: no gap between them
        reach = first - step
        for a, b, _ in sorted(ranges):
            if a > reach + step:
                return None
            reach = max(reach, b)
        return first, last, step
    if sum((b - a) // s + 1 for a, b, s in ranges) > _ENUMERATED_IDS:
        return None
    ids = {i for a, b, s in ranges for i in range(a, b + 1, s)}
    return (first, last, step) if len(ids) == (last - first) // step + 1 else None


def slot_range(text: str) -> tuple[int, int]:
    """``-pe name n[-[m]]``: ``4``, ``2-8``, ``2-`` (open) or ``-8`` (from 1)."""
    first_text, dash, last_text = text.partition("-")
    try:
        first = int(first_text) if first_text else 1
        last = int(last_text) if last_text else (RANGE_INFINITY if dash else first)
    except ValueError:
        raise bad_value("ERROR! -pe option must have range as 2nd argument") from None
    if first < 0 or last < first or (not first_text and not last_text):
        raise bad_value("ERROR! -pe option must have range as 2nd argument")
    return first, last


def ar_id(text: str) -> int:
    """``-ar``: a positive advance reservation id."""
    if not _NUMBER.fullmatch(text) or int(text) == 0:
        raise bad_value(f'ERROR! invalid option argument "{text}"')
    return int(text)


# -- date_time [[CC]YY]MMDDhhmm[.SS] (sge_types(1)), normalised to CCYYMMDDhhmm.SS

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
    if dot and (len(seconds_text) != 2 or not is_digits(seconds_text)):
        raise _fail("Invalid format of seconds field.", text, option)
    if not is_digits(main) or len(main) not in (8, 10, 12):
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
        raise bad_value(f'invalid option argument "-w {text}"')
    return text


def date_time_text(epoch: float) -> str:
    """Seconds since the epoch as the ``CCYYMMDDhhmm.SS`` a JSV reads (local time)."""
    return time.strftime("%Y%m%d%H%M.%S", time.localtime(epoch))


# -- the 6.2u5 options -js, -ot, -tc, -c, -i/-o/-e/-S, -hold_jid[_ad] (parse_qsub.c)


def unsigned(text: str, message: str) -> int:
    """A decimal integer of at least 0, or ``message``."""
    if not re.fullmatch(r"\+?\d+", text.strip()):
        raise bad_value(message, SEMANTIC)
    return int(text)


def task_concurrency(text: str) -> int:
    """``-tc``: how many tasks of the array may run at once (0: no limit)."""
    match = re.match(r"\s*([-+]?\d+)", text)
    value = int(match.group(1)) if match else 0
    if match is None or value < 0:
        raise bad_value(
            f"invalid task concurrency number {value}. Must be an integer greater or equal to 0."
        )
    return value


def job_share(text: str) -> int:
    """``-js``: the job share, an unsigned integer."""
    return unsigned(text, "ERROR! invalid jobshare, must be an unsigned integer")


def override_tickets(text: str) -> int:
    """``-ot``: override tickets, an unsigned integer."""
    return unsigned(text, "ERROR! invalid override tickets, must be an unsigned integer")


_TIME = re.compile(r"(\d*):(\d*):(\d*)")
_OCCASIONS = frozenset("msxrn")


def checkpoint(text: str) -> dict[str, int | str]:
    """``-c``: an occasion (letters of ``msxr``, or ``n``) or an interval (time)."""
    if text and (is_digits(text[0]) or text[0] == ":"):
        return {"c_interval": checkpoint_interval(text)}
    return {"c_occasion": occasion(text)}


def checkpoint_interval(text: str) -> int:
    """The ``-c`` interval, ``hh:mm:ss`` or seconds, in seconds (at least 1)."""
    match = _TIME.fullmatch(text)
    if match:
        h, m, s = (int(part or 0) for part in match.groups())
        seconds = h * 3600 + m * 60 + s
    else:
        seconds = int(text) if is_digits(text) else 0
    if not seconds:
        raise bad_value("ERROR! -c argument invalid", SEMANTIC)
    return seconds


def occasion(text: str) -> str:
    """The ``-c`` occasion letters: any mix of ``m``, ``s``, ``x``, ``r`` (checkpoint before
    an automatic rescheduling) and ``n``, as sge_parse_checkpoint_attr() reads them; the
    qmaster refuses ``n`` with an environment and the others without one."""
    ok = bool(text) and set(text) <= _OCCASIONS
    if not ok:
        raise bad_value("ERROR! -c specifier invalid", SEMANTIC)
    return "".join(dict.fromkeys(text))


_PATH_LIST_WHAT = {"-o": "stdout path list", "-S": "shell list"}


def path_list(text: str, option: str) -> list[str]:
    """``-i``/``-o``/``-e``/``-S``: ``[host:]path`` items separated by commas.

    ``-i`` is refused with ``-e``'s text, as ``parse_qsub.c`` does.
    """
    items = [item for item in text.split(",") if item]
    # cull_parse_path_list(): the host ends at the first colon, the path may hold more
    if not items or any(item.endswith(":") for item in items):
        what = _PATH_LIST_WHAT.get(option, "path list")
        shown = option if option in _PATH_LIST_WHAT else "-e"
        raise bad_value(f'ERROR! Wrong {what} format "{text}" specified to {shown} option')
    return items


def job_refs(text: str, option: str) -> list[str]:
    """``-hold_jid``/``-hold_jid_ad``: job ids, names or patterns."""
    items = [item for item in text.split(",") if item]
    if not items:
        suffix = "_ad" if option.endswith("_ad") else ""
        raise bad_value(
            f'ERROR! Wrong jid_hold{suffix} list format "{text}" specified to {option} option'
        )
    return items
