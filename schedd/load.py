"""Host load in a pass: queue sorting by ``load_formula``, load adjustments, load alarms.

- ``queue_sort_method load`` orders queue instances by their host's
  ``load_formula`` value, then ``seq_no``; ``seqno`` by ``seq_no``, then load.
  A host missing a value the formula names counts as very loaded (9999).
- ``job_load_adjustments`` add load to a host per slot a job got there, for
  jobs dispatched in this pass and, decaying linearly over
  ``load_adjustment_decay_time``, before it; ``np_*`` values are divided by
  the host's ``num_proc``.
- ``load_thresholds`` put a queue instance in load alarm when a value reaches
  its threshold (``load relop threshold`` holds): it takes no job in the pass
  ("dropped because it is overloaded"). A consumable as threshold is what is left of it for the
  instance (the least its global, host and queue levels have left, as
  get_attribute_by_name() merges them); it alarms when that amount compares
  with the threshold by the relop (``test1 <=`` with threshold 2: 2 left and
  less), before the pass and after each job the pass dispatches. One that no level
  defines is always in alarm (sge_load_alarm() finds no attribute for it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache

from qmaster.complexes.compare import satisfies
from qmaster.complexes.formula import evaluate, parse_formula
from qmaster.complexes.levels import Level
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Consumable
from qmaster.complexes.values import ValueParseError
from schedd.kept import KeyLog, alarms, base_loads, changes, kept_for, on_host, sort_keys
from schedd.reasons import Reason
from schedd.view import QueueState, View

ERROR_LOAD = 9999.0
_formula = lru_cache(maxsize=64)(parse_formula)
"""A load formula's terms, read once per text (a pass reads the configuration's)."""


class LoadModel:
    """Load values per host for one pass, adjusted as the pass dispatches."""

    def __init__(self, view: View, now: float) -> None:
        self.view = view
        self.by_load = view.queue_sort == "load"
        self.formula = _formula(view.load_formula)
        self.adjustments = tuple(view.load_adjustments)
        self.added: dict[str, dict[str, float]] = {}
        self.version = 0
        self.changed: list[tuple[str, ...]] = []
        self.keys: dict[str, tuple[float, float, str]] = {}
        self.base = base_loads(view)
        self.kept_keys = sort_keys(view)
        self.alarms = alarms(view)
        self._consumable: dict[tuple[tuple[str, str], ...], bool] = {}
        self.on_host = on_host(view)
        decay = view.load_decay
        for hosts, when in view.recent:
            factor = 1.0 - (now - when) / decay if decay > 0 else 0.0
            if factor > 0:
                self._add(hosts, factor)
        self.shared = self._kept_keys()
        """The sort keys kept from earlier passes that still hold (hosts without load
        adjustments read them; ``keys`` holds those of the others, and all when not kept)."""

    def _nproc(self, host: str) -> float:
        value = self.view.host(host).level.values.get("num_proc")
        return float(value) if isinstance(value, float) and value > 0 else 1.0

    def _add(self, hosts: Iterable[tuple[str, int]], factor: float) -> None:
        for host, slots in hosts:
            added = self.added.setdefault(host, {})
            for name, amount in self.adjustments:
                step = amount * slots * factor
                if name.startswith("np_"):
                    step /= self._nproc(host)
                added[name] = added.get(name, 0.0) + step

    def dispatched(self, assignment: Iterable[tuple[QueueState, int]]) -> None:
        """A job got these slots: its hosts carry the job load adjustments from now on."""
        if not self.adjustments:
            return
        per_host: dict[str, int] = {}
        for q, n in assignment:
            per_host[q.host] = per_host.get(q.host, 0) + n
        self._add(per_host.items(), 1.0)
        for host in per_host:
            for name in self.on_host.get(host, ()):
                self.keys.pop(name, None)
        self.changed.append(tuple(per_host))
        self.version += 1

    def changed_since(self, version: int) -> set[str]:
        """The hosts whose load changed after ``version``."""
        return {host for hosts in self.changed[version:] for host in hosts}

    def value(self, host: str, name: str) -> float | None:
        """A host's load value with its adjustments, or None when not reported."""
        base = self.view.host(host).level.values.get(name)
        if not isinstance(base, float):
            return None
        return base + self.added.get(host, {}).get(name, 0.0)

    def host_load(self, host: str) -> float:
        """The host's ``load_formula`` value (9999 when a value is missing)."""
        base = self.base
        if base is None or host in self.added:
            found = evaluate(self.formula, lambda name: self.value(host, name))
            return ERROR_LOAD if found is None else found
        values = self.view.host(host).level.values
        kept = base.get(id(values))
        if kept is None or kept[0] is not values:
            found = evaluate(self.formula, lambda name: self.value(host, name))
            kept = base[id(values)] = (values, ERROR_LOAD if found is None else found)
        return kept[1]

    def key(self, q: QueueState) -> tuple[float, float, str]:
        """Sort key of a queue instance under ``queue_sort_method`` (kept until its host changes)."""
        shared = self.shared
        adjusted = q.host in self.added
        found = None if adjusted or shared is None else shared.get(q.name)
        if found is None:
            found = self.keys.get(q.name)
        if found is None:
            load = self.host_load(q.host)
            found = (load, q.seq_no, q.name) if self.by_load else (q.seq_no, load, q.name)
            kept = self.kept_keys
            if shared is not None and not adjusted and kept is not None and q.host in kept[0]:
                shared[q.name] = found
            else:
                self.keys[q.name] = found
        return found

    def _kept_keys(self) -> dict[str, tuple[float, float, str]] | None:
        """The sort keys kept from earlier passes, without those of a host whose level
        changed since (its load did): all hosts are looked at the first time, then those
        the view's keeper names as changed."""
        if self.kept_keys is None:
            return None
        seen, keys, log = self.kept_keys
        moved: set[str] = set()
        user = f"load keys {self.view.load_formula} {self.view.queue_sort}"
        names = changes(kept_for(self.view), "host", user)
        hosts = self.view.hosts
        look = hosts if names is None or not seen else [h for h in names if h in hosts]
        for host in look:
            values = hosts[host].level.values
            if seen.get(host) is not values:
                if host in seen:
                    moved.add(host)
                seen[host] = values
                for name in self.on_host.get(host, ()):
                    keys.pop(name, None)
        if names is not None:
            names.clear()
        log.add(moved)
        return keys

    @property
    def log(self) -> KeyLog | None:
        """The log of hosts whose sort keys changed between passes, when the keys are
        kept and no job load adjustment makes them change within a pass."""
        if self.kept_keys is None or self.adjustments or self.added:
            return None
        return self.kept_keys[2]

    def decaying(self, dropped: Mapping[str, Reason], queues: Mapping[str, QueueState]) -> bool:
        """Some queue instance is ``dropped`` for load alarm on a host whose load carries
        job load adjustments, which decay: a later pass may find it open."""
        return any(
            r.code == "overloaded" and self.added.get(queues[name].host)
            for name, r in dropped.items()
        )

    def alarm(self, q: QueueState) -> Reason | None:
        """Why the queue instance is in load alarm (a threshold passed), or None (kept
        with the host's values it was worked out from while no adjustment applies and
        no threshold is a consumable)."""
        alarms = self.alarms
        if alarms is None or q.host in self.added or self.consumable_alarm(q):
            return self._alarm(q)
        values = self.view.host(q.host).level.values
        kept = alarms.get(q.name)
        if kept is None or kept[0] is not values:
            kept = alarms[q.name] = (values, self._alarm(q))
        return kept[1]

    def consumable_alarm(self, q: QueueState) -> bool:
        """Some ``load_thresholds`` of the instance names a consumable (its alarm follows
        the bookings: looked at anew, and again after each dispatch)."""
        found = self._consumable.get(q.load_thresholds)
        if found is None:
            found = self._consumable[q.load_thresholds] = names_consumable(
                self.view.complexes, q.load_thresholds
            )
        return found

    def _alarm(self, q: QueueState) -> Reason | None:
        levels = (self.view.global_level, self.view.host(q.host).level, q.queue_level)
        found = load_alarm(
            self.view.complexes,
            q.load_thresholds,
            lambda n: self.value(q.host, n),
            lambda n: consumable_left(levels, n),
        )
        if found is None:
            return None
        name, text, detail = found
        return Reason("overloaded", "queue", q.name, name, text, detail)


