"""Keeping a category's candidate queue instances in load order as loads change.

A sort key names its queue instance, so the order is total: an order put right
by moving the instances of the hosts whose keys changed is the one a full sort
gives.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from schedd.kept import KeyLog, kept_for
from schedd.load import LoadModel
from schedd.view import QueueState, View

if TYPE_CHECKING:
    from schedd.categories import Category
    from schedd.groups import Groups

ORDERS_ROOM = 1000
"""Orders of fitting groups a :class:`Groups` keeps (emptied beyond this)."""


def resort(cat: Category, load: LoadModel) -> None:
    """Put a category's candidates in load order again after job load adjustments
    changed it within a pass.

    Candidates before ``cat.start`` had no room and never will in this pass, so
    they go; the queue instances of hosts whose load changed move to their place.
    """
    if cat.sorted_at == load.version:
        return
    del cat.candidates[: cat.start]
    cat.start = 0
    hosts = load.changed_since(cat.sorted_at)
    cat.sorted_at = load.version
    rank = cat.soft_rank
    key = (lambda q: (rank.get(q.name, 0), load.key(q))) if rank else load.key
    moved = [q for q in cat.candidates if q.host in hosts]
    if len(moved) * 8 > len(cat.candidates):
        cat.candidates.sort(key=key)
        return
    kept = [q for q in cat.candidates if q.host not in hosts]
    for q in moved:
        insort(kept, q, key=key)
    cat.candidates = kept


def reordered(
    queues: list[QueueState],
    moved: set[str] | None,
    order: Callable[[QueueState], tuple[float, float, str]],
) -> list[QueueState]:
    """``queues`` (sorted by ``order`` but for the instances on ``moved`` hosts, or in
    no known order when None) sorted again: the moved ones put back in their place.
    The keys name the instance, so the order is the one a full sort gives."""
    if not moved:
        return queues if moved is not None else sorted(queues, key=order)
    shifted = [q for q in queues if q.host in moved]
    if not shifted:  # none of these moved: the same order (not a second walk to copy it)
        return queues
    if len(shifted) * 8 > len(queues):
        return sorted(queues, key=order)
    out = [q for q in queues if q.host not in moved]
    for q in shifted:
        insort(out, q, key=order)
    return out


def in_load_order(
    view: View,
    queues: Sequence[QueueState],
    log: KeyLog,
    order: Callable[[QueueState], tuple[float, float, str]],
) -> list[QueueState]:
    """``queues`` (the view's) in load order, kept in ``view.kept`` from pass to pass: the
    instances of the hosts whose sort keys changed since (``log``) are moved."""
    kept = kept_for(view)
    found = kept.get("in_order") if kept is not None else None
    if isinstance(found, tuple) and found[0] is log:
        ordered: list[QueueState] = found[2]
        if found[1] != log.version:
            ordered = reordered(ordered, log.since(found[1]), order)
    else:
        ordered = sorted(queues, key=order)
    if kept is not None:
        kept["in_order"] = (log, log.version, ordered)
    return ordered


def fitting_in_order(
    groups: Groups,
    parts: list[list[int]],
    queues: Sequence[QueueState],
    every: Callable[[], Sequence[QueueState]],
    log: KeyLog,
    order: Callable[[QueueState], tuple[float, float, str]],
) -> list[QueueState]:
    """The members of ``parts`` (groups of ``groups``, or their members a ``-q`` names) in
    load order: taken from ``every`` instance in that order the first time, then kept
    with the groups for the next categories of the same parts, and put in order again
    by moving the instances of the hosts whose keys changed since."""
    key = tuple(map(id, parts))
    found = groups.orders.get(key)
    same = found is not None and found[0] is log and len(found[3]) == len(parts)
    if found is not None and same and all(a is b for a, b in zip(found[3], parts, strict=True)):
        ordered: list[QueueState] = found[2]
        if found[1] != log.version:
            ordered = reordered(ordered, log.since(found[1]), order)
    else:
        chosen = {id(queues[i]) for part in parts for i in part}
        ordered = [q for q in every() if id(q) in chosen]
        if len(groups.orders) >= ORDERS_ROOM:
            groups.orders.clear()
    groups.orders[key] = (log, log.version, ordered, parts)
    return ordered
