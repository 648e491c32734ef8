"""The earliest-start search's bounds at its first start time, kept from pass to pass.

A pass's first blocked ``-R y`` job is usually the blocked job of the previous
pass too, and the first moment a booking ends usually the same: the search then
works out again, for every candidate host and queue instance, the room it
worked out a pass before, though only the few levels where tasks started or
ended since can differ. A level's room over a window (``timed``) reads the job's
requests, the level's capacity and load values, and the planner's spans on that
level. :class:`FirstBounds` keeps, for one category, PE and length, the bounds
after the search's first settle at one window; a later search at the same window
takes them and works out again only the levels that may have changed since:

- those whose spans the kept running plan replaced (its log of put and drop);
- those whose spans the pass's planner held of its own then or holds now (what
  the pass booked, overdue tasks, advance reservations): not the plan's;
- those the view's keeper changed (``schedd.kept`` tracks them: bookings, a
  host's level built again, what a pass booked into the view); a new
  configuration or queue instance state makes a new kept dict, without them.

The PE's free slots are always worked out again. :func:`first_bounds_differ`
checks the levels not changed since against a rebuild from the kept plan.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from qmaster.complexes.levels import HOST, QUEUE, Level
from schedd.kept import _pending, changes, kept_for
from schedd.matching import room
from schedd.requests import Compiled
from schedd.reservation import Planner, RunningPlan
from schedd.view import View

Window = tuple[float, float]
LevelKey = tuple[str, str]

KEPT_KEY = "earliest_first_bounds"
USER = "earliest"
"""The name under which the search asks the view's keeper what changed."""
KEEP = 4
"""How many categories' first bounds are kept (the blocked jobs of recent passes)."""


@dataclass(slots=True)
class FirstBounds:
    """One category's bounds after its search's first settle at ``window``."""

    window: Window
    compiled: Compiled
    master: bool
    plan: RunningPlan
    mark: int
    """Where the plan's log stood (:meth:`RunningPlan.mark`)."""
    where: dict[LevelKey, str]
    """The levels (kind, name) of the candidate hosts and queue instances, with the host."""
    host_room: dict[str, int]
    queue_room: dict[LevelKey, int]
    queue_sum: dict[str, int]
    cap: dict[str, int]
    total: int
    local: set[LevelKey]
    """The levels whose spans the planner held of its own (not the plan's) then."""
    dirty: set[LevelKey] = field(default_factory=set)
    """The levels the view's keeper changed since."""
    outcome: tuple[Any, tuple[str, ...]] | None = None
    """What the search that made these bounds found (a window and placement, or None),
    with the names of the category's instances in the order it took them: kept when the
    planner held nothing of its own (:func:`schedd.earliest.repeated`)."""


def local_levels(planner: Planner) -> set[LevelKey]:
    """The levels whose spans the planner holds of its own (not the kept plan's)."""
    return {(kind, name) for kind, name, _ in planner.owned}


def kept_bounds(view: View, planner: Planner) -> OrderedDict[Hashable, FirstBounds] | None:
    """The kept first bounds by (category key, PE, length), each told the levels the view's
    keeper changed since; None when nothing can be kept (no keeper that tracks its
    changes, or no kept running plan)."""
    kept = kept_for(view)
    if kept is None or planner.kept is None:
        return None
    hosts, queues = changes(kept, HOST, USER), changes(kept, QUEUE, USER)
    if hosts is None or queues is None:
        return None
    found = kept.get(KEPT_KEY)
    if not isinstance(found, OrderedDict):
        found = kept[KEPT_KEY] = OrderedDict()
    if hosts or queues:
        levels = {(HOST, h) for h in hosts} | {(QUEUE, q) for q in queues}
        for bounds in found.values():
            bounds.dirty |= levels
        hosts.clear()
        queues.clear()
    return found


def changed_since(bounds: FirstBounds, planner: Planner) -> set[LevelKey] | None:
    """The levels whose room may differ from what ``bounds`` holds (None: any may)."""
    plan = planner.kept
    logged = plan.since(bounds.mark) if plan is bounds.plan and plan is not None else None
    if logged is None:
        return None
    return {*bounds.dirty, *logged, *bounds.local, *local_levels(planner)}


def keep(kept: OrderedDict[Hashable, FirstBounds], key: Hashable, bounds: FirstBounds) -> None:
    """Keep ``bounds`` under ``key``, forgetting the longest unused beyond :data:`KEEP`."""
    kept[key] = bounds
    kept.move_to_end(key)
    while len(kept) > KEEP:
        kept.popitem(last=False)


def first_bounds_differ(
    kept: dict[Hashable, Any],
    plan: RunningPlan | None,
    level_of: Callable[[LevelKey], Level | None],
    now: float,
) -> list[str]:
    """Where the kept first bounds of the levels not changed since differ from their rooms
    worked out again on ``plan`` (empty when they agree)."""
    found = kept.get(KEPT_KEY)
    if not isinstance(found, OrderedDict) or plan is None:
        return []
    planner = Planner(View([], [], running_plan=plan), now)
    tracked = {(HOST, h) for h in _pending(kept, HOST, USER)}
    tracked |= {(QUEUE, q) for q in _pending(kept, QUEUE, USER)}
    out: list[str] = []
    for key, b in found.items():
        since = changed_since(b, planner)
        if since is None:
            continue  # not taken again
        since |= tracked
        for level_key, host in b.where.items():
            if level_key in since:
                continue
            level = level_of(level_key)
            if level is None:
                out.append(f"first bounds {key!r}: no level {level_key}")
                continue
            n, _ = room(b.compiled, level, master=b.master, planner=planner, window=b.window,
                        timed=True)  # fmt: skip
            mine = b.queue_room.get(level_key) if level_key[0] == QUEUE else b.host_room.get(host)
            if mine != max(n, 0):
                out.append(f"first bounds {key!r}: {level_key} kept {mine}, rebuilt {max(n, 0)}")
        out += _sums_differ(key, b)
    return out


def _sums_differ(key: Hashable, b: FirstBounds) -> list[str]:
    """The hosts' sums and caps against those worked out from the kept rooms."""
    sums: dict[str, int] = {}
    for level_key, host in b.where.items():
        if level_key[0] == QUEUE:
            sums[host] = sums.get(host, 0) + b.queue_room.get(level_key, 0)
    caps = {
        h: min(sums.get(h, 0), b.host_room.get(h, 0)) if b.host_room.get(h, 0) >= 1 else 0
        for h in {*sums, *b.host_room}
    }
    out = []
    if {h: n for h, n in b.queue_sum.items() if n} != {h: n for h, n in sums.items() if n}:
        out.append(f"first bounds {key!r}: the hosts' queue sums differ from a rebuild")
    if b.total != sum(caps.values()) or any(b.cap.get(h, 0) != n for h, n in caps.items()):
        out.append(f"first bounds {key!r}: the hosts' caps differ from a rebuild")
    return out
