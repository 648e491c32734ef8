"""What a queue instance offers, level by level: ``qstat -F`` lines and load alarms.

Each attribute a queue instance offers comes from the global level, its host's
level or its own (see :mod:`qmaster.complexes.levels`). ``qstat -F`` shows
one line per attribute as ``<dominance><source>:<name>=<value>``: the level
whose value dominates (``g``, ``h``, ``q``: the most restrictive for ordered
operators, the lowest level defining it for ``==``/``!=``) and where the value comes from
(``l`` a load value, ``c`` what is left of a consumable, ``f`` a fixed
value). Values print as Grid Engine's ``-F`` prints them: memory with
``G``/``M``/``K`` and three decimals, times as ``hh:mm:ss``, doubles with six
decimals, load values as reported.

A queue instance is in load alarm (state ``a``) when a value of its host
passes one of its ``load_thresholds``; ``qstat -explain a`` gives the reason.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from qmaster.complexes.levels import HOST, LETTER, QUEUE, Level, build_level
from qmaster.complexes.load import running_slots_by_host, simulated_load
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Consumable, Relop, ValueType
from qmaster.complexes.values import ValueParseError
from qmaster.conf import fields as f
from qmaster.conf.state import QueueInstanceConf
from qmaster.core.view import global_level, queue_level
from schedd.load import consumable_left, passed_thresholds

if TYPE_CHECKING:
    from qmaster.core.machine import Core

GLOBAL_HOST = "global"

#: A queue instance's built-in resources, in the order Grid Engine lists them.
QUEUE_RESOURCES = (
    "qname", "hostname", "slots", "tmpdir", "seq_no", "rerun", "calendar",
    "s_rt", "h_rt", "s_cpu", "h_cpu", "s_fsize", "h_fsize", "s_data", "h_data",
    "s_stack", "h_stack", "s_core", "h_core", "s_rss", "h_rss", "s_vmem", "h_vmem",
    "min_cpu_interval",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Levels:
    """The global level and the host levels a listing's queue instances need."""

    glob: Level
    hosts: dict[str, Level]
    loads: dict[str, dict[str, str]]
    # attribute names in Grid Engine's order: load report first, then complex_values
    glob_names: tuple[str, ...] = ()
    host_names: dict[str, tuple[str, ...]] = field(default_factory=dict)


def host_levels(core: Core, hosts: Iterable[str]) -> Levels:
    """The global level and the levels of ``hosts`` (only those), with their bookings."""
    table = core.config.complexes
    glob = global_level(core, core.booked)
    glob_conf = core.config.exechost(GLOBAL_HOST)
    running = running_slots_by_host(core.booked)
    levels: dict[str, Level] = {}
    loads: dict[str, dict[str, str]] = {}
    names: dict[str, tuple[str, ...]] = {}
    for name in sorted(set(hosts)):
        conf = core.config.exechost(name)
        report = (
            simulated_load(conf.load_values, running.get(name, 0.0), conf.load_scaling)
            if conf
            else {}
        )
        level = build_level(
            HOST,
            name,
            table,
            loads=report,
            fixed={"hostname": name},
            complex_values=conf.complex_values if conf else {},
        )
        level.used = core.booked.at(HOST, name)
        levels[name], loads[name] = level, report
        names[name] = (*report, *(conf.complex_values if conf else {}))
    glob_names = (*(glob_conf.load_values if glob_conf else {}),)
    glob_names += (*(glob_conf.complex_values if glob_conf else {}),)
    return Levels(glob, levels, loads, glob_names, names)


def ge_memory(value: float) -> str:
    """``double_print_memory_to_dstring``: ``15.662G``, ``361.812M``, ``0.000``."""
    if math.isinf(value):
        return "infinity"
    for unit, size in (("G", 1024.0**3), ("M", 1024.0**2), ("K", 1024.0)):
        if abs(value) >= size:
            return f"{value / size:.3f}{unit}"
    return f"{value:.3f}"


def ge_time_span(value: float) -> str:
    """``double_print_time_to_dstring``: ``00:05:00``, ``infinity``."""
    if math.isinf(value):
        return "infinity"
    secs = int(value)
    return f"{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"


def _text(entry: ComplexEntry, value: float | str, source: str, reported: str | None) -> str:
    if isinstance(value, str):
        return value
    if entry.type is ValueType.MEMORY:
        return ge_memory(value)
    if entry.type is ValueType.TIME:
        return ge_time_span(value)
    if source == "l" and reported is not None:
        return reported
    if math.isinf(value):
        return "infinity"
    if entry.type is ValueType.INT:
        return str(int(value))
    return f"{value:f}"


def _offer(level: Level, name: str) -> tuple[float | str, str] | None:
    if name in level.capacity:
        cap = level.load_cap.get(name)
        left = level.capacity[name] - level.used.get(name, 0.0)
        return (cap, "l") if cap is not None and cap < left else (left, "c")
    if name in level.values:
        return level.values[name], level.sources.get(name, "f")
    return None


