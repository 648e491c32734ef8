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
from qmaster.gdi.specvalues import check_spec
from qmaster.gdi.values import ValueRefused


def checked_spec(spec: dict[str, Any], now: float, *, complete: bool = True) -> dict[str, Any]:
    """``spec`` checked (and completed); raises InvalidRequest with Grid Engine's text."""
    year = time.localtime(now).tm_year  # a conversion of the given time, not a clock read
    try:
        return check_spec(spec, year, complete=complete)
    except ValueRefused as exc:
        raise InvalidRequest(exc.message) from None


def full_resource_names(spec: dict[str, Any], complexes: ComplexTable) -> dict[str, Any]:
    """``spec`` with ``-l`` shortcuts replaced by the complex names (``a=x`` -> ``arch=x``).

    The qmaster resolves shortcuts as Grid Engine does, before the server JSV
    sees the job, so a JSV's change of ``arch`` replaces what was asked as ``a``.
    Names it does not know are left as they are (the submit check refuses them).
    """
    out = dict(spec)
    for key in ("l_hard", "l_soft"):
        requests = spec.get(key)
        if requests:
            out[key] = {_full_name(str(name), complexes): v for name, v in requests.items()}
    return out


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


def altered_spec(spec: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A job's specification with qalter's ``changes``.

    The context operations are applied to the job's own context, and a new
    ``-binding`` replaces every ``binding_*`` key of the old one.
    """
    new = {**spec, **changes}
    ops = new.pop("context_ops", None)
    if ops is not None:
        new["ac"] = apply_context_ops(spec.get("ac") or {}, ops)
    if any(key.startswith("binding_") for key in changes):
        new = {k: v for k, v in new.items() if not k.startswith("binding_") or k in changes}
    return new
