"""The qmaster's end of the one validation path for job specification values.

Every submission and every alteration, whatever produced it (qsub, a client
or server JSV, qalter), is checked by :func:`qmaster.gdi.specvalues.check_spec`
with the parsers of the qsub options, so a bad value is refused with the text
qsub gives when it is typed; a submission is also completed as a submitted job
would be (a PE without a slot range asks for 1 slot).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from qmaster.complexes.table import ComplexTable
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import BINDING_ATTRS, BY_KEY, JobSpec, Pairs, as_map
from qmaster.gdi.binding import BINDING_INTS
from qmaster.gdi.specvalues import PARSERS, check_spec
from qmaster.gdi.values import ValueRefused

#: What :func:`check_spec` reads: the values it parses, the ranges it checks as a whole,
#: the PE it completes and the binding keys it checks together.
CHECKED_KEYS = (
    *(key for key in PARSERS if key in BY_KEY),
    "pe_name",
    "binding_type",
    "binding_strategy",
    *sorted(BINDING_INTS),
)


def checked_spec(spec: JobSpec, now: float, *, complete: bool = True) -> JobSpec:
    """``spec`` checked (and completed); raises InvalidRequest with Grid Engine's text.

    Only the values the check reads are put in dict form, and only those it
    changed are replaced. Of several bad values, the first in the order of
    ``qmaster.gdi.ops`` is refused.
    """
    year = time.localtime(now).tm_year  # a conversion of the given time, not a clock read
    given = spec.select(CHECKED_KEYS)
    try:
        checked = check_spec(given, year, complete=complete)
    except ValueRefused as exc:
        raise InvalidRequest(exc.message) from None
    changes = {k: checked.get(k) for k in {*given, *checked} if given.get(k) != checked.get(k)}
    return spec.with_dict_changes(changes) if changes else spec


def with_full_names(spec: JobSpec, complexes: ComplexTable) -> JobSpec:
    """``spec`` with ``-l`` shortcuts replaced by the complex names (``a=x`` -> ``arch=x``),
    as Grid Engine resolves them before the server JSV sees a job, so a JSV's change of
    ``arch`` replaces what was asked as ``a``; unknown names stay (the checks refuse them)."""
    hard = _full_names(spec.hard_resources, complexes)
    soft = _full_names(spec.soft_resources, complexes)
    if hard is spec.hard_resources and soft is spec.soft_resources:
        return spec
    return spec.changed(hard_resources=hard, soft_resources=soft)


def changes_with_full_names(changes: dict[str, Any], complexes: ComplexTable) -> dict[str, Any]:
    """qalter's JSV-keyed changes with their ``-l`` shortcuts resolved the same way."""
    out = dict(changes)
    for key in ("l_hard", "l_soft"):
        requests = changes.get(key)
        if requests:
            out[key] = {_full_name(str(name), complexes): v for name, v in requests.items()}
    return out


def _full_names(pairs: Pairs | None, complexes: ComplexTable) -> Pairs | None:
    """The pairs with full names, or the same object when no name changes."""
    if not pairs:
        return pairs
    named = tuple((_full_name(name, complexes), value) for name, value in pairs)
    return pairs if named == pairs else named


def _full_name(name: str, complexes: ComplexTable) -> str:
    entry = complexes.get(name)
    return entry.name if entry is not None else name


def apply_context_ops(context: Mapping[str, str], ops: Iterable[Sequence[str]]) -> dict[str, str]:
    """qalter's ``-ac``/``-dc``/``-sc`` (``context_ops``) applied in order to a context."""
    result = dict(context)
    for op, name, value in ops:
        if op == "=":
            result.clear()
        elif op == "-":
            result.pop(name, None)
        else:
            result[name] = value
    return result


def altered_spec(spec: JobSpec, changes: Mapping[str, Any]) -> JobSpec:
    """A job's specification with qalter's ``changes`` (JSV-keyed, as they came).

    The context operations are applied to the job's own context, and a new
    ``-binding`` replaces every ``binding_*`` key of the old one.
    """
    given = dict(changes)
    ops = given.pop("context_ops", None)
    if ops is not None:
        given["ac"] = apply_context_ops(as_map(spec.context), ops)
    if any(key.startswith("binding_") for key in given):
        spec = spec.changed(**dict.fromkeys(BINDING_ATTRS))
    return spec.with_dict_changes(given)
