"""What a pass may keep from the previous ones while the view's queue instances stay
the same objects (``View.kept``, the core's kept view): groups of alike instances,
the instances a ``-q`` names, the instances by name and each host's load.

Everything kept is keyed by what it was worked out from; when the view comes with
another list of queue instances (the configuration or an instance's state
changed), all of it is dropped.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from schedd.groups import Groups, _requested_names
from schedd.reasons import Reason
from schedd.requests import Compiled, compile_requests
from schedd.view import JobRequest, QueueState, View

TRACKED = "tracked"
"""Where the keeper of the view (the core's kept view) names, for each user of what is
kept here, the queue instances and hosts whose levels it changed since that user last
looked (what was booked or released there, a host's level built again, what the last
pass booked into the view): each brings what it keeps up to date for those only."""


def track_changes(kept: dict[Hashable, Any]) -> None:
    """Say that the keeper of ``kept`` names the levels it changes (:func:`changed`)."""
    if not isinstance(kept.get(TRACKED), dict):
        kept[TRACKED] = {}


def changed(kept: dict[Hashable, Any], kind: str, names: set[str]) -> None:
    """The keeper changed the levels of these queue instances (``kind`` ``queue``) or
    hosts."""
    if names:
        for (what, _), found in kept[TRACKED].items():
            if what == kind:
                found.update(names)


def changes(kept: dict[Hashable, Any] | None, kind: str, user: str) -> set[str] | None:
    """The names of ``kind`` changed since ``user`` last emptied the set (empty at first,
    when the user works everything out); None when the keeper does not track changes."""
    tracked = kept.get(TRACKED) if kept is not None else None
    if not isinstance(tracked, dict):
        return None
    found = tracked.get((kind, user))
    if found is None:
        found = tracked[(kind, user)] = set()
    assert isinstance(found, set)
    return found


def _pending(kept: dict[Hashable, Any], kind: str, user: str) -> set[str]:
    """The changes ``user`` has yet to take in (for the checks: nothing is emptied)."""
    tracked = kept.get(TRACKED)
    found = tracked.get((kind, user)) if isinstance(tracked, dict) else None
    return found if isinstance(found, set) else set()


def kept_for(view: View) -> dict[Hashable, Any] | None:
    """``view.kept``, emptied first when its queue instances are not the ones it kept
    (still tracking changes when it did)."""
    kept = view.kept
    if kept is not None and kept.get("queues") is not view.queues:
        tracked = TRACKED in kept
        kept.clear()
        kept["queues"] = view.queues
        kept["load_names"] = _load_names(view)
        if tracked:
            kept[TRACKED] = {}
    return kept


def no_free_slot(view: View) -> set[str] | None:
    """The names of the view's queue instances without a free slot, kept from pass to
    pass and brought up to date for the instances changed since (None: the view's
    keeper does not track its changes, so the caller works it out)."""
    kept = kept_for(view)
    names = changes(kept, "queue", "no_free")
    if kept is None or names is None:
        return None
    found = kept.get("no_free")
    if not isinstance(found, set):
        found = kept["no_free"] = {
            q.name for q in view.queues if q.queue_level.available("slots") < 1
        }
    else:
        queues = by_name(view)
        for name in names:
            q = queues.get(name)
            if q is not None and q.queue_level.available("slots") < 1:
                found.add(name)
            else:
                found.discard(name)
    names.clear()
    return found


def no_free_differs(kept: dict[Hashable, Any], queues: list[QueueState]) -> bool:
    """The kept instances without a free slot, once brought up to date, differ from
    those of ``queues`` (the same instances, checked against a rebuild)."""
    found, changed = kept.get("no_free"), _pending(kept, "queue", "no_free")
    if not isinstance(found, set) or kept.get("queues") is not queues:
        return False  # worked out afresh at the next pass
    want = {q.name for q in queues if q.queue_level.available("slots") < 1}
    return (found - changed) | (want & changed) != want


def with_thresholds(view: View) -> list[QueueState]:
    """The view's queue instances with ``load_thresholds`` (the only ones that can be in
    load alarm)."""
    kept = kept_for(view)
    found = kept.get("thresholds") if kept is not None else None
    if not isinstance(found, list):
        found = [q for q in view.queues if q.load_thresholds]
        if kept is not None:
            kept["thresholds"] = found
    return found


def access_matters(view: View) -> bool:
    """True when some access list could treat two owners differently."""
    if view.global_user_lists or view.global_xuser_lists:
        return True
    kept = kept_for(view)
    places = kept.get("access_places") if kept is not None else None
    if not isinstance(places, bool):  # the instances' and hosts' lists: kept with the instances
        places = any(q.user_lists or q.xuser_lists for q in view.queues) or any(
            h.user_lists or h.xuser_lists for h in view.hosts.values()
        )
        if kept is not None:
            kept["access_places"] = places
    return places or any(p.user_lists or p.xuser_lists for p in view.pes.values())


def by_name(view: View) -> dict[str, QueueState]:
    """The view's queue instances by name."""
    kept = kept_for(view)
    found = kept.get("by_name") if kept is not None else None
    if not isinstance(found, dict):
        found = {q.name: q for q in view.queues}
        if kept is not None:
            kept["by_name"] = found
    return found


