"""The pending jobs a pass walks, kept from pass to pass and grouped by category.

Grid Engine's scheduler gives every job a category at submission and, in a
pass, stops looking at a category once one of its jobs could not be
dispatched. :class:`PendingIndex` keeps the jobs with pending tasks in groups
of interchangeable jobs (same requests, owner, ``-R`` and deadline flags),
each in dispatch order (POSIX priority, submission time, id), so a pass can
merge the groups by priority and drop a whole group once its category is
exhausted (:func:`schedd.merge.merged_order`): it looks at the jobs it
dispatches and at one job per group, not at every pending job.

The index is built at the first pass (and again if ``weight_priority``
changes); after that only the jobs a stimulus touched (every change to a job is spooled, so the spool rows of an
outcome name them: :attr:`Core.sched_touched`) are filed again at the start of
the next pass. Whether a filed job may run *now* (a ``-hold_jid`` predecessor
still there, a ``-a`` time to come) is decided as the pass reaches it.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from qmaster.core.job_priority import deadline_epoch
from qmaster.core.jobs import Job
from qmaster.core.schedjobs import category_of, pending_request
from qmaster.core.taskholds import free_pending
from qmaster.core.view import assemble, build_view, weights
from schedd import JobRequest
from schedd.priority import npprior
from schedd.reasons import ReasonList
from schedd.view import JobGroup, View

if TYPE_CHECKING:
    from qmaster.core.machine import Core

INDEX_KEY = "pending_index"
SortKey = tuple[float, float, int]


def group_key(job: Job) -> Hashable:
    """What puts two jobs in one group: their category, owner, ``-R`` and deadline (as
    their requests would have them, worked out without making the requests)."""
    spec = job.spec
    timed = deadline_epoch(spec.deadline) is not None
    return (category_of(job), job.owner.user, job.owner.group, bool(spec.reserve), timed)


class _Kept(dict[int, tuple[Hashable, SortKey]]):
    """A dict the cyclic collector never untracks (it untracks only exact dicts).

    The places of a million filed jobs are tuples of atoms, which the collector
    untracks; a full collection then untracks a plain dict holding only such
    tuples, and the next job filed (a new, still tracked tuple) tracks it again
    as a *young* object: the following collections of the young generations
    each walked all its entries (30-50 ms at a million, delaying requests) until
    the next full collection untracked it again. Kept tracked, it is frozen
    with the rest of the state (:mod:`qmaster.gcpolicy`) and walked no more.
    """

    __slots__ = ()


class PendingIndex:
    """Jobs with pending tasks, grouped, each group sorted in dispatch order."""

    def __init__(self, core: Core, weight: float, jobs: Iterable[Job] | None = None) -> None:
        self.weight = weight
        self.groups: dict[Hashable, list[SortKey]] = {}
        self.where: dict[int, tuple[Hashable, SortKey]] = _Kept()
        # one object per group key and per priority value, not one per job (~100 bytes
        # a job at a million pending)
        self._keys: dict[Hashable, Hashable] = {}
        self._orders: dict[int, float] = {}
        self._timed = 0
        """How many groups have a deadline (kept as groups come and go, not counted each pass)."""
        self.add_unsorted(core.jobs.values() if jobs is None else jobs)
        self.sort()

    def add_unsorted(self, jobs: Iterable[Job]) -> None:
        """File jobs not filed yet at the ends of their groups (:meth:`sort` puts them in
        order): a build's way, cheaper than :meth:`file` for each."""
        for job in jobs:
            found = self._place(job)
            if found is not None:
                self._members(found[0]).append(found[1])
                self.where[job.job_id] = found

    def sort(self) -> None:
        """Put every group in dispatch order."""
        for members in self.groups.values():
            members.sort()

    def _place(self, job: Job) -> tuple[Hashable, SortKey] | None:
        """The job's group and place in it (None without pending tasks or while held)."""
        if not job.pending or job.verify_wait is not None or job.spec.ar:
            return None
        if job.holds and not free_pending(job):
            return None  # every pending task held
        priority = job.priority
        first = self._orders.get(priority)
        if first is None:
            first = self._orders[priority] = -(self.weight * npprior(priority))
        key = group_key(job)
        return self._keys.setdefault(key, key), (first, job.submit_time, job.job_id)

    def file(self, job: Job) -> None:
        """Put a job where it belongs now."""
        self.drop(job.job_id)
        found = self._place(job)
        if found is not None:
            insort(self._members(found[0]), found[1])
            self.where[job.job_id] = found

    def _members(self, key: Hashable) -> list[SortKey]:
        """The group's sorted members (a new group when there is none)."""
        members = self.groups.get(key)
        if members is None:
            members = self.groups[key] = []
            self._timed += _timed(key)
        return members

    def drop(self, job_id: int) -> None:
        """Take a job out of the index."""
        found = self.where.pop(job_id, None)
        if found is None:
            return
        members = self.groups[found[0]]
        del members[bisect_left(members, found[1])]
        if not members:
            del self.groups[found[0]]
            del self._keys[found[0]]
            self._timed -= _timed(found[0])

    def group_of(self, job_id: int) -> Hashable | None:
        """The key of the job's group, or None when it is not filed."""
        found = self.where.get(job_id)
        return None if found is None else found[0]

    def waiting_group(self, core: Core, now: float) -> Callable[[int], Hashable | None]:
        """:meth:`group_of` for jobs a pass at ``now`` considered (a job still held by a
        predecessor or its ``-a`` time was never in the pass, so has no reasons from it)."""

        def group(job_id: int) -> Hashable | None:
            job = core.jobs.get(job_id)
            if job is None or pending_request(core, job, now, 0) is None:
                return None
            return self.group_of(job_id)

        return group

    @property
    def timed(self) -> bool:
        """Some filed job has a deadline (its urgency grows with time)."""
        return self._timed > 0

    def refresh(self, core: Core) -> None:
        """File again the jobs touched since the last pass."""
        for job_id in core.sched_touched:
            job = core.jobs.get(job_id)
            if job is None:
                self.drop(job_id)
            else:
                self.file(job)
        core.sched_touched.clear()

    def job_groups(self, core: Core, now: float) -> list[JobGroup]:
        """The groups with a job that may run now, each with that job first."""
        out: list[JobGroup] = []
        for key, members in self.groups.items():
            jobs = _requests(core, members, now)
            first = next(jobs, None)
            if first is not None:
                out.append(JobGroup(key, first, jobs, first.reserve))
        return out


