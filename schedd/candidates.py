"""Keeping a category's candidate queue instances in load order as loads change.

A sort key names its queue instance, so the order is total: an order put right
by moving the instances of the hosts whose keys changed is the one a full sort
gives.
"""

from __future__ import annotations

from bisect import bisect_left, insort
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
    The list is made anew, never changed in place: a category's candidates start as
    the list its kept template and the other categories of its groups share.
    """
    if cat.sorted_at == load.version:
        return
    cat.candidates = cat.candidates[cat.start :]
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


Key = tuple[float, float, str]


class KeptOrder:
    """Queue instances kept in load order from pass to pass, each with the sort key it
    was put in place by: the instances of the hosts whose keys changed since are found
    by their old keys and moved to their new ones, without a walk over the others.

    The keys name their instance, so they are all different and the order is the one
    a full sort by the current keys gives (:func:`order_differs` checks it).
    """

    __slots__ = ("items", "keys", "log", "on_host", "placed", "version")

    def __init__(self, items: list[QueueState], order: Callable[[QueueState], Key],
                 log: KeyLog) -> None:  # fmt: skip
        """``items``: in load order by ``order`` at ``log``'s version."""
        self.items = items
        self.keys = [order(q) for q in items]
        self.placed = dict(zip((q.name for q in items), self.keys, strict=True))
        self.on_host: dict[str, list[QueueState]] = {}
        for q in items:
            self.on_host.setdefault(q.host, []).append(q)
        self.log = log
        self.version = log.version

    def current(self, order: Callable[[QueueState], Key]) -> list[QueueState]:
        """The instances in load order now (kept: the caller copies what it changes)."""
        log = self.log
        if self.version == log.version:
            return self.items
        moved = log.since(self.version)
        self.version = log.version
        shifted = None if moved is None else [q for h in moved for q in self.on_host.get(h, ())]
        if shifted is None or len(shifted) * 2 > len(self.items):
            self._sort(order)
            return self.items
        keys, items, placed = self.keys, self.items, self.placed
        for q in shifted:
            old, new = placed[q.name], order(q)
            if new == old:
                continue
            i = bisect_left(keys, old)
            if i == len(items) or items[i] is not q:  # not where its key says: sort all
                self._sort(order)
                return self.items
            del keys[i], items[i]
            i = bisect_left(keys, new)
            keys.insert(i, new)
            items.insert(i, q)
            placed[q.name] = new
        return items

    def _sort(self, order: Callable[[QueueState], Key]) -> None:
        pairs = sorted((order(q), q) for q in self.items)
        self.keys = [k for k, _ in pairs]
        self.items = [q for _, q in pairs]
        self.placed = {q.name: k for k, q in pairs}


def order_differs(kept: KeptOrder, order: Callable[[QueueState], Key]) -> bool:
    """The kept order, once brought up to date, differs from a full sort by ``order``
    (the check of :func:`qmaster.core.schedstate.check_scheduler_caches`)."""
    mine = kept.current(order)
    want = sorted(mine, key=order)
    keys = [order(q) for q in want]
    return mine != want or kept.keys != keys or kept.placed != {q.name: order(q) for q in want}


def in_load_order(
    view: View,
    queues: Sequence[QueueState],
    log: KeyLog,
    order: Callable[[QueueState], Key],
) -> list[QueueState]:
    """``queues`` (the view's) in load order, kept in ``view.kept`` from pass to pass: the
    instances of the hosts whose sort keys changed since (``log``) are moved."""
    kept = kept_for(view)
    found = kept.get("in_order") if kept is not None else None
    if isinstance(found, KeptOrder) and found.log is log:
        return found.current(order)
    made = KeptOrder(sorted(queues, key=order), order, log)
    if kept is not None:
        kept["in_order"] = made
    return made.items


def fitting_in_order(
    groups: Groups,
    parts: list[list[int]],
    queues: Sequence[QueueState],
    every: Callable[[], Sequence[QueueState]],
    log: KeyLog,
    order: Callable[[QueueState], Key],
) -> list[QueueState]:
    """The members of ``parts`` (groups of ``groups``, or their members a ``-q`` names) in
    load order: taken from ``every`` instance in that order the first time, then kept
    with the groups for the next categories of the same parts, and put in order again
    by moving the instances of the hosts whose keys changed since (the list is kept:
    the caller copies it)."""
    key = tuple(map(id, parts))
    found = groups.orders.get(key)
    same = found is not None and found[0].log is log and len(found[1]) == len(parts)
    if found is not None and same and all(a is b for a, b in zip(found[1], parts, strict=True)):
        return found[0].current(order)
    chosen = {id(queues[i]) for part in parts for i in part}
    made = KeptOrder([q for q in every() if id(q) in chosen], order, log)
    if len(groups.orders) >= ORDERS_ROOM:
        groups.orders.clear()
    groups.orders[key] = (made, parts)
    return made.items
