"""The scheduling pass: a pure function of (view, now) that returns a :class:`Plan`.

Jobs go in Grid Engine's priority order (POSIX priority, urgency and tickets,
normalised and weighted: :mod:`schedd.order`), then by submission time and id. For each
job the category (see :mod:`schedd.categories`) gives the queue instances
that are statically possible, in preference order; the pass takes the first
one with room at every level (global, host, queue) — or, for a parallel job,
spreads its slots by the PE's allocation rule — books the consumables, and
moves on. A job that cannot start keeps its category's reasons; if it asked
for a reservation (``-R y``) and ``max_reservation`` allows, it gets the
earliest start at which it fits, and later jobs only backfill around it.
"""

from __future__ import annotations

from qmaster.complexes.levels import Level
from schedd.candidates import resort
from schedd.categories import Category, CategoryCache
from schedd.dropped import Dropped, wanted_slots
from schedd.earliest import earliest, reserved
from schedd.kept import by_name, compiled_requests
from schedd.limits import Limits
from schedd.load import LoadModel
from schedd.matching import (
    BIG,
    apply,
    debits,
    room,
    room_reason,
)
from schedd.merge import merged_order
from schedd.order import dispatch_order
from schedd.pe import Assignment, Spread
from schedd.pe_pass import try_pe
from schedd.reasons import Reason, ReasonList
from schedd.requests import Req, duration
from schedd.reservation import Planner
from schedd.view import JobRequest, Order, Plan, QueueState, Reservation, View


