"""A job's resource requests, resolved against the complex table once per category.

Names and shortcuts resolve to attributes; values are parsed with the
attribute's type. Unrequested consumables with a default are requested
implicitly (``slots`` always is), forced attributes are remembered so levels
that define them can refuse jobs not requesting them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from qmaster.complexes.pattern import ExpressionError, check_expression
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Consumable, Relop, ValueType
from qmaster.complexes.values import ValueParseError, parse_value

Value = float | str


@dataclass(frozen=True, slots=True)
class Req:
    """One request: attribute, how it compares, the value and the text the user gave."""

    name: str
    text: str
    vtype: ValueType
    relop: Relop
    consumable: Consumable
    value: Value
    default: bool = False

    @property
    def amount(self) -> float:
        """The numeric amount of a consumable request."""
        return float(self.value) if isinstance(self.value, float) else 0.0

    @property
    def per_job(self) -> bool:
        """Booked once per job (``JOB`` consumables) instead of once per slot."""
        return self.consumable is Consumable.JOB


@dataclass(frozen=True, slots=True)
class Compiled:
    """A job's requests, resolved: fixed and consumable hard requests, soft ones."""

    fixed: tuple[Req, ...]
    consumables: tuple[Req, ...]
    soft: tuple[Req, ...]
    requested: frozenset[str]
    unknown: tuple[tuple[str, str], ...] = ()
    bad: tuple[tuple[str, str], ...] = ()
    counted: tuple[tuple[str, float, bool, Req], ...] = ()
    """The consumables as ``(name, amount, per_job, request)``, for the hot loop."""
    parallel: bool = False
    """A parallel job: its ``JOB`` consumables concern the master queue only."""
    excl: tuple[tuple[str, bool], ...] = ()
    """Every ``EXCL`` attribute of the table, with whether the job asks for it (true)."""
    slots_each: bool = field(init=False, compare=False)
    """Each slot asks for at least one ``slots`` (what a host's free slots bound)."""

    def __post_init__(self) -> None:
        slots_each = any(
            name == "slots" and not per_job and amount >= 1
            for name, amount, per_job, _ in self.counted
        )
        object.__setattr__(self, "slots_each", slots_each)


@lru_cache(maxsize=8192)
def _req(entry: ComplexEntry, text: str, *, default: bool = False) -> Req:
    """The request of ``text`` for ``entry``: made once per entry and text (new categories
    mostly repeat their attributes' values; a bad value raises, and is not kept)."""
    value = parse_value(entry.type, text)
    if isinstance(value, str):
        check_expression(value)
    return Req(entry.name, text, entry.type, entry.relop, entry.consumable, value, default)


def _resolve(
    table: ComplexTable, items: Mapping[str, str]
) -> tuple[list[Req], list[tuple[str, str]], list[tuple[str, str]]]:
    reqs: list[Req] = []
    unknown: list[tuple[str, str]] = []
    bad: list[tuple[str, str]] = []
    for key, text in items.items():
        entry = table.get(key)
        if entry is None:
            unknown.append((key, str(text)))
            continue
        try:
            reqs.append(_req(entry, str(text)))
        except (ValueParseError, ExpressionError):
            bad.append((entry.name, str(text)))
    return reqs, unknown, bad


class _TableParts:
    """What a complex table gives every job alike, worked out once per table: the
    implicit requests per set of requested names, and its ``EXCL`` attributes.

    A table is not changed once made (a new configuration brings a new one). The parts
    are found by the table's identity and hold the table, so its id is not reused while
    they are kept, and another table never finds them.
    """

    __slots__ = ("defaults", "excl", "table")

    def __init__(self, table: ComplexTable) -> None:
        self.table = table
        self.defaults: dict[frozenset[str], tuple[Req, ...]] = {}
        self.excl = tuple(e.name for e in table if e.relop is Relop.EXCL)


_PARTS_ROOM = 8
_parts: list[_TableParts] = []
"""The parts of the tables used last (the newest at the end)."""


def _table_parts(table: ComplexTable) -> _TableParts:
    if _parts and _parts[-1].table is table:
        return _parts[-1]
    for i, found in enumerate(_parts):
        if found.table is table:
            _parts.append(_parts.pop(i))
            return found
    made = _TableParts(table)
    _parts.append(made)
    if len(_parts) > _PARTS_ROOM:
        del _parts[0]
    return made


def _implicit(table: ComplexTable, requested: set[str]) -> tuple[Req, ...]:
    """:func:`_defaults`, once per table and set of requested names."""
    parts = _table_parts(table)
    key = frozenset(requested)
    found = parts.defaults.get(key)
    if found is None:
        if len(parts.defaults) >= 4096:
            parts.defaults.clear()
        found = parts.defaults[key] = tuple(_defaults(table, requested))
    return found


def _defaults(table: ComplexTable, requested: set[str]) -> list[Req]:
    out: list[Req] = []
    for entry in table:
        if entry.consumable is Consumable.NO or entry.name in requested:
            continue
        try:
            req = _req(entry, entry.default, default=True)
        except ValueParseError:
            continue
        if req.amount > 0 or entry.name == "slots":
            out.append(req)
    if "slots" not in requested and not any(r.name == "slots" for r in out):
        out.append(Req("slots", "1", ValueType.INT, Relop.LE, Consumable.YES, 1.0, True))
    return out


def _is_consumable_request(req: Req) -> bool:
    return (
        req.consumable is not Consumable.NO
        and isinstance(req.value, float)
        and req.relop is not Relop.EXCL
    )


def _exclusive(table: ComplexTable, hard: list[Req]) -> tuple[tuple[str, bool], ...]:
    wanted = {r.name for r in hard if r.relop is Relop.EXCL and r.value}
    return tuple((name, name in wanted) for name in _table_parts(table).excl)


def compile_requests(
    table: ComplexTable, hard: Mapping[str, str], soft: Mapping[str, str], *, parallel: bool = False
) -> Compiled:
    """Resolve a job's ``-l`` requests (hard and soft) against the table."""
    hard_reqs, unknown, bad = _resolve(table, hard)
    soft_reqs, _, _ = _resolve(table, soft)
    names = {r.name for r in hard_reqs}
    consumables = [r for r in hard_reqs if _is_consumable_request(r)]
    consumables += _implicit(table, names)
    return Compiled(
        fixed=tuple(r for r in hard_reqs if not _is_consumable_request(r)),
        consumables=tuple(consumables),
        soft=tuple(soft_reqs),
        requested=frozenset(names | {r.name for r in soft_reqs}),
        unknown=tuple(unknown),
        bad=tuple(bad),
        counted=tuple((r.name, r.amount, r.per_job, r) for r in consumables),
        parallel=parallel,
        excl=_exclusive(table, hard_reqs),
    )


def duration(hard: Mapping[str, str], default: float) -> float:
    """How long a job is expected to run: its ``h_rt``, else the default duration."""
    text = hard.get("h_rt")
    if text is None:
        return default
    value = _seconds(str(text))
    return default if value is None else value


@lru_cache(maxsize=4096)
def _seconds(text: str) -> float | None:
    """A time value's seconds (infinity for a value that is not a number), None when bad
    (a pass asks for every running job's ``h_rt``: jobs share few of them)."""
    try:
        value = parse_value(ValueType.TIME, text)
    except ValueParseError:
        return None
    return float(value) if isinstance(value, float) else math.inf