def _timed(key: Hashable) -> int:
    """1 for the key of a group of jobs with a deadline (see :func:`group_key`), else 0."""
    return 1 if key[4] else 0  # type: ignore[index]


def _requests(core: Core, members: list[SortKey], now: float) -> Iterator[JobRequest]:
    """The requests of a group's jobs that may run now, in order (read as the pass goes)."""
    jobs = core.jobs
    for order in members:
        job = jobs.get(order[2])
        if job is not None:
            request = pending_request(core, job, now, 0)
            if request is not None:
                yield request


def priority_weight(core: Core) -> float:
    """``weight_priority``: the only setting the order within a group depends on."""
    return float(core.config.sched_conf.attrs["weight_priority"])


def kept_index(core: Core) -> PendingIndex | None:
    """The index the core keeps, if it is still sorted by the configured weight."""
    kept = core.derived.get(INDEX_KEY)
    index = kept[1] if kept is not None else None
    if isinstance(index, PendingIndex) and index.weight == priority_weight(core):
        return index
    return None


def pending_index(core: Core) -> PendingIndex:
    """The core's index with the jobs touched since the last pass filed again; built
    from every job at the first pass and when ``weight_priority`` changes (other
    configuration changes leave groups and order as they are)."""
    index = kept_index(core)
    if index is not None:
        index.refresh(core)
        return index
    weight = priority_weight(core)
    index = PendingIndex(core, weight)
    core.derived[INDEX_KEY] = (weight, index)
    core.sched_touched.clear()
    return index


def uses_index(core: Core) -> bool:
    """Whether a pass reads the jobs from the index (see :func:`pass_view`); worked out once
    per configuration."""
    return core.per_config("uses_index", bool, lambda: _uses_index(core))


def _uses_index(core: Core) -> bool:
    return not (core.config.sched_conf.maxujobs or weights(core).waiting_time)


class IndexBuild:
    """The index built a slice of jobs at a time, for a driver that answers requests
    between slices (the first pass after a restart would build it at once: seconds at
    a million jobs). It becomes the core's when the last slice is filed; the jobs
    changed meanwhile are in :attr:`Core.sched_touched`, filed again at the next pass."""

    def __init__(self, core: Core) -> None:
        self.weight = priority_weight(core)
        self.index = PendingIndex(core, self.weight, ())
        self._ids = iter(list(core.jobs))
        core.sched_touched.clear()  # every job as it is now is filed by the slices

    @classmethod
    def wanted(cls, core: Core) -> IndexBuild | None:
        """A build, when the next pass would otherwise build the index at once."""
        if kept_index(core) is not None or not uses_index(core):
            return None
        return cls(core)

    def step(self, core: Core, count: int) -> bool:
        """File up to ``count`` more jobs; True when done (or made needless meanwhile: a
        pass built the index itself, or ``weight_priority`` changed)."""
        if kept_index(core) is not None or priority_weight(core) != self.weight:
            return True
        jobs = core.jobs
        taken = list(islice(self._ids, count))
        self.index.add_unsorted(jobs[i] for i in taken if i in jobs)
        if len(taken) == count:
            return False
        self.index.sort()
        core.derived[INDEX_KEY] = (self.weight, self.index)
        return True


def pass_view(core: Core, now: float) -> tuple[View, PendingIndex | None]:
    """The view of one pass: from the index, grouped, where priorities stand still in time
    and no per-user limit applies; else every pending job (:func:`build_view`)."""
    if not uses_index(core):
        return build_view(core, now), None
    index = pending_index(core)
    if index.timed:
        return build_view(core, now), None
    groups = index.job_groups(core, now)
    if not groups:  # nothing may start: the pass need not look at the cell's queues
        return View([], []), index
    view = assemble(core, [g.first for g in groups], now)
    view.groups = groups
    return view, index


class PassReasons(dict[int, ReasonList]):
    """Why the jobs of the last pass wait: the jobs it looked at, and the groups it
    skipped (their jobs share the exhausted category's reasons, looked up when asked)."""

    def __init__(
        self,
        reasons: dict[int, ReasonList],
        skipped: dict[Hashable, ReasonList],
        group_of: Callable[[int], Hashable | None],
    ) -> None:
        super().__init__(reasons)
        self.skipped = skipped
        self.group_of = group_of

    def __missing__(self, job_id: int) -> ReasonList:
        found = self.skipped.get(self.group_of(job_id)) if self.skipped else None
        if found is None:
            raise KeyError(job_id)
        return found

    def get(self, job_id: int, default: Any = None) -> Any:
        """The job's reasons, from the pass or from its skipped group."""
        try:
            return self[job_id]
        except KeyError:
            return default
