"""The global -> host -> queue value hierarchy: what each level offers, and the override rules.

Each level holds the values of the attributes it defines:

- *fixed* values: non-consumable ``complex_values``, queue resource limits and
  built-ins (``hostname`` on a host, ``qname``/``seq_no`` on a queue);
- *load* values: the global and host load reports (static in minige);
- *capacities*: consumable ``complex_values`` (and a queue's ``slots``).

On one level a fixed value overrides a load value of the same attribute: for
``==``/``!=`` the fixed one wins, for ordered operators the more restrictive
of both is dominant. A consumable that is also reported as a load value offers
the smaller of what is left of it and the load value.

Across levels (global by host and queue, host by queue) a ``==``/``!=``
attribute keeps its upper value (:func:`shadow_equalities`); an ordered one is
matched on every level that defines it, so the more restrictive value decides.
Grid Engine accepts such configurations, and so does minige.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Consumable, Relop, Requestable, ValueType
from qmaster.complexes.values import ValueParseError, parse_value

Value = float | str

GLOBAL = "global"
HOST = "host"
QUEUE = "queue"
LETTER = {GLOBAL: "g", HOST: "h", QUEUE: "q"}


@dataclass(slots=True)
class Level:
    """The values one level (the global host, one host, one queue instance) offers.

    ``values`` maps attribute names to the dominant fixed or load value and
    ``sources`` says which (``f`` or ``l``); ``capacity`` holds consumables
    with ``load_cap`` the load value reported for one of them; ``used`` is what
    is booked now (the scheduler adds to it during a pass).
    """

    kind: str
    name: str
    values: dict[str, Value] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    capacity: dict[str, float] = field(default_factory=dict)
    load_cap: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    forced: frozenset[str] = frozenset()

    def available(self, name: str) -> float:
        """What is left of a consumable now (bounded by its load value, if reported)."""
        left = self.capacity[name] - self.used.get(name, 0.0)
        load = self.load_cap.get(name)
        return left if load is None or load > left else load

    def defines(self, name: str) -> bool:
        """True when this level has a value, a capacity or, for a consumable, a load value
        for the attribute (get_attribute() makes an attribute of a load value alone)."""
        return name in self.values or name in self.capacity or name in self.load_cap


UPPER_WINS = frozenset({Relop.EQ, Relop.NE})
"""Relations for which, when qselect, qstat -l or qhost -l look at an attribute several
levels define, the uppermost level's value (global, then host, then queue) is the one
compared, as sge_select_queue() composes them (is_attr_prior()); for the other relations
the most restrictive value counts, which is every level's. The scheduler's dispatch
checks every level on its own."""


def more_restrictive(relop: Relop, a: float, b: float) -> float:
    """Of two offered values, the one that lets fewer requests through."""
    if relop in (Relop.LT, Relop.LE):
        return min(a, b)
    if relop in (Relop.GT, Relop.GE):
        return max(a, b)
    return a


def _parse(entry: ComplexEntry, text: str) -> Value | None:
    return _parsed(entry.type, text)


@lru_cache(maxsize=1 << 16)
def _parsed(vtype: ValueType, text: str) -> Value | None:
    """``text`` read as a ``vtype`` value, ``None`` when it does not parse. Remembered:
    the levels of many hosts and queue instances repeat the same few texts (a cell of
    10,000 hosts parsed 900,000 of them to build its levels once)."""
    try:
        return parse_value(vtype, text)
    except ValueParseError:
        return None


def _put(level: Level, entry: ComplexEntry, value: Value, source: str) -> None:
    name = entry.name
    old = level.values.get(name)
    if (
        old is not None
        and isinstance(old, float)
        and isinstance(value, float)
        and entry.relop not in (Relop.EQ, Relop.NE)
    ):
        best = more_restrictive(entry.relop, old, value)
        if best != value:
            return
    level.values[name] = value
    level.sources[name] = source


def build_level(
    kind: str,
    name: str,
    table: ComplexTable,
    *,
    loads: Mapping[str, str] = {},
    fixed: Mapping[str, str] = {},
    complex_values: Mapping[str, str] = {},
) -> Level:
    """One level from its load report, built-in fixed values and ``complex_values``.

    Loads go in first, then fixed values override them (more restrictive wins
    for ordered operators); unknown names and unparsable values are ignored.
    """
    level = Level(kind, name)
    for key, text in loads.items():
        entry = table.get(key)
        value = _parse(entry, text) if entry else None
        if entry is None or value is None:
            continue
        if entry.consumable is not Consumable.NO and isinstance(value, float):
            level.load_cap[entry.name] = value
        else:
            _put(level, entry, value, "l")
    for key, text in [*fixed.items(), *complex_values.items()]:
        entry = table.get(key)
        value = _parse(entry, text) if entry else None
        if entry is None or value is None:
            continue
        if entry.consumable is not Consumable.NO and isinstance(value, float):
            level.capacity[entry.name] = value
        else:
            _put(level, entry, value, "f")
    level.forced = frozenset(
        n for n in (*level.values, *level.capacity) if _is_forced(table.get(n))
    )
    return level


def _is_forced(entry: ComplexEntry | None) -> bool:
    return entry is not None and entry.requestable is Requestable.FORCED


def shadow_equalities(table: ComplexTable, level: Level, *upper: Level) -> None:
    """Drop the ``==``/``!=`` values of ``level`` that an upper level also defines.

    complex(5): such attributes "can only be overridden on the same level, but
    not on a lower level" -- Grid Engine accepts the lower value and goes on
    using the upper one. Ordered attributes need nothing here: each level is
    matched on its own, which lets the more restrictive value decide.
    """
    for name in [n for n in level.values if any(n in u.values for u in upper)]:
        entry = table.get(name)
        if entry is not None and entry.relop in (Relop.EQ, Relop.NE):
            del level.values[name]
            del level.sources[name]
