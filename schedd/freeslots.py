"""Each host's free ``slots`` and their sum, kept between passes (``View.kept``) and
brought up to date for the hosts whose levels changed: a pass refuses a parallel job
wider than the sum without offering it every instance (:mod:`schedd.dropped`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from schedd.kept import _pending, changes, kept_for
from schedd.view import View

_EPS = 1e-9


class FreeSlots:
    """The free ``slots`` of every host with a queue instance, and their sum: no parallel
    job gets more slots than that (each host's room is at most its free slots), so a
    pass refuses a wider one without offering it every instance.

    ``unbounded`` counts the hosts without a ``slots`` capacity (the sum bounds nothing
    while there is one).
    """

    def __init__(self, view: View) -> None:
        self.per_host: dict[str, int | None] = {}
        self.total = 0
        self.unbounded = 0
        for host in dict.fromkeys(q.host for q in view.queues):
            self.update(view, host)

    @staticmethod
    def free(view: View, host: str) -> int | None:
        """The host's free slots as a pass counts them (None: no limit)."""
        state = view.hosts.get(host)
        if state is None or "slots" not in state.level.capacity:
            return None
        return max(0, int(state.level.available("slots") + _EPS))

    def update(self, view: View, host: str) -> int:
        """Take in the host's free slots now; the change of ``total``."""
        before = self.per_host.get(host, 0)
        if host not in self.per_host:
            before = 0
        elif before is None:
            self.unbounded -= 1
            before = 0
        now = self.free(view, host)
        self.per_host[host] = now
        if now is None:
            self.unbounded += 1
            now = 0
        self.total += now - before
        return now - before


def free_slots(view: View) -> FreeSlots:
    """The hosts' free slots at the start of a pass: kept and brought up to date for
    the hosts changed since, when the view's keeper names them; else worked out now."""
    kept = kept_for(view)
    changed = changes(kept, "host", "free_slots")
    if kept is None or changed is None:
        return FreeSlots(view)
    found = kept.get("free_slots")
    if not isinstance(found, FreeSlots):
        found = kept["free_slots"] = FreeSlots(view)
    else:
        for host in changed:
            if host in found.per_host:
                found.update(view, host)
    changed.clear()
    return found


def free_slots_differ(kept: dict[Hashable, Any], view: View) -> bool:
    """The kept free slots, once brought up to date, differ from a count of ``view``'s."""
    found, changed = kept.get("free_slots"), _pending(kept, "host", "free_slots")
    if not isinstance(found, FreeSlots) or kept.get("queues") is not view.queues:
        return False
    want = FreeSlots(view)
    counted = [n for n in found.per_host.values() if n is not None]
    if found.total != sum(counted) or found.unbounded != len(found.per_host) - len(counted):
        return True
    mine = {h: (want.per_host[h] if h in changed else n) for h, n in found.per_host.items()}
    return mine != want.per_host