def named_cache(view: View) -> dict[tuple[str, ...], frozenset[int]]:
    """Where the instances each ``-q`` list names are kept (for this pass when nothing is)."""
    kept = kept_for(view)
    if kept is None:
        return {}
    found = kept.setdefault("named", {})
    assert isinstance(found, dict)
    return found


def kept_groups(view: View) -> Groups:
    """The groups of this pass, kept (for the same attributes requested and the same AR
    queues) unless an attribute they are told apart by is a host load value, which
    changes as jobs start and end."""
    kept = kept_for(view)
    if kept is None:
        return Groups(view, view.queues)
    names = _requested_kept(view, kept)
    if names & kept["load_names"]:
        return Groups(view, view.queues, sorted(names))
    key = ("groups", names, view.ar_queues)
    found = kept.get(key)
    if not isinstance(found, Groups):
        found = kept[key] = Groups(view, view.queues, sorted(names))
    return found


NAMES_ROOM = 10_000
"""Sets of categories whose requested attributes are kept (emptied beyond this)."""


def _requested_kept(view: View, kept: dict[Hashable, Any]) -> frozenset[str]:
    """The attributes the pass's jobs request (see :func:`_requested_names`), kept per set
    of categories: a category names its requests, and the table comes with the instances."""
    cats = frozenset(job.category for job in view.jobs)
    if None in cats:
        return frozenset(_requested_names(view))
    memo = kept.get("requested_names")
    if not isinstance(memo, dict) or len(memo) > NAMES_ROOM:
        memo = kept["requested_names"] = {}
    found = memo.get(cats)
    if found is None:
        found = memo[cats] = frozenset(_requested_names(view))
    assert isinstance(found, frozenset)
    return found


def _load_names(view: View) -> frozenset[str]:
    """The attributes some host offers from its load report (they change with its load)."""
    names: set[str] = set()
    for state in view.hosts.values():
        level = state.level
        names.update(n for n, source in level.sources.items() if source == "l")
        names.update(level.load_cap)
    return frozenset(names)


LOADS_ROOM = 200_000
"""Host values whose ``load_formula`` value is kept (emptied beyond this)."""


def base_loads(view: View) -> dict[int, tuple[object, float]] | None:
    """The ``load_formula`` value without job load adjustments of each host's values seen
    (by their identity, with the values: a host's level is built again when its load
    changes, and shared by the passes that see it as loaded the same)."""
    kept = kept_for(view)
    if kept is None:
        return None
    found = kept.setdefault(("loads", view.load_formula), {})
    assert isinstance(found, dict)
    if len(found) > LOADS_ROOM:
        found.clear()
    return found


def on_host(view: View) -> dict[str, list[str]]:
    """The names of the view's queue instances on each host."""
    kept = kept_for(view)
    found = kept.get("on_host") if kept is not None else None
    if not isinstance(found, dict):
        found = {}
        for q in view.queues:
            found.setdefault(q.host, []).append(q.name)
        if kept is not None:
            kept["on_host"] = found
    return found