class _Pass:
    """The state of one pass: the view it books into, the cache, the planner."""

    def __init__(self, view: View, now: float, cache: bool) -> None:
        self.view = view
        self.now = now
        self.plan = Plan()
        self.load = LoadModel(view, now)
        self.queues = view.queues  # in the view's order: each category sorts its own by load
        self.by_name = by_name(view)
        self.cats = CategoryCache(
            view, self.queues, enabled=cache, order=self.load.key, log=self.load.log
        )
        wants = view.max_reservation > 0 and any(j.reserve for j in view.jobs)
        wants = wants or bool(view.advance)
        self.planner = Planner(view, now) if wants else None
        self.reservations_left = view.max_reservation
        self.limits = Limits(view)
        self.why = view.job_info  # collect why jobs wait (off: schedd_job_info false)
        self.drop = Dropped(
            view, self.by_name, self.load.alarm, self.load.key, self.why, self.load.consumable_alarm
        )
        self._looked: tuple[int, int] | None = None
        """The orders and reservations left when :meth:`over` last looked."""
        self.quota = view.quota  # resource quota limits (None: no enabled set)
        self._plain: bool | None = None
        """Every job's slots each ask for a ``slots`` (read once, when first needed)."""

    def finish(self) -> None:
        """Add the queue instances found full to every pending job's reasons."""
        if not self.why:
            return
        full = tuple(self.drop.reasons.values())
        for reasons in {id(r): r for r in self.plan.reasons.values()}.values():
            reasons.add_all(full)
            if not reasons:
                reasons.add(Reason("no_queue", "job", ""))

    def failed(self, job: JobRequest, exc: Exception) -> None:
        """Keep a job whose matching raised pending, with the fault as its reason."""
        self.plan.failed[job.job_id] = f"{type(exc).__name__}: {exc}"
        self.plan.reasons[job.job_id] = ReasonList(
            [Reason("failed", "job", str(job.job_id), offered=str(exc))]
        )

    def over(self) -> bool:
        """No job the pass has yet to reach can start or get a reservation: every
        one would be refused as too wide (:meth:`Dropped.none_free`), so the rest of
        the walk would only note why they wait, which nobody reads (``why`` false).
        Looked at again only after a booking or reservation (nothing else changes
        what is free); the jobs are read once, when nothing is."""
        if self.why or (self.planner is not None and self.reservations_left > 0):
            return False
        mark = (len(self.plan.orders), self.reservations_left)
        if mark == self._looked:
            return False
        self._looked = mark
        if not self.drop.none_free(self.planner):
            return False
        if self._plain is None:  # a group's jobs share the first's requests
            self._plain = all(_plain(self.view, job) for job in self.view.jobs)
        return self._plain

    # -- one job ----------------------------------------------------------------

    def job(self, job: JobRequest) -> None:
        refused = self.limits.refuse(job)
        if refused is not None:
            self.plan.reasons[job.job_id] = ReasonList([refused])
            return
        tasks, capped = self.limits.tasks(job)
        if tasks and self._refused(job):
            return
        cat = self.cats.category(job)
        if cat.exhausted and not job.reserve:
            self.plan.reasons[job.job_id] = cat.reasons
            return
        if cat.length < 0:
            cat.length = duration(job.hard_resources, self.view.default_duration)
        window = (self.now, self.now + cat.length)
        for at, task_id in enumerate(tasks):
            placed = self.place(job, cat, window, timed=False)
            if placed is None and self.quota is not None and self.quota.noted(self, job, cat):
                return  # the job's own limits: no reservation
            if placed is None:
                self.plan.reasons[job.job_id] = cat.reasons
                # each pending task gets one while reservations are left (scheduler.c)
                for waiting in tasks[at:]:
                    if not self.reserve(job, cat, waiting, window[1] - window[0]):
                        break
                return
            self.book(job, cat, task_id, placed, window)
            self.limits.started(job)
        if capped is not None:
            self.plan.reasons[job.job_id] = ReasonList([capped])

    def _refused(self, job: JobRequest) -> bool:
        """A known category's job wider than all hosts' free slots, refused before the
        pass copies the category (exhausted, as placing it would leave it). With a
        planner only once no job may get a reservation: a reservation's search needs
        the category's instances, which the refused category does not take.

        A ``-R y`` job is refused by its requests alone, known category or not: its
        group is read to its end whatever its category (:mod:`schedd.merge`), and a
        later job of the category is refused alike (what is free only shrinks in a
        pass); the reasons it would note nobody reads (``why`` false)."""
        if self.why or (self.planner is not None and self.reservations_left > 0):
            return False
        end = self.now
        if self.planner is not None:
            end += duration(job.hard_resources, self.view.default_duration)
        if job.reserve:  # its group is read to its end: nothing asks for its category
            compiled = compiled_requests(self.view, job)
            return self.drop.too_wide(compiled, wanted_slots(job), self.planner, (self.now, end))
        key = self.cats.key(job)
        made = self.cats.known(job, key)
        if made is None:
            return False
        if not self.drop.too_wide(made.compiled, wanted_slots(job), self.planner, (self.now, end)):
            return False
        self.plan.reasons[job.job_id] = self.cats.exhaust(job, made, key).reasons
        return True

    def place(
        self,
        job: JobRequest,
        cat: Category,
        window: tuple[float, float],
        *,
        timed: bool,
        among: list[QueueState] | None = None,
    ) -> tuple[Assignment, str | None] | None:
        """Where the job goes now (or, ``timed``, over ``window``: then only ``among``
        the category's instances when given, those the others' lack of room leaves)."""
        if cat.exhausted and not timed:
            return None
        g, limit = self._room(cat, self.view.global_level, window, timed)
        if g < 1:
            if not timed:
                assert limit is not None
                if self.why:
                    cat.note(room_reason(limit, self.view.global_level))
                cat.exhausted = True
            return None
        quiet = not timed and not self.why  # no walk would find more
        if quiet and self.drop.too_wide(cat.compiled, wanted_slots(job), self.planner, window):
            cat.exhausted = True
            return None
        if self.quota is not None and not timed:
            return self.quota.place(self, job, cat, window, g)
        if job.pe_name:
            return self.place_pe(job, cat, window, g, timed, among)
        found = self.place_serial(cat, window, timed, among)
        return (found, None) if found else None

    def _room(
        self, cat: Category, level: Level, window: tuple[float, float], timed: bool
    ) -> tuple[int, Req | None]:
        return room(cat.compiled, level, planner=self.planner, window=window, timed=timed)

    def fits(
        self,
        cat: Category,
        q: QueueState,
        window: tuple[float, float],
        timed: bool,
        master: bool = True,
    ) -> int:
        """Slots ``q`` can take now (or in ``window``), noting why when none."""
        host = self.view.hosts.get(q.host)
        for level in (host.level if host else self.view.host(q.host).level, q.queue_level):
            n, limit = room(
                cat.compiled, level, master=master, planner=self.planner, window=window, timed=timed
            )
            if n < 1:
                if not timed and limit is not None and self.why:
                    cat.note(room_reason(limit, level))
                return 0
        return BIG

    def place_serial(
        self,
        cat: Category,
        window: tuple[float, float],
        timed: bool,
        among: list[QueueState] | None = None,
    ) -> Assignment | None:
        if timed:
            static = cat.static if among is None else among
            q = next((q for q in static if self.fits(cat, q, window, True)), None)
            return [(q, 1)] if q else None
        self._resort(cat)
        candidates = cat.candidates
        full, nofree = self.drop.full, self.drop.nofree  # dropped for every job
        i = cat.start
        while i < len(candidates):
            q = candidates[i]
            if q.name not in nofree and q.name not in full and self.fits(cat, q, window, False):
                cat.start = i
                return [(q, 1)]
            i += 1
        cat.start = i
        cat.exhausted = True
        return None

    def _resort(self, cat: Category) -> None:
        """Put the candidates in load order again after job load adjustments changed it."""
        resort(cat, self.load)

    # -- parallel jobs --------------------------------------------------------------

    def place_pe(
        self,
        job: JobRequest,
        cat: Category,
        window: tuple[float, float],
        g: int,
        timed: bool,
        among: list[QueueState] | None = None,
    ) -> tuple[Assignment, str] | None:
        for pe_name in cat.pes:
            found = try_pe(self, job, cat, pe_name, window, g, timed, among)
            if found is not None:
                return found, pe_name
        if not timed:
            cat.exhausted = True
        return None

    def offers(
        self,
        cat: Category,
        pe_name: str,
        window: tuple[float, float],
        timed: bool,
        enough: int = 0,
        among: list[QueueState] | None = None,
    ) -> tuple[list[tuple[QueueState, int]], dict[str, int]]:
        """The PE's candidates with room, in order, and each host's room. ``enough``: stop
        once the hosts offered give that many slots and none of them could give more.
        ``among``: the timed walk's candidates when not all of the category's."""
        offers: list[tuple[QueueState, int]] = []
        host_room: dict[str, int] = {}
        keep: list[QueueState] = []
        if not timed:
            self._resort(cat)
        candidates = (cat.static if among is None else among) if timed else cat.candidates
        spread = Spread(enough) if enough else None
        for i, q in enumerate(candidates):
            if not timed and self.drop.dropped(q.name):
                continue
            if q.host not in host_room:
                n, limit = room(cat.compiled, self.view.host(q.host).level, master=False,
                                planner=self.planner, window=window, timed=timed)  # fmt: skip
                host_room[q.host] = n
                if n < 1 and not timed and limit is not None and self.why:
                    cat.note(room_reason(limit, self.view.host(q.host).level))
            n, limit = room(cat.compiled, q.queue_level, master=False, planner=self.planner,
                            window=window, timed=timed)  # fmt: skip
            if n < 1 or host_room[q.host] < 1:
                if n < 1 and not timed and limit is not None and self.why:
                    cat.note(room_reason(limit, q.queue_level))
                continue
            keep.append(q)
            if pe_name in q.pe_list:
                offers.append((q, n))
                if spread is not None and spread.add(q.host, n, host_room[q.host]):
                    if not timed and len(keep) <= i:  # else none went: kept as it is
                        cat.candidates = keep + candidates[i + 1 :]
                    return offers, host_room
        if not timed:
            cat.candidates = keep
        return offers, host_room

    # -- booking and reservation ------------------------------------------------------

    def book(
        self,
        job: JobRequest,
        cat: Category,
        task_id: int,
        placed: tuple[Assignment, str | None],
        window: tuple[float, float],
    ) -> None:
        assignment, pe_name = placed
        booked = debits(cat.compiled, self.view, assignment)
        apply(self.view, self.by_name, booked)
        if pe_name is not None:
            total = sum(n for _, n in assignment)
            self.view.pes[pe_name].used += total
            booked += (("pe", pe_name, "slots", float(total)),)
        if self.planner is not None:
            self.planner.add(booked, window[0], window[1])
        for q, _ in assignment:
            self.drop.check(q)
        if self.drop.watch:
            self.drop.rewatch()
        self.drop.booked([q.host for q, _ in assignment])
        self.load.dispatched(assignment)
        slots = tuple((q.name, n) for q, n in assignment)
        self.plan.orders.append(Order(job.job_id, task_id, slots, booked, pe_name))

    def reserve(self, job: JobRequest, cat: Category, task_id: int, length: float) -> bool:
        if not job.reserve or self.planner is None or self.reservations_left <= 0:
            return False

        def place(
            window: tuple[float, float], among: list[QueueState] | None
        ) -> tuple[Assignment, str | None] | None:
            return self.place(job, cat, window, timed=True, among=among)

        found = earliest(self.planner, self.view, job, cat, length, place)
        if found is not None:
            window, placed = found
            self.planner.add(reserved(self.view, cat, placed), *window, reserve=True)
            slots = tuple((q.name, n) for q, n in placed[0])
            self.plan.reservations.append(Reservation(job.job_id, task_id, *window, slots))
            self.reservations_left -= 1
        return found is not None


