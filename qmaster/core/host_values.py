"""What one execution host offers, as qhost(1) and qselect(1) see it.

- :func:`host_levels`: the global level and each host's level (load report of
  the simulated host, ``complex_values``, bookings), the same levels the
  scheduler matches against;
- :func:`resource_values`: ``qhost -F``'s ``hl:arch=lx-amd64`` lines, each
  with its dominance (``g``/``h`` then ``l`` load, ``f`` fixed, ``c``
  consumable);
- :func:`offers`: whether levels offer every attribute of a ``-l`` list, with
  consumables judged against their whole capacity (an empty cluster), as Grid
  Engine's ``sge_select_queue`` does for these commands;
- :func:`with_alarms`: the ``a`` (load alarm) state of queue instances whose
  host passes one of their ``load_thresholds``, as ``sge_load_alarm`` judges
  it for qhost -q and qselect -qs (the scheduler's own test, without its
  per-pass load adjustments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from qmaster.complexes.compare import satisfies
from qmaster.complexes.levels import LETTER, UPPER_WINS, Level
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import ValueType
from qmaster.core.errors import InvalidRequest
from qmaster.core.resources import stored_value
from qmaster.core.view import _hosts, queue_alarms
from schedd.matching import format_offer, static_level
from schedd.requests import Compiled, compile_requests

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def host_levels(core: Core) -> tuple[Level, dict[str, Level]]:
    """The global level and every execution host's level, with what is booked now."""
    glob, hosts = _hosts(core, core.booked)
    return glob, {name: state.level for name, state in hosts.items()}


def compile_match(table: ComplexTable, requests: Mapping[str, str]) -> Compiled:
    """A ``-l`` list resolved against the table; Grid Engine's error for a name it lacks."""
    for name, text in requests.items():
        entry = table.get(name)
        if entry is None:
            raise InvalidRequest(f'unknown resource "{name}"')
        stored_value(entry, text)  # a job's own check of a requested value
    compiled = compile_requests(table, requests, {})
    explicit = set(compiled.requested)
    return Compiled(
        fixed=compiled.fixed,
        consumables=tuple(r for r in compiled.consumables if r.name in explicit),
        soft=(),
        requested=compiled.requested,
    )


def offers(compiled: Compiled, levels: Sequence[Level]) -> bool:
    """True when ``levels`` (global first) satisfy every request, each defined somewhere;
    a ``==``/``!=`` attribute is compared with the uppermost level's value only."""
    names = {r.name for r in (*compiled.fixed, *compiled.consumables)}
    upper = tuple(r for r in compiled.fixed if r.relop in UPPER_WINS)
    for r in upper:
        level = next((lv for lv in levels if r.name in lv.values), None)
        if level is not None and not satisfies(r.vtype, r.relop, r.value, level.values[r.name]):
            return False
    if upper:
        compiled = replace(compiled, fixed=tuple(r for r in compiled.fixed if r not in upper))
    if any(static_level(compiled, level) is not None for level in levels):
        return False
    return all(any(level.defines(n) for level in levels) for n in names)


def shown(vtype: ValueType, value: float | str) -> str:
    """A value as ``sge_print_resources`` prints it: memory below 1K still gets ``%.3f``."""
    if vtype is ValueType.MEMORY and isinstance(value, float) and abs(value) < 1024:
        return f"{value:.3f}"
    return format_offer(vtype, value)


def _value_of(table: ComplexTable, level: Level, name: str) -> tuple[str, str] | None:
    entry = table.get(name)
    if entry is None:
        return None
    if name in level.capacity:
        return "c", shown(entry.type, level.available(name))
    if name in level.values:
        return level.sources.get(name, "f"), shown(entry.type, level.values[name])
    return None


def resource_values(table: ComplexTable, glob: Level, host: Level | None) -> list[list[str]]:
    """``qhost -F``'s values of one host: ``[dominance, name, value, shortcut]``, table order.

    The host's own value dominates the global one; the global host shows its own.
    """
    out: list[list[str]] = []
    for entry in table:
        for level in (host, glob) if host is not None else (glob,):
            found = _value_of(table, level, entry.name)
            if found is not None:
                source, text = found
                out.append([LETTER[level.kind] + source, entry.name, text, entry.shortcut])
                break
    return out


def with_alarms(core: Core, rows: list[dict[str, Any]]) -> None:
    """Prefix ``a`` to the states of queue instance rows whose host is in load alarm."""
    alarmed = queue_alarms(core)
    for row in rows:
        if row["name"] in alarmed and "a" not in row["states"]:
            row["states"] = "a" + str(row["states"])
