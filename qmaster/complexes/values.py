"""Parse and format the value types of sge_types(1): memory, time, boolean, numbers.

Parsers return a value that compares as Grid Engine compares it: numbers (floats,
``math.inf`` for ``INFINITY``) for the numeric types, strings for the others
(lower-cased for ``CSTRING`` and ``HOST``, whose comparison ignores case).
"""

from __future__ import annotations

import math
import re

from qmaster.complexes.timespec import MULTIPLIERS, parse_number, parse_time_spec
from qmaster.complexes.types import ValueType

INFINITY = "INFINITY"

_INT_RE = re.compile(r"^[+-]?(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)$")
_TRUE_WORDS = frozenset({"true", "1", "yes", "y", "t"})
_FALSE_WORDS = frozenset({"false", "0", "no", "n", "f"})


class ValueParseError(ValueError):
    """A value does not have the form its type requires."""

    def __init__(self, vtype: ValueType, text: str, name: str | None = None) -> None:
        self.vtype = vtype
        self.text = text
        self.name = name
        shown = f"{name}={text}" if name else text
        super().__init__(f'wrong type in "{shown}" - {vtype.value} expected')


def is_infinity(text: str) -> bool:
    """True for Grid Engine's ``INFINITY`` (any case)."""
    return text.strip().upper() == INFINITY


def parse_c_integer(text: str) -> int:
    """An integer as C's ``strtol`` with base 0 reads it: decimal, ``0x`` hex, ``0`` octal."""
    text = text.strip()
    if not _INT_RE.match(text):
        raise ValueError(text)
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits[:2].lower() == "0x":
        return sign * int(digits, 16)
    if len(digits) > 1 and digits.startswith("0"):
        return sign * int(digits, 8)
    return sign * int(digits, 10)


def parse_memory(text: str) -> float:
    """Bytes of a memory specifier as Grid Engine's number parser reads one: ``512``,
    ``1.5G``, ``4k`` (k=1000, K=1024), ``1e9`` (strtod), ``0x100``/``010`` (strtol: hex,
    octal), ``INFINITY``."""
    if is_infinity(text):
        return math.inf
    value = parse_number(text.strip())
    if value is None:
        raise ValueParseError(ValueType.MEMORY, text)
    return float(int(value)) if value.is_integer() else value


def format_memory(value: float) -> str:
    """The shortest exact memory specifier for a number of bytes (``8G``, ``1536M``)."""
    if math.isinf(value):
        return INFINITY
    if not float(value).is_integer():
        return repr(float(value))
    whole = int(value)
    for unit in ("G", "M", "K"):
        size = MULTIPLIERS[unit]
        if whole and whole % size == 0:
            return f"{whole // size}{unit}"
    return str(whole)


def parse_time(text: str) -> float:
    """Seconds of a time specifier (see :mod:`qmaster.complexes.timespec`), ``inf`` for INFINITY."""
    try:
        return parse_time_spec(text)
    except ValueError:
        raise ValueParseError(ValueType.TIME, text) from None


def format_time(seconds: float) -> str:
    """``h:mm:ss`` for a number of seconds, or ``INFINITY``."""
    if math.isinf(seconds):
        return INFINITY
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def parse_bool(text: str) -> float:
    """1.0 or 0.0 for the boolean words Grid Engine accepts (``true``, ``FALSE``, ``1``, ...)."""
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return 1.0
    if word in _FALSE_WORDS:
        return 0.0
    raise ValueParseError(ValueType.BOOL, text)


def format_bool(value: float) -> str:
    """``TRUE`` or ``FALSE``."""
    return "TRUE" if value else "FALSE"


def parse_int(text: str) -> float:
    """An INT value, read as Grid Engine 6.2u5 reads it: ``parse_ulong_val(TYPE_INT)`` is
    ``sge_parse_num_val``, the number parser of TIME and MEMORY too, and the centry check
    keeps its double. So an INT may have a fraction (``2.5``, booked and compared as 2.5),
    a multiplier (``1k``), be hex or octal (``0x10``, ``010``), ``h:m:s``, ``true``/``false``
    (1/0) or ``INFINITY``; a sign is read as ``strtod`` reads it (``-010`` is -10)."""
    word = text.strip()
    lowered = word.lower()
    if lowered in ("true", "false"):
        return 1.0 if lowered == "true" else 0.0
    try:
        if word[:1] in ("+", "-"):
            magnitude = _signed_magnitude(word[1:])
            return -magnitude if word[0] == "-" and magnitude else magnitude
        return parse_time_spec(word)
    except ValueError:
        raise ValueParseError(ValueType.INT, text) from None


def _signed_magnitude(digits: str) -> float:
    """A number after a sign, as ``strtod`` reads it: decimal (a leading 0 is not octal) or
    hex, with a multiplier. ``-INFINITY`` and a signed ``h:m:s`` stay refused."""
    if not digits or not (digits[0].isdigit() or digits[0] == ".") or ":" in digits:
        raise ValueError(digits)
    if digits[:2].lower() == "0x" or "." in digits:
        return parse_time_spec(digits)
    return parse_time_spec(digits.lstrip("0") or "0")


def parse_double(text: str) -> float:
    """A DOUBLE value: a decimal number or ``INFINITY``."""
    if is_infinity(text):
        return math.inf
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueParseError(ValueType.DOUBLE, text) from None
    if math.isnan(value) or not text.strip():
        raise ValueParseError(ValueType.DOUBLE, text)
    return value


def _parse_text(vtype: ValueType, text: str) -> str:
    stripped = text.strip()
    if not stripped:
        raise ValueParseError(vtype, text)
    if vtype in (ValueType.CSTRING, ValueType.HOST):
        return stripped.lower()
    return stripped


def parse_value(vtype: ValueType, text: str) -> float | str:
    """A comparable value of ``vtype`` read from ``text``; raises :class:`ValueParseError`."""
    parser = _NUMERIC_PARSERS.get(vtype)
    if parser is not None:
        return parser(text)
    return _parse_text(vtype, text)


def format_value(vtype: ValueType, value: float | str) -> str:
    """The text Grid Engine shows for a parsed value."""
    if isinstance(value, str):
        return value
    if vtype is ValueType.MEMORY:
        return format_memory(value)
    if vtype is ValueType.TIME:
        return format_time(value)
    if vtype is ValueType.BOOL:
        return format_bool(value)
    if math.isinf(value):
        return INFINITY
    if vtype is ValueType.INT:
        return str(int(value))
    return repr(value)


_NUMERIC_PARSERS = {
    ValueType.INT: parse_int,
    ValueType.DOUBLE: parse_double,
    ValueType.TIME: parse_time,
    ValueType.MEMORY: parse_memory,
    ValueType.BOOL: parse_bool,
}
