"""What a pass drops for every job: queue instances in load alarm or without a free
slot, and the free slots of all hosts together (no parallel job gets more).

Both are kept from pass to pass where the view's keeper names what changed
(:mod:`schedd.kept`); a pass copies the set and books its own dispatches into
the copy. The reasons of the dropped instances (for ``qstat -j``) are spelt out
only when someone reads them: in load order, then as the pass finds them full.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping

from qmaster.complexes.levels import HOST, Level
from schedd.freeslots import FreeSlots, free_slots
from schedd.kept import no_free_slot, with_thresholds
from schedd.reasons import Reason
from schedd.requests import Compiled
from schedd.reservation import Planner
from schedd.view import JobRequest, QueueState, View

_EPS = 1e-9


def slot_reason(q: QueueState) -> Reason:
    """Why a queue instance without a free slot is dropped."""
    empty = q.queue_level.capacity.get("slots", 0.0) < 1
    return Reason("no_slots" if empty else "full", "queue", q.name, "slots")


class Dropped:
    """The queue instances dropped in one pass, and the hosts' free slots."""

    def __init__(
        self,
        view: View,
        queues: Mapping[str, QueueState],
        alarm: Callable[[QueueState], Reason | None],
        order: Callable[[QueueState], tuple[float, float, str]],
        why: bool,
        consumable: Callable[[QueueState], bool] = lambda _q: False,
    ) -> None:
        self.view = view
        self.why = why
        self.alarm = alarm
        nofree = no_free_slot(view)
        if nofree is None:
            nofree = {q.name for q in view.queues if q.queue_level.available("slots") < 1}
        self.alarmed: dict[str, Reason] = {}
        self.watch: list[QueueState] = []
        """The instances not in alarm whose thresholds name a consumable: a dispatch may
        put them in alarm (:meth:`rewatch`)."""
        for q in with_thresholds(view):
            found = alarm(q)
            if found is not None:
                self.alarmed[q.name] = found
            elif consumable(q):
                self.watch.append(q)
        self.nofree = nofree
        """The queue instances without a free slot as the pass began: the set kept from
        pass to pass (not copied, as nothing changes it during a pass: read only here)."""
        self.full: set[str] = set(self.alarmed)
        """The other queue instances dropped for every job of the pass: in load alarm, or
        found without a free slot as the pass books (:meth:`dropped` asks both sets)."""
        self.reasons: dict[str, Reason] = {}
        """Why each of those dropped was, in load order then as found (when ``why``)."""
        if why:
            for name in sorted(nofree | self.full, key=lambda n: order(queues[n])):
                self.reasons[name] = self.alarmed.get(name) or slot_reason(queues[name])
        self.slots = free_slots(view)  # kept: this pass's bookings go to the two below
        self.slots_total = self.slots.total
        self.slots_booked: dict[str, int | None] = {}
        self.held: list[tuple[str, Level]] = []
        """The hosts whose ``slots`` a reservation holds, as of ``held_at`` reserved keys."""
        self.held_at = 0
        self.held_names: set[str] = set()
        """The names of the ``held`` hosts."""
        self.held_bookings = 0
        """Counts the pass's bookings on ``held`` hosts (their free slots changed)."""
        self.from_now: tuple[tuple[int, int, int], list[float], list[int]] | None = None
        """What the held hosts offer beyond their free slots, per window end from now
        (:meth:`_held_from_now`), and the bookings and reserved keys it holds for."""

    def dropped(self, name: str) -> bool:
        """The queue instance is dropped for every job of the pass."""
        return name in self.nofree or name in self.full

    def check(self, q: QueueState) -> None:
        """A queue instance without a free slot is dropped for every job of the pass."""
        if q.queue_level.available("slots") < 1 and not self.dropped(q.name):
            self.full.add(q.name)
            if self.why:
                self.reasons[q.name] = slot_reason(q)

    def rewatch(self) -> None:
        """After a dispatch, the watched instances whose consumable thresholds the pass's
        bookings passed are dropped for the jobs after it (sge_load_list_alarm())."""
        for q in self.watch:
            found = None if self.dropped(q.name) else self.alarm(q)
            if found is not None:
                self.alarmed[q.name] = found
                self.full.add(q.name)
                if self.why:
                    self.reasons[q.name] = found

    def booked(self, hosts: list[str]) -> None:
        """The pass booked slots on these hosts: their free slots count no more."""
        if not self.held_names.isdisjoint(hosts):
            self.held_bookings += 1
        for host in dict.fromkeys(hosts):
            before = self.slots_booked.get(host, self.slots.per_host.get(host))
            now = self.slots_booked[host] = FreeSlots.free(self.view, host)
            if before is not None and now is not None:
                self.slots_total += now - before

    def too_wide(
        self,
        compiled: Compiled,
        wanted: int,
        planner: Planner | None = None,
        window: tuple[float, float] = (0.0, 0.0),
    ) -> bool:
        """Fewer slots free on all hosts together than the job wants (a parallel job) or
        none free (a serial one): no host's room is more than its free slots when each
        slot asks for at least one ``slots``, so no walk over the candidates could place
        it.

        With a planner, a host whose ``slots`` a reservation holds offers a job starting
        now what the planner leaves free over the job's ``window`` instead (its room
        counts that, not the free slots): the sum takes that for those hosts.
        """
        if self.slots.unbounded or (planner is None and self.slots_total >= wanted):
            return False
        if not compiled.slots_each:
            return False
        total = self.slots_total
        if planner is not None and window[0] == planner.now:
            more = self._held_from_now(planner, window[1])
            if more is None:
                return False
            total += more
        elif planner is not None:
            for host, level in self._held(planner):
                free = self.slots_booked.get(host, self.slots.per_host.get(host))
                if free is None:
                    return False
                left = planner.available(level, "slots", *window)
                total += max(0, int(left + _EPS)) - free
        return total < wanted

    def none_free(self, planner: Planner | None) -> bool:
        """No job each of whose slots asks for a ``slots`` can start now, whatever its
        length: :meth:`too_wide` refuses every such job wanting one slot or more (the
        free slots of all hosts, with what the planner leaves the held hosts over the
        shortest window from now, the most it leaves them, are fewer than one)."""
        if self.slots.unbounded:
            return False
        total = self.slots_total
        if planner is not None:
            if self._held_from_now(planner, planner.now) is None:
                return False
            assert self.from_now is not None
            total += max(self.from_now[2])
        return total < 1

    def _held_from_now(self, planner: Planner, end: float) -> int | None:
        """The sum over the held hosts of what the planner leaves them over ``[now, end)``
        less their free slots (None: a host without a count). A step function of
        ``end`` with steps where a booking of a held host starts after now: worked out
        again only when what it reads changed (a booking of the pass on a held host, a
        planner booking into a reserved key, more reserved keys), else looked up."""
        stamp = (self.held_bookings, planner.reserved_adds, len(planner.reserved))
        if self.from_now is None or self.from_now[0] != stamp:
            held = [(h, lv, planner.steps((lv.kind, lv.name, "slots"))) for h, lv in self._held(planner)]  # fmt: skip
            cuts = sorted({t for _, _, (starts, _) in held for t in starts})
            sums: list[int] = []
            for i in range(len(cuts) + 1):
                total = 0
                for host, level, (starts, peaks) in held:
                    free = self.slots_booked.get(host, self.slots.per_host.get(host))
                    if free is None:
                        return None
                    left = (
                        level.capacity["slots"]
                        - peaks[bisect_right(starts, cuts[i - 1]) if i else 0]
                    )
                    load = level.load_cap.get("slots")
                    left = left if load is None or load > left else load
                    total += max(0, int(left + _EPS)) - free
                sums.append(total)
            self.from_now = (stamp, cuts, sums)
        _, cuts, sums = self.from_now
        return sums[bisect_left(cuts, end)]

    def _held(self, planner: Planner) -> list[tuple[str, Level]]:
        """The counted hosts whose ``slots`` a reservation holds (the planner's reserved
        keys only grow during a pass: worked out again when there are more)."""
        if self.held_at != len(planner.reserved):
            self.held_at = len(planner.reserved)
            self.held = []
            self.held_names = set()
            for kind, name, attr in planner.reserved:
                state = self.view.hosts.get(name)
                if kind != HOST or attr != "slots" or state is None:
                    continue
                if name in self.slots.per_host and planner.affects(state.level, "slots"):
                    self.held.append((name, state.level))
                    self.held_names.add(name)
        return self.held


def wanted_slots(job: JobRequest) -> int:
    """The fewest slots the job can run with (what :meth:`Dropped.too_wide` compares)."""
    return job.pe_min if job.pe_name else 1
