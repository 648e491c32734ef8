"""The levels of the scheduler's view, built once per configuration state.

Parsing a level from its configuration text (complex values, limits, a host's
load report) is the costly part of a view, and it changes only when the
configuration does. :class:`LevelCache` keeps, per configuration state
(:meth:`Core.per_config`), the global level, every host's level (rebuilt for
one host when the slots running there, and so its simulated load, change) and
every queue instance's level and static attributes, with the ``==``/``!=``
shadowing of complex(5) already applied. A pass gets copies that share the
offered values and carry their own ``used``, filled from the core's bookings,
which running tasks change as deltas (:class:`~qmaster.complexes.booking.Bookings`).
Nothing here mutates a template once built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qmaster.complexes.booking import Bookings
from qmaster.complexes.levels import GLOBAL, HOST, QUEUE, Level, build_level, shadow_equalities
from qmaster.complexes.load import simulated_load
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.values import ValueParseError
from qmaster.conf import fields as f
from qmaster.conf.queue import ExecHostConf
from qmaster.conf.state import QueueInstanceConf
from schedd import HostState, QueueState
from schedd.matching import named_instances

if TYPE_CHECKING:
    from qmaster.core.machine import Core

GLOBAL_HOST = "global"
LEVELS_KEY = "sched_levels"
_QUEUE_FIXED = ("seq_no", "rerun", "tmpdir", "calendar")


def copy_level(level: Level, used: dict[str, float]) -> Level:
    """A pass's copy of a template: the offered values shared, its own bookings."""
    return Level(
        level.kind,
        level.name,
        level.values,
        level.sources,
        level.capacity,
        level.load_cap,
        used,
        level.forced,
    )


def build_queue_level(qi: QueueInstanceConf, table: ComplexTable) -> Level:
    """A queue instance's level from its configuration: complex_values, limits, built-ins."""
    fixed = _queue_fixed(qi)
    return build_level(QUEUE, qi.name, table, fixed=fixed, complex_values=qi.complex_values)


def _queue_fixed(qi: QueueInstanceConf) -> dict[str, str]:
    fixed = {"qname": qi.cqueue, "slots": str(qi.slots)}
    fixed.update({k: qi.attrs[k] for k in _QUEUE_FIXED if not f.is_none(qi.attrs.get(k, "NONE"))})
    fixed.update({k: qi.attrs[k] for k in qi.limits if k in qi.attrs})
    return fixed


def build_global_level(core: Core) -> Level:
    """The ``global`` host's level from its configuration, nothing booked."""
    glob = core.config.exechost(GLOBAL_HOST)
    return build_level(
        GLOBAL,
        GLOBAL,
        core.config.complexes,
        loads=glob.load_values if glob else {},
        complex_values=glob.complex_values if glob else {},
    )


def build_host_level(name: str, conf: ExecHostConf, table: ComplexTable, running: float) -> Level:
    """A host's level with the simulated load of ``running`` busy slots, nothing booked."""
    return build_level(
        HOST,
        name,
        table,
        loads=simulated_load(conf.load_values, running, conf.load_scaling),
        fixed={"hostname": name},
        complex_values=conf.complex_values,
    )


def queue_state(core: Core, qi: QueueInstanceConf, level: Level) -> QueueState:
    """A queue instance as the scheduler sees it, on ``level`` (nothing booked on it yet)."""
    return QueueState(
        name=qi.name,
        cqueue=qi.cqueue,
        host=qi.host,
        total=qi.slots,
        used=0,
        seq_no=qi.seq_no,
        user_lists=tuple(qi.user_lists),
        xuser_lists=tuple(qi.xuser_lists),
        pe_list=tuple(qi.pe_list),
        host_groups=tuple(core.config.state.groups_of(qi.host)),
        level=level,
        load_thresholds=tuple(f.split_pairs(qi.attrs.get("load_thresholds", "NONE")).items()),
        projects=tuple(f.split_list(qi.attrs.get("projects", "NONE"))),
        xprojects=tuple(f.split_list(qi.attrs.get("xprojects", "NONE"))),
        qtype=qi.qtype,
        ckpt_list=tuple(f.split_list(qi.attrs.get("ckpt_list", "NONE"))),
    )


@dataclass(frozen=True, slots=True)
class _HostAccess:
    users: tuple[str, ...]
    xusers: tuple[str, ...]
    projects: tuple[str, ...]
    xprojects: tuple[str, ...]


