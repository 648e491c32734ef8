"""Exclusive scheduling: BOOL consumables with the ``EXCL`` operator (complex(5)).

A level (the global host, a host, a queue instance) that defines an ``EXCL``
attribute in its ``complex_values`` can be used exclusively: a job requesting
the attribute as true (``-l exclusive=true``) starts there only while no other
job uses that level, and while it runs no other job — requesting the
attribute or not — starts there.

Bookkeeping uses two keys per attribute and level: the attribute itself holds
one per exclusive job, ``<attribute>:shared`` one per other job; a job may
start when the keys it must find empty are empty (over its window, when a
reservation or a calendar is involved).
"""

from __future__ import annotations

from collections.abc import Iterable

from qmaster.complexes.booking import Debit
from qmaster.complexes.levels import Level
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import Consumable, Relop, ValueType
from schedd.reservation import Planner

SHARED = ":shared"
_EPS = 1e-9


def exclusive_attributes(table: ComplexTable) -> tuple[str, ...]:
    """The names of the table's ``EXCL`` attributes."""
    return tuple(e.name for e in table if e.relop is Relop.EXCL)


def is_exclusive(vtype: ValueType, relop: Relop, consumable: Consumable) -> bool:
    """True for an ``EXCL`` consumable request."""
    return relop is Relop.EXCL and vtype is ValueType.BOOL and consumable is not Consumable.NO


def _used(
    level: Level, key: str, planner: Planner | None, window: tuple[float, float], timed: bool
) -> float:
    if planner is not None and (timed or planner.affects(level, key)):
        return planner.peak((level.kind, level.name, key), *window)
    return level.used.get(key, 0.0)


def blocked(
    wanted: Iterable[tuple[str, bool]],
    level: Level,
    planner: Planner | None = None,
    window: tuple[float, float] = (0.0, 0.0),
    timed: bool = False,
) -> str | None:
    """The ``EXCL`` attribute that keeps a job off ``level``, or None.

    ``wanted`` pairs each ``EXCL`` attribute with whether the job asks for it.
    """
    for name, exclusive in wanted:
        if name not in level.capacity:
            continue
        if _used(level, name, planner, window, timed) > _EPS:
            return name
        if exclusive and _used(level, name + SHARED, planner, window, timed) > _EPS:
            return name
    return None


def debits_at(wanted: Iterable[tuple[str, bool]], level: Level) -> list[Debit]:
    """What a job books for exclusivity on one level it uses."""
    return [
        (level.kind, level.name, name if exclusive else name + SHARED, 1.0)
        for name, exclusive in wanted
        if name in level.capacity
    ]
