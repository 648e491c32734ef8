"""A job's resource requests (``-l``) as Grid Engine stores them, and its other checked values.

Every request reaches the core through :func:`normalise_requests`, whatever
its source (command line, ``#$`` lines, sge_request files, a JSV, qalter): the
attribute name becomes the complex's full name (a shortcut such as ``h`` is
stored as ``hostname``), and a TIME value is stored in seconds (``h_rt=0:10:0``
becomes ``h_rt=600``), so no stored request holds a ``:``. Other values keep
the text they were given (``h_vmem=1G``), as Grid Engine keeps it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from qmaster.complexes.pattern import ExpressionError
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Requestable, ValueType
from qmaster.complexes.values import INFINITY, ValueParseError
from qmaster.core.errors import InvalidRequest, PermissionDenied

REQUEST_KEYS = ("l_hard", "l_soft")

# the characters Grid Engine's QSUB_TABLE refuses in an account string (verify_str_key)
_QSUB_TABLE = (
    ("\n", "Return"),
    ("\t", "Tabulator"),
    ("\r", "Carriage return"),
    ("/", "Slash"),
    (":", "Colon"),
    ("@", "At"),
    ("\\", "Backslash"),
    ("*", "Asterisk"),
    ("?", "Questionmark"),
)


def stored_value(entry: ComplexEntry, text: str) -> str:
    """The text Grid Engine keeps for one requested value (raises on a bad value)."""
    try:
        value = entry.parse_request(text)
    except (ValueParseError, ExpressionError) as exc:
        raise InvalidRequest(str(exc)) from exc
    if entry.type is ValueType.TIME and isinstance(value, float):
        return INFINITY if math.isinf(value) else str(int(value))
    return text


def normalise_requests(table: ComplexTable, requests: Mapping[str, Any]) -> dict[str, str]:
    """One ``-l`` list with full names and normalised values; unknown names are refused."""
    stored: dict[str, str] = {}
    for name, value in requests.items():
        entry = table.get(str(name))
        if entry is None:
            raise InvalidRequest(f'unknown resource "{name}"')
        if entry.requestable is Requestable.NO:
            raise InvalidRequest(f'denied: "{entry.name}" configured as non requestable')
        stored[entry.name] = stored_value(entry, str(value))
    return stored


def normalise_spec_requests(table: ComplexTable, spec: dict[str, Any]) -> None:
    """Replace the spec's ``l_hard``/``l_soft`` by their stored form (new dicts)."""
    for key in REQUEST_KEYS:
        if spec.get(key):
            spec[key] = normalise_requests(table, spec[key])


def check_account(spec: Mapping[str, Any]) -> None:
    """``-A``: Grid Engine refuses the characters of its QSUB_TABLE in an account string."""
    account = spec.get("A")
    if not account:
        return
    for char, word in _QSUB_TABLE:
        if char in str(account):
            shown = f" ('{char}')" if char.isprintable() else ""
            raise InvalidRequest(f"{word}{shown} not allowed in objectname")


def check_priority(spec: Mapping[str, Any], *, operator: bool) -> None:
    """``-p`` above 0 is for operators and managers only (Grid Engine's rule)."""
    if int(spec.get("p") or 0) > 0 and not operator:
        raise PermissionDenied(
            "job rejected: positive submission priority requires operator privileges"
        )
