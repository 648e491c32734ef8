"""Spreading a parallel job's slots over queue instances by the PE's allocation rule.

Input: the candidate queue instances in preference order, each with the slots
its own consumables allow (``room``), the slots each host's and the global
level's consumables allow, and the PE's free slots. Rules (sge_pe(5)):

- ``$pe_slots``: every slot on one host;
- ``$fill_up``: take all a host offers, then the next host;
- ``$round_robin``: one slot per host in turn, until enough;
- a number ``k``: exactly ``k`` slots on each host used (the slot count a
  multiple of ``k``).

The job gets the largest slot count of its range that fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase

from schedd.view import JobRequest, QueueState, View

Assignment = list[tuple[QueueState, int]]


def _by_host(offers: Sequence[tuple[QueueState, int]]) -> dict[str, list[tuple[QueueState, int]]]:
    hosts: dict[str, list[tuple[QueueState, int]]] = {}
    for q, n in offers:
        if n > 0:
            hosts.setdefault(q.host, []).append((q, n))
    return hosts


def _host_caps(
    hosts: Mapping[str, list[tuple[QueueState, int]]], host_room: Mapping[str, int]
) -> dict[str, int]:
    return {h: min(sum(n for _, n in qs), host_room.get(h, 0)) for h, qs in hosts.items()}


def _take(queues: list[tuple[QueueState, int]], want: int, out: dict[str, int]) -> int:
    """Take up to ``want`` slots from a host's queues in order; return how many."""
    got = 0
    for q, n in queues:
        free = n - out.get(q.name, 0)
        step = min(free, want - got)
        if step > 0:
            out[q.name] = out.get(q.name, 0) + step
            got += step
        if got == want:
            break
    return got


def _assignment(order: Sequence[QueueState], taken: Mapping[str, int]) -> Assignment:
    return [(q, taken[q.name]) for q in order if taken.get(q.name)]


def allocate(
    rule: str,
    n_min: int,
    n_max: int,
    offers: Sequence[tuple[QueueState, int]],
    host_room: Mapping[str, int],
    limit: int,
) -> Assignment | None:
    """The assignment of the most slots in ``[n_min, n_max]`` the rule allows, or None.

    ``limit`` bounds the total (global consumables and the PE's free slots).
    """
    hosts = _by_host(offers)
    caps = _host_caps(hosts, host_room)
    order = [q for q, n in offers if n > 0]
    top = min(n_max, limit, sum(caps.values()))
    if top < n_min:
        return None
    if rule == "$pe_slots":
        return _pe_slots(hosts, caps, n_min, top, order)
    if rule == "$fill_up":
        return _fill_up(hosts, caps, top, order)
    if rule == "$round_robin":
        return _round_robin(hosts, caps, top, order)
    return _fixed(hosts, caps, int(rule), n_min, top, order)


def _pe_slots(
    hosts: Mapping[str, list[tuple[QueueState, int]]],
    caps: Mapping[str, int],
    n_min: int,
    top: int,
    order: Sequence[QueueState],
) -> Assignment | None:
    for host, cap in caps.items():
        if cap >= n_min:
            taken: dict[str, int] = {}
            _take(hosts[host], min(cap, top), taken)
            return _assignment(order, taken)
    return None


def _fill_up(
    hosts: Mapping[str, list[tuple[QueueState, int]]],
    caps: Mapping[str, int],
    top: int,
    order: Sequence[QueueState],
) -> Assignment:
    taken: dict[str, int] = {}
    left = top
    for host, cap in caps.items():
        if left == 0:
            break
        left -= _take(hosts[host], min(cap, left), taken)
    return _assignment(order, taken)


def _round_robin(
    hosts: Mapping[str, list[tuple[QueueState, int]]],
    caps: Mapping[str, int],
    top: int,
    order: Sequence[QueueState],
) -> Assignment:
    taken: dict[str, int] = {}
    used = dict.fromkeys(caps, 0)
    left = top
    while left > 0:
        progress = False
        for host, cap in caps.items():
            if left and used[host] < cap and _take(hosts[host], 1, taken) == 1:
                used[host] += 1
                left -= 1
                progress = True
        if not progress:
            break
    return _assignment(order, taken)


def _fixed(
    hosts: Mapping[str, list[tuple[QueueState, int]]],
    caps: Mapping[str, int],
    per_host: int,
    n_min: int,
    top: int,
    order: Sequence[QueueState],
) -> Assignment | None:
    if per_host <= 0:
        return None
    usable = [h for h, cap in caps.items() if cap >= per_host]
    n = min(top // per_host, len(usable)) * per_host
    if n < n_min or n == 0:
        return None
    taken: dict[str, int] = {}
    for host in usable[: n // per_host]:
        _take(hosts[host], per_host, taken)
    return _assignment(order, taken)


def job_pes(view: View, job: JobRequest) -> tuple[str, ...]:
    """The PEs a job's ``-pe`` pattern names, sorted by name."""
    if not job.pe_name:
        return ()
    return tuple(sorted(n for n in view.pes if fnmatchcase(n, job.pe_name)))


def early_stop(rule: str, timed: bool, why: bool) -> bool:
    """Whether the candidates may be offered only until there are enough (:class:`Spread`):
    ``$fill_up`` takes the first hosts offered, and nobody reads the reasons the
    others would give. ``timed`` (a reservation's placement at a later time) makes no
    difference: the rule takes the first hosts offered then too, and a timed walk notes
    no reasons."""
    return rule == "$fill_up" and not why


class Spread:
    """The slots the hosts offered so far give (``$fill_up``): enough once they give
    ``enough`` and none could give more (each host gives what its own room allows),
    so that the hosts still to come would not change what the rule takes."""

    __slots__ = ("caps", "enough", "open", "queued", "total")

    def __init__(self, enough: int) -> None:
        self.enough = enough
        self.caps: dict[str, int] = {}
        self.queued: dict[str, int] = {}
        self.total = 0
        self.open = 0
        """Hosts whose instances offered less than the host's room (more may follow)."""

    def add(self, host: str, n: int, host_room: int) -> bool:
        """A queue instance of ``host`` offers ``n`` slots; True when there are enough."""
        queued = self.queued[host] = self.queued.get(host, 0) + n
        before = self.caps.get(host)
        cap = self.caps[host] = min(queued, host_room)
        self.total += cap - (before or 0)
        self.open += (cap < host_room) - (before is not None and before < host_room)
        return self.total >= self.enough and not self.open


def master_first(
    offers: Sequence[tuple[QueueState, int]], master: QueueState
) -> list[tuple[QueueState, int]]:
    """The offers with the master's host first and the master first on it.

    Every rule starts on the first host it is offered, so the assignment (in
    offer order) then begins with the master queue if it holds a slot.
    """
    first = [(q, n) for q, n in offers if q is master]
    same_host = [(q, n) for q, n in offers if q.host == master.host and q is not master]
    rest = [(q, n) for q, n in offers if q.host != master.host]
    return first + same_host + rest
