"""The one TIME parser (sge_types(1) ``time_specifier``), standard library only.

The qmaster (TIME complexes, queue limits, ``DURATION_OFFSET``) and the
clients (``qrsub -d``) both read TIME values here, so a value means the same
wherever it is given. The forms are those Grid Engine's number parser
(``sge_parse_num_val``) reads:

* ``[[h:]m:]s`` — as sge_types(1) documents it: ``h:m:s``, or ``m:s`` with
  two fields (``1:0`` is one minute); each field a decimal number that may be
  empty (``1::1`` is one hour and one second, ``:30:`` thirty minutes).
  Grid Engine's own parser reads only the three-field form; minige reads the
  documented two-field form too, rather than refuse what the manual promises;
* a decimal number of seconds, possibly fractional, with an exponent as ``strtod`` reads
  one (``90``, ``1.5``, ``1e3``);
* a hexadecimal (``0x10``) or octal (``010``) integer;
* any plain number may end in a multiplier ``k``/``K``/``m``/``M``/``g``/``G``
  (1000/1024 and their powers), as every number in Grid Engine may;
* ``INFINITY`` (any case).
"""

from __future__ import annotations

import math
import re

_FIELD = r"(?:\d+(?:\.\d*)?|\.\d+)?"
_HMS = re.compile(rf"(?:({_FIELD}):)?({_FIELD}):({_FIELD})\s*")
_DECIMAL = re.compile(r"((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)([kKmMgG]?)")  # as strtod
_HEX_OCT = re.compile(r"(0[xX][0-9a-fA-F]+|0[0-7]*)([kKmMgG]?)")
MULTIPLIERS = {  # k/K/m/M/g/G of every Grid Engine number (get_multiplier)
    "": 1,
    "k": 1000,
    "K": 1024,
    "m": 1000**2,
    "M": 1024**2,
    "g": 1000**3,
    "G": 1024**3,
}


def parse_time_spec(text: str) -> float:
    """Seconds of a TIME value (``math.inf`` for INFINITY); ValueError when it is none."""
    stripped = text.strip()
    if stripped.upper() == "INFINITY":
        return math.inf
    if ":" in stripped:
        hms = _HMS.fullmatch(stripped)
        if hms is None:
            raise ValueError(text)
        hours, minutes, seconds = (float(f) if f else 0.0 for f in hms.groups())  # h absent: 0
        return hours * 3600 + minutes * 60 + seconds
    number = parse_number(stripped)
    if number is None:
        raise ValueError(text)
    return number


def parse_number(text: str) -> float | None:
    """A plain number with an optional multiplier, read as decimal (``strtod``) or, when it
    starts with ``0`` and has no ``.``, as C hex/octal (``strtol``): None when it is none."""
    if "." in text or not text.startswith("0"):
        decimal = _DECIMAL.fullmatch(text)
        if decimal is None:
            return None
        return float(decimal[1]) * MULTIPLIERS[decimal[2]]
    c_int = _HEX_OCT.fullmatch(text)
    if c_int is None:
        return None
    base = 16 if c_int[1][1:2] in ("x", "X") else 8
    return float(int(c_int[1], base)) * MULTIPLIERS[c_int[2]]
