"""The scheduler's view of the cell kept between passes, updated by what changed.

A pass used to copy every queue instance, host and global level from the
level templates (:mod:`qmaster.core.schedlevels`) with what the core has
booked on each: work in proportion to the cell however little changed. The
kept view holds those copies from pass to pass instead:

- what tasks book or release marks their levels (``Bookings.touched``); the
  next pass copies what is booked there again, and rebuilds the level of a
  host whose running slots (and so its simulated load) changed;
- what a pass booked into the view for itself (``View.written``) is put back
  the same way before the next one;
- it is built again, lazily, when the configuration changes (a new
  configuration state) or when a queue instance's state does (qmod, a
  calendar, a host going down, an ambiguous configuration): those decide which
  instances a pass sees and which are disabled.

``cache`` is handed to the scheduler with the view (``View.kept``): what it
works out from the queue instances alone (groups of alike instances, the
instances a ``-q`` names) lives there as long as this view does.
:func:`qmaster.core.schedstate.check_scheduler_caches` compares the kept view
with one built from scratch.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from qmaster.complexes.booking import Bookings, LevelKey
from qmaster.complexes.levels import GLOBAL, HOST, QUEUE, Level
from qmaster.core.ambiguity import ambiguous
from qmaster.core.qinstances import for_scheduler
from qmaster.core.schedlevels import LevelCache, copy_level, level_cache
from schedd import HostState, QueueState
from schedd.kept import changed, track_changes

if TYPE_CHECKING:
    from qmaster.core.machine import Core

KEPT_KEY = "kept_view"
StatesKey = tuple[object, ...]


def states_key(core: Core) -> StatesKey:
    """What decides the queue instances' states a pass sees (see :func:`for_scheduler`)."""
    return (
        tuple(sorted((k, v) for k, v in core.qi_states.items() if v)),
        tuple(sorted(core.qi_calendar.items())),
        frozenset(core.down_hosts),
        ambiguous(core),
    )


class KeptView:
    """The levels and queue instances of the view, kept in step with the bookings."""

    def __init__(self, core: Core, levels: LevelCache, states: StatesKey) -> None:
        booked = core.booked
        self.levels = levels
        self.states = states
        booked.touched.clear()
        self.running: dict[str, float] = {}
        self.glob = copy_level(levels.glob, booked.at(GLOBAL, GLOBAL))
        self.hosts: dict[str, HostState] = {}
        for name in levels.hosts:
            self._host(name, booked)
        self.queues: list[QueueState] = for_scheduler(core, levels.view_queues(booked))
        self.by_name: dict[str, Level] = {q.name: q.queue_level for q in self.queues}
        self.cache: dict[Hashable, object] = {}
        track_changes(self.cache)  # the scheduler keeps what depends on the levels changed
        self.written: list[tuple[str, str]] = []
        """The levels the last pass booked into (its ``View.written``)."""

    def _host(self, name: str, booked: Bookings) -> None:
        """The host's level for what runs there now, with what is booked on it."""
        running = booked.running.get(name, 0.0)
        self.running[name] = running
        level = copy_level(self.levels.host_level(name, running), booked.at(HOST, name))
        a = self.levels.access[name]
        self.hosts[name] = HostState(level, a.users, a.xusers, a.projects, a.xprojects)

    def sync(self, booked: Bookings) -> None:
        """Take in what was booked and released since the last pass, and undo what the
        last pass booked into the view for itself."""
        touched = booked.touched
        touched.update(self.written)
        self.written.clear()
        queues: set[str] = set()
        hosts: set[str] = set()
        for key in touched:
            self._resync(key, booked)
            if key[0] == QUEUE:
                queues.add(key[1])
                hosts.add(key[1].partition("@")[2])
            elif key[0] == HOST:
                hosts.add(key[1])
        changed(self.cache, QUEUE, queues)
        changed(self.cache, HOST, hosts)
        touched.clear()

    def _resync(self, key: LevelKey, booked: Bookings) -> None:
        kind, name = key
        if kind == QUEUE:
            level = self.by_name.get(name)
            if level is not None:
                _refill(level, booked.used.get(key))
            host = name.partition("@")[2]
            if host in self.hosts and booked.running.get(host, 0.0) != self.running[host]:
                self._host(host, booked)
        elif kind == HOST:
            state = self.hosts.get(name)
            if state is not None:
                _refill(state.level, booked.used.get(key))
        elif kind == GLOBAL:
            _refill(self.glob, booked.used.get(key))


def _refill(level: Level, used: dict[str, float] | None) -> None:
    level.used.clear()
    if used:
        level.used.update(used)


def kept_view(core: Core) -> KeptView:
    """The core's kept view, brought up to date (built again when the configuration or a
    queue instance's state changed)."""
    states = states_key(core)
    levels = level_cache(core, core.booked.running)
    found = core.derived.get(KEPT_KEY)
    kept = found[1] if found is not None else None
    if not isinstance(kept, KeptView) or kept.levels is not levels or kept.states != states:
        kept = KeptView(core, levels, states)
        core.derived[KEPT_KEY] = (core.config.state, kept)
        return kept
    kept.sync(core.booked)
    return kept
