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
from operator import attrgetter
from typing import Any, Final

from qmaster.complexes.table import ComplexTable
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import BINDING_ATTRS, BY_KEY, JobSpec, Pairs, as_map
from qmaster.gdi.binding import BINDING_INTS
from qmaster.gdi.specvalues import PARSERS, check_spec, check_value
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


#: Values checked each on its own, whatever the others (no range, completion or
#: ``-binding`` check reads them), in table order: the name and the ``-l`` lists, which
#: differ from job to job where the rest is alike.
_ALONE: Final = tuple((key, *BY_KEY[key]) for key in ("N", "l_hard", "l_soft"))
_ALONE_KEYS: Final = frozenset(key for key, _, _ in _ALONE)
#: The attributes whose values the check reads besides those (``binding_exp_n`` brings
#: the numbered pairs of ``binding_explicit``).
_CHECKED_ATTRS: Final = (
    *(BY_KEY[key][0] for key in CHECKED_KEYS if key in BY_KEY and key not in _ALONE_KEYS),
    "binding_explicit",
)
_checked_values: Final = attrgetter(*_CHECKED_ATTRS)
_CHECKS_KEPT: Final = 4096
_passed: dict[tuple[Any, ...], dict[str, Any]] = {}
"""The changes the check made to the values it accepted (those checked alone aside), by
those values and their types, the year and ``complete``: a replay's jobs differ in name
and requests only. Refused values are never kept, so they are refused each time."""


def checked_spec(spec: JobSpec, now: float, *, complete: bool = True) -> JobSpec:
    """``spec`` checked (and completed); raises InvalidRequest with Grid Engine's text.

    Only the values the check reads are put in dict form, and only those it
    changed are replaced. Of several bad values, the first in the order of
    ``qmaster.gdi.ops`` is refused.

    Values once accepted together are accepted again: then only the values checked
    alone (:data:`_ALONE`) are checked, each by its parser, as :func:`check_spec` does.
    """
    year = time.localtime(now).tm_year  # a conversion of the given time, not a clock read
    values = _checked_values(spec)
    key = (year, complete, values, tuple(map(type, values)))  # True == 1, yet "y" != "1"
    kept = _passed.get(key)
    if kept is None:
        changes = _check(spec.select(CHECKED_KEYS), year, complete)
        if len(_passed) >= _CHECKS_KEPT:
            _passed.clear()
        _passed[key] = {k: v for k, v in changes.items() if k not in _ALONE_KEYS}
    else:
        changes = kept
        for name, attr, kind in _ALONE:
            value = getattr(spec, attr)
            if value is None:
                continue
            given = kind.thaw(value)
            try:
                checked = check_value(name, given, year)
            except ValueRefused as exc:
                raise InvalidRequest(exc.message) from None
            if checked != given:
                changes = {**changes, name: checked}
    return spec.with_dict_changes(changes) if changes else spec


def _check(given: dict[str, Any], year: int, complete: bool) -> dict[str, Any]:
    """The values :func:`check_spec` changed in ``given`` (None: one it dropped)."""
    try:
        checked = check_spec(given, year, complete=complete)
    except ValueRefused as exc:
        raise InvalidRequest(exc.message) from None
    return {k: checked.get(k) for k in {*given, *checked} if given.get(k) != checked.get(k)}


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

    The context operations are applied to the job's own context (one they empty is
    gone, as Grid Engine frees the emptied list), and a new ``-binding`` replaces every
    ``binding_*`` key of the old one.
    """
    given = dict(changes)
    ops = given.pop("context_ops", None)
    if ops is not None:
        given["ac"] = apply_context_ops(as_map(spec.context), ops) or None
    if any(key.startswith("binding_") for key in given):
        spec = spec.changed(**dict.fromkeys(BINDING_ATTRS))
    return spec.with_dict_changes(given)
