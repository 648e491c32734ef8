"""Value parsers of the submit options, with Grid Engine's messages on bad input.

Every parser is pure: it takes the option's text (and, for dates, the current
year) and returns a value or raises :class:`ClientError`.
"""

from __future__ import annotations

import re

from clients.common.errors import SEMANTIC, bad_value

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
    """``-l a=1,b``: names to values as typed; a name without a value is sent empty
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


def task_range(text: str) -> tuple[int, int, int]:
    """``-t n[-m[:s]]`` -> (first, last, step), all at least 1 and first <= last."""
    span, _, step_text = text.partition(":")
    first_text, dash, last_text = span.partition("-")
    first = _number(first_text)
    last = _number(last_text) if dash else first
    step = _number(step_text) if step_text else 1
    if first < 1 or last < first or step < 1:
        raise bad_value("ERROR! -t option must have a list of task id ranges")
    return first, last, step


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