class LevelCache:
    """Every level of one configuration state, shadowed, never mutated once built."""

    def __init__(self, core: Core, running: dict[str, float]) -> None:
        config = core.config
        self.table = config.complexes
        self.glob = build_global_level(core)
        self.hosts = {n: c for n, c in config.exechosts.items() if n != GLOBAL_HOST}
        self.access = {
            n: _HostAccess(*(tuple(f.split_list(c.attrs.get(k, "NONE"))) for k in _ACCESS_KEYS))
            for n, c in self.hosts.items()
        }
        self.by_load: dict[str, tuple[float, Level]] = {}
        self.loaded: dict[tuple[str, float], Level] = {}
        """Every host's template per number of busy slots seen (a host's load goes up
        and down between a few values), up to ``_LOADED_MAX`` of them."""
        self._host_alike: dict[tuple[object, ...], Level] = {}
        """A host level per configuration text and busy slots: the hosts configured
        alike differ in their name only (see :meth:`_build_host`)."""
        for name in self.hosts:
            self.host_level(name, running.get(name, 0.0))
        self._alike: dict[tuple[object, ...], Level] = {}
        """Queue levels by what decides them (texts, names above), shared by the alike."""
        self.queues = [self._queue(core, qi) for qi in config.queue_instances()]
        self._alike.clear()
        self._named: dict[tuple[str, ...], frozenset[str]] = {}

    def named(self, patterns: tuple[str, ...]) -> frozenset[str]:
        """The names of the instances a ``-q`` list names (worked out once per list: a
        pass with ``-q`` categories matched every instance against them each time)."""
        found = self._named.get(patterns)
        if found is None:
            queues = self.queues
            found = frozenset(queues[i].name for i in named_instances(queues, patterns))
            self._named[patterns] = found
        return found

    def named_lists(self) -> dict[tuple[str, ...], frozenset[str]]:
        """Every ``-q`` list worked out so far, with the names it gave."""
        return dict(self._named)

    def host_level(self, name: str, running: float) -> Level:
        """The host's template for ``running`` busy slots (kept until that changes)."""
        kept = self.by_load.get(name)
        if kept is None or kept[0] != running:
            level = self.loaded.get((name, running))
            if level is None:
                level = self._build_host(name, running)
                if len(self.loaded) < _LOADED_MAX:
                    self.loaded[(name, running)] = level
            kept = self.by_load[name] = (running, level)
        return kept[1]

    def _build_host(self, name: str, running: float) -> Level:
        """The host's level for ``running`` busy slots: that of a host configured alike,
        its ``hostname`` made this host's, else parsed from its configuration (a cell
        of 10,000 alike hosts parsed a level each time a host's busy slots changed)."""
        conf = self.hosts[name]
        attrs = conf.attrs
        key = (attrs.get("load_values"), attrs.get("load_scaling"), attrs.get("complex_values"), running)  # fmt: skip
        alike = self._host_alike.get(key)
        entry = self.table.get("hostname")
        if alike is not None and entry is not None:
            mine, theirs = _value(entry, name), _value(entry, alike.name)
            if mine is not None and theirs is not None and alike.values.get(entry.name, theirs) == theirs:  # fmt: skip
                values = dict(alike.values)
                if entry.name in values:
                    values[entry.name] = mine
                return Level(HOST, name, values, alike.sources, alike.capacity,
                             alike.load_cap, {}, alike.forced)  # fmt: skip
        level = build_host_level(name, conf, self.table, running)
        shadow_equalities(self.table, level, self.glob)
        if alike is None and len(self._host_alike) < _LOADED_MAX:
            self._host_alike[key] = level
        return level

    def _queue(self, core: Core, qi: QueueInstanceConf) -> QueueState:
        above = [self.glob]
        if qi.host in self.by_load:  # the values' names do not depend on the load
            above.append(self.by_load[qi.host][1])
        # the level follows from these texts and the names defined above it (shadowing);
        # instances alike (a queue on many equal hosts) share its offered values, as the
        # copies of one template in the passes do (nothing mutates them once built)
        fixed = _queue_fixed(qi)
        key = (tuple(fixed.items()), tuple(qi.complex_values.items()),
               *(tuple(u.values) for u in above))  # fmt: skip
        alike = self._alike.get(key)
        if alike is None:
            level = build_level(QUEUE, qi.name, self.table, fixed=fixed,
                                complex_values=qi.complex_values)  # fmt: skip
            shadow_equalities(self.table, level, *above)
            self._alike[key] = level
        else:
            level = Level(QUEUE, qi.name, alike.values, alike.sources, alike.capacity,
                          alike.load_cap, {}, alike.forced)  # fmt: skip
        return queue_state(core, qi, level)

    def view_hosts(
        self, booked: Bookings, running: dict[str, float]
    ) -> tuple[Level, dict[str, HostState]]:
        """The global level and every host's state for one pass."""
        glob = copy_level(self.glob, booked.at(GLOBAL, GLOBAL))
        hosts: dict[str, HostState] = {}
        for name in self.hosts:
            level = copy_level(self.host_level(name, running.get(name, 0.0)), booked.at(HOST, name))
            a = self.access[name]
            hosts[name] = HostState(level, a.users, a.xusers, a.projects, a.xprojects)
        return glob, hosts

    def view_queues(self, booked: Bookings) -> list[QueueState]:
        """Every queue instance for one pass, with what is booked in it."""
        return [_queue_copy(q, booked.at(QUEUE, q.name)) for q in self.queues]


def _value(entry: ComplexEntry, text: str) -> float | str | None:
    """``text`` as the attribute's value, None when it does not parse (as a level reads
    its values)."""
    try:
        return entry.parse(text)
    except ValueParseError:
        return None


_LOADED_MAX = 20_000
_ACCESS_KEYS = ("user_lists", "xuser_lists", "projects", "xprojects")


def _queue_copy(q: QueueState, used: dict[str, float]) -> QueueState:
    """A pass's copy of a queue instance template with its bookings."""
    level = copy_level(q.queue_level, used)
    return QueueState(
        q.name, q.cqueue, q.host, q.total, 0, q.seq_no, q.user_lists, q.xuser_lists,
        q.pe_list, False, q.host_groups, level, q.load_thresholds, q.projects, q.xprojects,
        q.qtype, q.ckpt_list,
    )  # fmt: skip


def level_cache(core: Core, running: dict[str, float]) -> LevelCache:
    """The core's levels for its current configuration (``running``: busy slots per host)."""
    return core.per_config(LEVELS_KEY, LevelCache, lambda: LevelCache(core, running))
