"""The restriction rules of complex attribute definitions.

Not every combination of type, relational operator, consumable flag,
requestable flag and default makes sense; these rules refuse the ones that do
not, when a table is loaded or changed (``qconf -Mc``):

- consumables only for INT, DOUBLE, MEMORY and TIME (and BOOL with ``EXCL``),
  always with ``<=`` (``EXCL`` for the exclusive BOOL kind);
- STRING, CSTRING, RESTRING and HOST compare only with ``==`` and ``!=``;
  BOOL only with ``==`` (``EXCL`` when consumable);
- a non-requestable consumable needs a default, a forced one must not have one;
- a default other than zero (or ``NONE``) only for consumables;
- built-in attributes cannot be deleted or retyped, except that a string type
  may become CSTRING or RESTRING and back.
"""

from __future__ import annotations

from collections.abc import Iterable

from qmaster.complexes.types import Consumable, Relop, Requestable, ValueType
from qmaster.complexes.values import ValueParseError, is_infinity, parse_value

_STRINGS = frozenset({ValueType.STRING, ValueType.CSTRING, ValueType.RESTRING, ValueType.HOST})
_TEXTS = frozenset({ValueType.STRING, ValueType.CSTRING, ValueType.RESTRING})
_NUMBERS = frozenset({ValueType.INT, ValueType.DOUBLE, ValueType.MEMORY, ValueType.TIME})

_T = ValueType
BUILTIN_TYPES: dict[str, ValueType] = {
    **dict.fromkeys(("arch", "calendar", "m_topology", "m_topology_inuse", "qname"), _T.RESTRING),
    "tmpdir": _T.RESTRING,
    "hostname": _T.HOST,
    **dict.fromkeys(("display_win_gui", "rerun"), _T.BOOL),
    **dict.fromkeys(("m_core", "m_socket", "num_proc", "seq_no", "slots"), _T.INT),
    **dict.fromkeys(
        (
            "cpu",
            "load_avg",
            "load_long",
            "load_medium",
            "load_short",
            "np_load_avg",
            "np_load_long",
            "np_load_medium",
            "np_load_short",
        ),
        _T.DOUBLE,
    ),
    **dict.fromkeys(("h_cpu", "h_rt", "s_cpu", "s_rt", "min_cpu_interval"), _T.TIME),
    **dict.fromkeys(
        (
            "h_core",
            "h_data",
            "h_fsize",
            "h_rss",
            "h_stack",
            "h_vmem",
            "s_core",
            "s_data",
            "s_fsize",
            "s_rss",
            "s_stack",
            "s_vmem",
            "mem_free",
            "mem_total",
            "mem_used",
            "swap_free",
            "swap_rate",
            "swap_rsvd",
            "swap_total",
            "swap_used",
            "virtual_free",
            "virtual_total",
            "virtual_used",
        ),
        _T.MEMORY,
    ),
}
"""Grid Engine 6.2u5's built-in attributes (its host and queue resources), with their types.

They are the 51 entries of the stock complex table; none may be deleted."""


class RuleError(ValueError):
    """A complex attribute definition breaks a restriction rule; the message says which."""


def _is_zero(vtype: ValueType, text: str) -> bool:
    if text.strip().upper() == "NONE":
        return True
    if vtype in _STRINGS or is_infinity(text):
        return False
    try:
        return parse_value(vtype, text) == 0
    except ValueParseError:
        return False


def _check_relop(name: str, vtype: ValueType, relop: Relop, consumable: bool) -> None:
    if relop is Relop.EXCL:
        if vtype is not ValueType.BOOL:
            raise RuleError(f'the relational operator EXCL is only valid for BOOL ("{name}")')
        if not consumable:
            raise RuleError(f'attribute "{name}" with relational operator EXCL must be consumable')
        return
    if consumable and relop is not Relop.LE:
        raise RuleError(f'consumable attribute "{name}" needs the relational operator <=')
    if vtype in _STRINGS and relop not in (Relop.EQ, Relop.NE):
        raise RuleError(
            f'relational operator "{relop.value}" is not valid for {vtype.value} attribute '
            f'"{name}" (only == and !=)'
        )
    if vtype is ValueType.BOOL and relop is not Relop.EQ:
        raise RuleError(
            f'relational operator "{relop.value}" is not valid for BOOL attribute "{name}" '
            "(only ==)"
        )


def _check_consumable(
    name: str, vtype: ValueType, relop: Relop, default: str, req: Requestable
) -> None:
    if vtype not in _NUMBERS and not (vtype is ValueType.BOOL and relop is Relop.EXCL):
        raise RuleError(
            f'attribute "{name}" of type {vtype.value} cannot be consumable '
            "(only INT, DOUBLE, MEMORY and TIME)"
        )
    zero = _is_zero(vtype, default)
    if req is Requestable.NO and zero:
        raise RuleError(f'non-requestable consumable "{name}" needs a default value other than 0')
    if req is Requestable.FORCED and not zero:
        raise RuleError(f'forced consumable "{name}" must not have a default value')


def check_definition(
    name: str,
    vtype: ValueType,
    relop: Relop,
    requestable: Requestable,
    consumable: Consumable,
    default: str,
) -> None:
    """Raise :class:`RuleError` when one attribute's definition breaks a rule."""
    is_consumable = consumable is not Consumable.NO
    if is_consumable:
        _check_consumable(name, vtype, relop, default, requestable)
    _check_relop(name, vtype, relop, is_consumable)
    if not is_consumable and not _is_zero(vtype, default):
        raise RuleError(f'only consumables may have a default value ("{name}={default}")')
    if name == "tmpdir" and requestable is not Requestable.NO:
        raise RuleError('attribute "tmpdir" cannot be requestable')


def _may_retype(old: ValueType, new: ValueType) -> bool:
    return old is new or (old in _TEXTS and new in _TEXTS)


def check_builtins(
    names_and_types: Iterable[tuple[str, ValueType]], removed: Iterable[str]
) -> None:
    """Built-ins keep their type (strings may switch among themselves) and are never deleted."""
    for name in removed:
        if name in BUILTIN_TYPES:
            raise RuleError(f'The built-in complex "{name}" cannot be deleted')
    for name, vtype in names_and_types:
        builtin = BUILTIN_TYPES.get(name)
        if builtin is not None and not _may_retype(builtin, vtype):
            raise RuleError(
                f'the type of built-in complex "{name}" cannot be changed '
                f"from {builtin.value} to {vtype.value}"
            )