def names_consumable(table: ComplexTable, thresholds: Iterable[tuple[str, str]]) -> bool:
    """Some of the thresholds is a consumable."""
    return any(
        (entry := table.get(name)) is not None and entry.consumable is not Consumable.NO
        for name, _ in thresholds
    )


def consumable_left(levels: Iterable[Level], name: str) -> float | None:
    """What is left of a consumable for a queue instance: the least of what its levels
    that hold it have left (None: none holds it)."""
    found = [level.available(name) for level in levels if name in level.capacity]
    return min(found) if found else None


def passed_thresholds(
    table: ComplexTable,
    thresholds: Iterable[tuple[str, str]],
    value: Callable[[str], float | None],
    left: Callable[[str], float | None] | None = None,
) -> Iterator[tuple[ComplexEntry, str, float | None]]:
    """Each of a queue's ``load_thresholds`` its load passes, as (complex, threshold text,
    load); a value not reported raises no alarm. A number is in alarm when ``load relop
    threshold`` holds (load_check_alarm(): np_load_avg ``>=`` 1.75 at 1.75), a string
    when it differs. A consumable is judged by what is ``left`` of it, and only when
    ``left`` is given; one that no level (global, host, queue) defines is in alarm with
    no load (None), as sge_load_alarm() finds no attribute for it."""
    for name, text in thresholds:
        entry = table.get(name)
        if entry is None:
            continue
        consumable = entry.consumable is not Consumable.NO
        if consumable and left is None:
            continue
        load = left(entry.name) if consumable and left is not None else value(entry.name)
        if load is None:
            if consumable:
                yield entry, text, None
            continue
        try:
            threshold = entry.parse(text)
        except ValueParseError:
            continue
        if isinstance(threshold, str):  # a string differs from the threshold
            if not satisfies(entry.type, entry.relop, threshold, load):
                yield entry, text, load
        elif satisfies(entry.type, entry.relop, load, threshold):
            yield entry, text, load


def load_alarm(
    table: ComplexTable,
    thresholds: Iterable[tuple[str, str]],
    value: Callable[[str], float | None],
    left: Callable[[str], float | None] | None = None,
) -> tuple[str, str, str] | None:
    """The first of a queue's ``load_thresholds`` its load passes, as (name, threshold,
    ``name=value relop threshold``), or None. ``qstat`` shows the alarm state ``a``
    with the same test. A threshold no complex defines (``-Mc`` may remove a complex
    only thresholds name, as centry_is_referenced() allows) and a consumable no level
    defines are alarms, as sge_load_alarm() finds no attribute for them: Grid Engine's
    ``no such complex attribute for threshold "name"``.
    """
    for name, text in thresholds:
        if table.get(name) is None:
            return name, text, f'no such complex attribute for threshold "{name}"'
        for entry, _, load in passed_thresholds(table, ((name, text),), value, left):
            if load is None:
                return entry.name, text, f'no such complex attribute for threshold "{name}"'
            return entry.name, text, f"{entry.name}={load:f} {entry.relop.value} {text}"
    return None