def alarms(view: View) -> dict[str, tuple[object, Reason | None]] | None:
    """Each queue instance's load alarm without job load adjustments, with the host's
    values it was worked out from."""
    kept = kept_for(view)
    if kept is None:
        return None
    found = kept.setdefault("alarms", {})
    assert isinstance(found, dict)
    return found


class KeyLog:
    """The hosts whose sort keys changed, pass by pass (the last ``LOG_ROOM`` changes):
    an order of queue instances sorted at ``version`` needs only theirs moved."""

    LOG_ROOM = 256

    def __init__(self) -> None:
        self.base = 0
        self.entries: list[frozenset[str]] = []

    @property
    def version(self) -> int:
        return self.base + len(self.entries)

    def add(self, hosts: set[str]) -> None:
        if hosts:
            self.entries.append(frozenset(hosts))
            if len(self.entries) > self.LOG_ROOM:
                drop = self.LOG_ROOM // 2
                del self.entries[:drop]
                self.base += drop

    def since(self, version: int) -> set[str] | None:
        """The hosts changed after ``version`` (None: too long ago to say)."""
        if version < self.base:
            return None
        return set().union(*self.entries[version - self.base :])


SortKeys = tuple[dict[str, object], dict[str, tuple[float, float, str]], KeyLog]


def sort_keys(view: View) -> SortKeys | None:
    """Each host's values when last seen, the sort keys (without job load adjustments)
    of the queue instances on hosts whose values have not changed since, and the log of
    the hosts whose keys changed."""
    kept = kept_for(view)
    if kept is None:
        return None
    found = kept.setdefault(("keys", view.load_formula, view.queue_sort), ({}, {}, KeyLog()))
    assert isinstance(found, tuple)
    return found


def templates(view: View, names: frozenset[str]) -> dict[Hashable, Any] | None:
    """Where categories are kept as evaluated (before a pass uses them; keyed by their
    key, the attributes requested in the pass and the AR queues), unless an
    attribute the pass requests is a host load value (a category's instances would
    change with the load)."""
    kept = kept_for(view)
    if kept is None or names & kept["load_names"]:
        return None
    return kept


TEMPLATE_ROOM = 1_000_000
"""Queue instances the kept categories may list in all (the oldest go first)."""


def keep_template(kept: dict[Hashable, Any], key: Hashable, made: Any) -> None:
    """Keep a category as evaluated; the oldest are dropped beyond ``TEMPLATE_ROOM``."""
    kept[key] = made
    sizes = kept.get("category_sizes")
    if not isinstance(sizes, OrderedDict):  # the oldest found at once, however many went
        sizes = kept["category_sizes"] = OrderedDict()
    sizes[key] = len(made.static) + 1
    kept["category_room"] = kept.get("category_room", 0) + sizes[key]
    while kept["category_room"] > TEMPLATE_ROOM and sizes:
        oldest, size = sizes.popitem(last=False)
        kept["category_room"] -= size
        kept.pop(oldest, None)


COMPILED_ROOM = 100_000
"""Resolved requests kept from pass to pass (two per category at most; emptied beyond)."""


def compiled_requests(view: View, job: JobRequest, soft: bool = True) -> Compiled:
    """The job's requests resolved against the view's complexes (hard and, with ``soft``,
    soft): once per category while the view keeps its queue instances (the complexes
    come with the configuration, which brings other instances), else now."""
    hard_only = not soft or not job.soft_resources
    parallel = bool(job.pe_name)
    kept = kept_for(view) if job.category is not None else None
    found = kept.get("compiled") if kept is not None else None
    if kept is not None and (not isinstance(found, tuple) or found[0] is not view.complexes):
        found = kept["compiled"] = (view.complexes, {})
    memo: dict[tuple[Hashable, bool], Compiled] = found[1] if found is not None else {}
    key = (job.category, hard_only)
    made = memo.get(key)
    if made is None:
        extra = {} if hard_only else job.soft_resources
        made = compile_requests(view.complexes, job.hard_resources, extra, parallel=parallel)
        if len(memo) >= COMPILED_ROOM:
            memo.clear()
        memo[key] = made
    return made
