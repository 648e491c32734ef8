"""Checks for attribute values of the configuration files.

A check takes the value's text and raises ``ValueError`` with the reason when
the value does not have the form its attribute needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from qmaster.complexes.values import (
    ValueParseError,
    is_infinity,
    parse_bool,
    parse_c_integer,
    parse_double,
    parse_memory,
    parse_time,
)
from qmaster.conf.errors import Refused
from qmaster.gdi.localtime import U_LONG32_MAX

Check = Callable[[str], None]
NONE_WORDS = frozenset({"none", "undefined"})
_NAME_RE = re.compile(r"^[^\s/:'\\\[\]{}|()@%,\"]+$")
_SPLIT_RE = re.compile(r"[,\s]+")


def is_none(text: str) -> bool:
    """True for ``NONE``/``none`` (and ``UNDEFINED``), Grid Engine's empty value."""
    return text.strip().lower() in NONE_WORDS


def split_list(text: str) -> list[str]:
    """The items of a comma- or space-separated list; ``NONE`` is the empty list."""
    if is_none(text):
        return []
    return [item for item in _SPLIT_RE.split(text.strip()) if item]


def split_pairs(text: str) -> dict[str, str]:
    """``name=value,name=value`` as a dict; ``NONE`` is empty."""
    pairs: dict[str, str] = {}
    for item in split_list(text):
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise ValueError(f'"{item}" is not of the form name=value')
        pairs[name] = value
    return pairs


def check_any(text: str) -> None:
    """Any text."""


MAX_SEQNUM = 9999999
"""The most slots a queue or a parallel environment may have (MAX_SEQNUM)."""


def check_slots(text: str) -> None:
    """A u_long32 of at most MAX_SEQNUM (cqueue_verify_job_slots(), pe_validate_slots())."""
    check_uint(text)
    if (value := parse_c_integer(text)) > MAX_SEQNUM:
        raise Refused(
            f'{value} is an invalid value for the "slots" attribute - '
            f"it must be a value between 0 and {MAX_SEQNUM}"
        )


def check_int(text: str) -> None:
    """A C integer."""
    try:
        parse_c_integer(text)
    except ValueError:
        raise ValueError(f'"{text}" is not an integer') from None


def check_uint(text: str) -> None:
    """A non-negative integer a u_long32 holds (object_parse_ulong32_from_string() refuses
    a larger one: stored, it would not survive Grid Engine's 32-bit fields)."""
    check_int(text)
    value = parse_c_integer(text)
    if value < 0:
        raise ValueError(f'"{text}" is not an unsigned integer')
    if value > U_LONG32_MAX:
        raise ValueError(f'"{text}" is not an u_long32 value')


def check_double(text: str) -> None:
    """A decimal number."""
    try:
        parse_double(text)
    except ValueParseError:
        raise ValueError(f'"{text}" is not a number') from None


def check_time(text: str) -> None:
    """A time specifier (``h:m:s``, seconds, ``INFINITY``)."""
    try:
        parse_time(text)
    except ValueParseError:
        raise ValueError(f'"{text}" is not a valid time value') from None


def check_time_or_none(text: str) -> None:
    """A time specifier or ``none``."""
    if not is_none(text):
        check_time(text)


def check_memory(text: str) -> None:
    """A memory specifier or ``INFINITY``."""
    try:
        parse_memory(text)
    except ValueParseError:
        raise ValueError(f'"{text}" is not a valid memory value') from None


def check_bool(text: str) -> None:
    """``TRUE`` or ``FALSE`` (any case, or 1/0)."""
    try:
        parse_bool(text)
    except ValueParseError:
        raise ValueError(f'"{text}" is not a boolean (TRUE or FALSE)') from None


def check_names(text: str) -> None:
    """``NONE`` or a list of object names."""
    for item in split_list(text):
        if not _NAME_RE.match(item.lstrip("@")):
            raise ValueError(f'"{item}" is not a valid object name')


def check_name(text: str) -> None:
    """One object's own name (``qname``, ``pe_name``, a project's ``name`` ...): a list's
    separators are refused in it as Grid Engine's key check refuses them (``a,b`` or ``a b``
    named one object that no list could name again)."""
    if not _NAME_RE.match(text.lstrip("@")):
        raise ValueError(f'"{text}" is not a valid object name')


def check_pairs(text: str) -> None:
    """``NONE`` or ``name=value`` items."""
    split_pairs(text)


def check_words(*choices: str) -> Check:
    """One of ``choices`` (case-insensitive)."""
    allowed = {c.lower() for c in choices}

    def check(text: str) -> None:
        if text.strip().lower() not in allowed:
            raise ValueError(f'"{text}" is not one of {", ".join(choices)}')

    return check


def check_word_list(*choices: str) -> Check:
    """``NONE`` or a list of words from ``choices``."""
    one = check_words(*choices)

    def check(text: str) -> None:
        for item in split_list(text):
            one(item)

    return check


def check_inf_or_uint(text: str) -> None:
    """``INFINITY`` or a non-negative integer."""
    if not is_infinity(text):
        check_uint(text)