def _dominant(
    entry: ComplexEntry, offers: list[tuple[str, float | str, str]]
) -> tuple[str, float | str, str]:
    """Of the offers (upper level first), the one ``-F`` shows: the most restrictive for
    ordered operators, the lowest level's for ``==``/``!=`` (``qf:hostname``)."""
    if entry.relop in (Relop.EQ, Relop.NE, Relop.EXCL):
        return offers[-1]
    best = offers[0]
    for offer in offers[1:]:
        value, old = offer[1], best[1]
        if not isinstance(value, float) or not isinstance(old, float):
            continue
        lower = entry.relop in (Relop.LE, Relop.LT)
        if (value < old) if lower else (value > old):
            best = offer
    return best


def attribute_order(table: ComplexTable, levels: Levels, qi: QueueInstanceConf) -> list[str]:
    """The attributes of a queue instance in ``get_attribute_list``'s order: the global
    load report and complex_values, the host's, the queue's built-in resources, the
    queue's complex_values; each name once, unknown names left out."""
    order: dict[str, None] = {}
    names = [*levels.glob_names, *levels.host_names.get(qi.host, ()), *QUEUE_RESOURCES]
    for name in [*names, *qi.complex_values]:
        entry = table.get(name)
        if entry is not None:
            order.setdefault(entry.name, None)
    return list(order)


def queue_resources(
    table: ComplexTable,
    levels: Levels,
    qlevel: Level,
    qi: QueueInstanceConf,
    names: list[str],
) -> list[dict[str, str]]:
    """The ``-F`` lines of one queue instance (only ``names`` when given)."""
    wanted = {table[n].name for n in names if n in table} if names else None
    hlevel = levels.hosts.get(qi.host)
    report = levels.loads.get(qi.host, {})
    out: list[dict[str, str]] = []
    for name in attribute_order(table, levels, qi):
        entry = table[name]
        if wanted is not None and entry.name not in wanted:
            continue
        offers: list[tuple[str, float | str, str]] = []
        for level in (levels.glob, hlevel, qlevel):
            found = _offer(level, entry.name) if level is not None else None
            if found is not None:
                offers.append((LETTER[level.kind], found[0], found[1]))  # type: ignore[union-attr]
        if not offers:
            continue
        dom, value, source = _dominant(entry, offers)
        reported = report.get(entry.name) if dom == "h" else None
        text = _text(entry, value, source, reported)
        out.append({"dom": dom + source, "name": entry.name, "value": text})
    return out


def alarm_reasons(
    table: ComplexTable,
    qi: QueueInstanceConf,
    hlevel: Level | None,
    report: dict[str, str],
    levels: tuple[Level, ...] = (),
) -> list[str]:
    """Why the queue instance is in load alarm: one ``alarm hl:<name>=<value as reported>
    load-threshold=<threshold>`` line per passed threshold, as ``sge_load_alarm_reason``;
    a consumable shows what is left of it at the level with least left (``qc:``...)."""
    if hlevel is None:
        return []

    def value(name: str) -> float | None:
        load = hlevel.values.get(name)
        return load if isinstance(load, float) else None

    def shown(entry: ComplexEntry, load: float) -> str:
        if entry.consumable is Consumable.NO:
            return f"hl:{entry.name}={report.get(entry.name) or _text(entry, load, 'l', None)}"
        least = min(
            (lv for lv in levels if entry.name in lv.capacity),
            key=lambda lv: lv.available(entry.name),
        )
        return f"{LETTER[least.kind]}c:{entry.name}={_text(entry, load, 'c', None)}"

    thresholds = f.split_pairs(qi.attrs.get("load_thresholds", "NONE")).items()
    left = (lambda n: consumable_left(levels, n)) if levels else None
    return [
        f"alarm {shown(entry, load)} load-threshold={text}"
        if load is not None
        else f"error: no complex attribute for threshold {entry.name}"  # no level has it
        for entry, text, load in passed_thresholds(table, thresholds, value, left)
    ]


def levels_for(core: Core, instances: list[QueueInstanceConf]) -> tuple[Levels, dict[str, Level]]:
    """The host levels and the queue levels of ``instances``."""
    table = core.config.complexes
    levels = host_levels(core, (qi.host for qi in instances))
    qlevels = {qi.name: queue_level(qi, table, core.booked) for qi in instances}
    for qi in instances:
        # what a queue instance carries beyond its scheduling level: its host name,
        # its calendar (NONE too) and min_cpu_interval (qf:hostname, qf:calendar=NONE)
        level = qlevels[qi.name]
        for name, text in (("hostname", qi.host), *_displayed(qi)):
            entry = table.get(name)
            if entry is None or entry.name in level.values:
                continue
            try:
                level.values[entry.name] = entry.parse(text)
            except ValueParseError:
                continue
            level.sources[entry.name] = "f"
    return levels, qlevels


def _displayed(qi: QueueInstanceConf) -> list[tuple[str, str]]:
    return [(n, qi.attrs[n]) for n in ("calendar", "min_cpu_interval") if n in qi.attrs]


__all__ = ["QUEUE", "Levels", "alarm_reasons", "ge_memory", "host_levels", "levels_for"]
