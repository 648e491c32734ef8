"""Comparing a requested value with an offered one, as each type and relop defines it.

The comparison reads ``requested relop offered``: ``mem_free <=`` with a
request of 2G matches a host offering 4G. Strings compare by type: STRING
, CSTRING, RESTRING and HOST alike by the expression syntax of
:mod:`qmaster.complexes.pattern` (wildcards, ``|``, ``&``, ``!``), as
sge_types(1) defines it for every string type; CSTRING and HOST ignore case
(their parsed values are lower case).
``EXCL`` (exclusive BOOL consumables) matches unless true is requested where
the offer is false.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from qmaster.complexes.pattern import pattern_matches
from qmaster.complexes.types import Relop, ValueType

Value = float | str

_NUMERIC: dict[Relop, Callable[[float, float], bool]] = {
    Relop.EQ: operator.eq,
    Relop.NE: operator.ne,
    Relop.LT: operator.lt,
    Relop.LE: operator.le,
    Relop.GT: operator.gt,
    Relop.GE: operator.ge,
}


def _strings_equal(vtype: ValueType, requested: str, offered: str) -> bool:
    if vtype in (ValueType.CSTRING, ValueType.HOST):
        return pattern_matches(requested.lower(), offered.lower())
    return pattern_matches(requested, offered)


def satisfies(vtype: ValueType, relop: Relop, requested: Value, offered: Value) -> bool:
    """True when an offer of ``offered`` fulfils a request of ``requested``."""
    if isinstance(requested, str) or isinstance(offered, str):
        equal = _strings_equal(vtype, str(requested), str(offered))
        return equal if relop is not Relop.NE else not equal
    if relop is Relop.EXCL:
        return not requested or bool(offered)
    return _NUMERIC[relop](requested, offered)