def _plain(view: View, job: JobRequest) -> bool:
    """Each of the job's slots asks for a ``slots`` and it wants one or more (False when
    its requests do not resolve: its pass finds out)."""
    try:
        return wanted_slots(job) >= 1 and compiled_requests(view, job).slots_each
    except Exception:  # as the pass's own walk would meet it
        return False


def schedule(view: View, now: float, *, cache: bool = True) -> Plan:
    """Place pending tasks by priority and submission order; say why the rest wait.

    ``cache=False`` evaluates every job from scratch (for comparison and the
    benchmark); the orders are the same.
    """
    if view.groups is not None and not cache:  # every job, the slow way
        view.jobs = [job for g in view.groups for job in (g.first, *g.rest)]
        view.groups = None
    run = _Pass(view, now, cache)
    grouped = view.groups is not None
    order = merged_order(view, run.cats, run.plan) if grouped else dispatch_order(view, now)
    for job in order:
        if run.over():
            break
        try:
            run.job(job)
        except Exception as exc:  # one job's fault must not stop the pass
            run.failed(job, exc)
    run.finish()
    run.plan.load_decaying = run.load.decaying(run.drop.alarmed, run.by_name)
    run.plan.stats = {
        "category_hits": run.cats.hits,
        "category_misses": run.cats.misses,
        "dispatched": len(run.plan.orders),
        "pending_jobs": len(run.plan.reasons),
        "reservations": len(run.plan.reservations),
        "groups_skipped": len(run.plan.skipped),
    }
    return run.plan
