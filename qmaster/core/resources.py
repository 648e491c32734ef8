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
from qmaster.core.jobspec import JobSpec, Pairs

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


def fill_request(entry: ComplexEntry, text: str) -> str:
    """The value a request of ``entry`` stands for: ``-l display_win_gui`` asks for
    ``TRUE`` of a BOOL, as ``centry_list_fill_request()`` fills it; any other
    attribute without a value is refused."""
    if text != "":
        return text
    if entry.type is ValueType.BOOL:
        return "TRUE"
    raise InvalidRequest(f'denied: missing value for request "{entry.name}"')


def stored_value(entry: ComplexEntry, text: str) -> str:
    """The text Grid Engine keeps for one requested value (raises on a bad value)."""
    text = fill_request(entry, text)
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


def normalise_spec_requests(table: ComplexTable, spec: JobSpec) -> JobSpec:
    """The spec with its ``l_hard``/``l_soft`` in their stored form."""
    hard = _normalised(table, spec.hard_resources)
    soft = _normalised(table, spec.soft_resources)
    if hard is spec.hard_resources and soft is spec.soft_resources:
        return spec
    return spec.changed(hard_resources=hard, soft_resources=soft)


def _normalised(table: ComplexTable, pairs: Pairs | None) -> Pairs | None:
    """The pairs normalised, or the same object when nothing changes."""
    if not pairs:
        return pairs
    stored = tuple(normalise_requests(table, dict(pairs)).items())
    return pairs if stored == pairs else stored


_KEYWORDS = ("NONE", "ALL", "TEMPLATE")
MAX_VERIFY_STRING = 512


def check_qsub_key(text: str) -> None:
    """Grid Engine's rule for job and AR names and account strings (its QSUB_TABLE): at
    most 512 characters, none of ``\\n \\t \\r / : @ \\ * ?``, not a keyword."""
    if len(text) > MAX_VERIFY_STRING:
        raise InvalidRequest(
            f"string is longer than {MAX_VERIFY_STRING}, this is not allowed for objectnames"
        )
    for char, word in _QSUB_TABLE:
        if char in text:
            shown = f" ('{char}')" if char.isprintable() else ""
            raise InvalidRequest(f"{word}{shown} not allowed in objectname")
    if text.upper() in _KEYWORDS:
        raise InvalidRequest(f'Keyword ("{text.upper()}") not allowed as objectname')


def check_account(spec: JobSpec) -> None:
    """``-A``: an account string follows the QSUB_TABLE rule."""
    if spec.account:
        check_qsub_key(str(spec.account))


def check_priority(spec: JobSpec, *, operator: bool) -> None:
    """``-p`` above 0 is for operators and managers only (Grid Engine's rule)."""
    if (spec.priority or 0) > 0 and not operator:
        raise PermissionDenied(
            "job rejected: positive submission priority requires operator privileges"
        )


def check_alter_rights(
    user: str, old_priority: int, changes: Mapping[str, Any], *, operator: bool
) -> None:
    """qalter: override tickets and a higher priority need an operator (a manager in minige),
    as ``mod_job_attributes()`` checks them."""
    if operator:
        return
    if "ot" in changes:
        raise PermissionDenied(
            f'denied: "{user}" must be operator to change amount of override tickets'
        )
    if "p" in changes and int(changes["p"]) > old_priority:
        raise PermissionDenied(f'denied: "{user}" must be operator to increase job priority')
