"""qstat's job rows, built once per request and sent compactly.

A job row is ten values in the order of :data:`qmaster.qstat_wire.FIELDS`, plus a dict of what
the options added (``-ext`` columns, ``-r`` requirements, ``-g t``'s
``master``...) when there is any: with ``compact`` the reply carries these
lists (``job_rows``) instead of one dict per row, so a 100,000-job listing
does not repeat ten key names 100,000 times. Without options a pending job
with no tasks (the bulk of a big cell) takes a short path that builds its list
directly; every other job goes through the general row code of
:mod:`qmaster.core.query` and is then made compact.

With ``chunk`` the rows are cut into frames (:class:`ChunkedListing`) that
the daemon sends one by one while the client prints them; the first frame
holds everything else of the reply. With ``running_first`` the rows in a
queue come in the first frame and the others follow in job order, which is
the order every text and XML layout prints them in.

The ``prior`` column needs every job's priority normalised over all jobs:
:class:`Priors` works it out once per distinct set of priority inputs, with
the arithmetic of :func:`schedd.priority.priority_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qmaster.core.job_priority import priority_input, resource_urgency, weights
from qmaster.core.jobs import Job
from qmaster.qstat_wire import Row, in_queue
from schedd.priority import Priority as FullPriority
from schedd.priority import PriorityInput, bounds, npprior, priority_of

if TYPE_CHECKING:
    from qmaster.core.machine import Core


Signature = tuple[object, float, object, object]


class Priors:
    """Every job's priority normalised over the cell's jobs, as qstat shows it.

    A job's priority inputs are its ``-p`` value, its resource urgency, its tickets,
    its deadline and (with a waiting time weight) its submit time. Most jobs of a big
    cell share the first four: without a waiting time weight the ranges and the
    ``prior`` column are worked out once per such *signature*, and nothing is kept
    per job between requests.
    """

    def __init__(self, core: Core, now: float, jobs: Iterable[Job]) -> None:
        self._core = core
        self._now = now
        self._weights = weights(core)
        self._shared: dict[Signature, PriorityInput] = {}
        self._prior_of: dict[Signature, float] = {}
        # each job's signature, worked out once per request (the bounds and its row need it)
        self._signature_of: dict[int, Signature] = {}
        if self._weights.waiting_time:
            inputs = [priority_input(core, j) for j in jobs]
        else:
            inputs = self._signatures(jobs)
        self._bounds = bounds(inputs, self._weights, now)

    def _signatures(self, jobs: Iterable[Job]) -> list[PriorityInput]:
        """Every job's signature, and the inputs of each distinct one. The signature is
        the spec's: jobs submitted alike share their JobSpec, whose signature is worked
        out once (by the spec object's id, all of them alive during this loop)."""
        by_spec: dict[int, Signature] = {}
        signature_of = self._signature_of
        for job in jobs:
            key = by_spec.get(id(job.spec))
            if key is None:
                key = by_spec[id(job.spec)] = self._signature(job)
                self._shared_input(job, key)
            signature_of[job.job_id] = key
        return list(self._shared.values())

    def _signature(self, job: Job) -> Signature:
        spec = job.spec
        return (
            spec.priority or 0,
            resource_urgency(self._core, job),
            spec.override_tickets,
            spec.deadline,
        )

    def _shared_input(self, job: Job, key: Signature) -> PriorityInput:
        found = self._shared.get(key)
        if found is None:
            found = self._shared[key] = priority_input(self._core, job)
        return found

    def input_of(self, job: Job) -> PriorityInput:
        """The job's priority inputs."""
        return priority_input(self._core, job)

    def full(self, job: Job) -> FullPriority:
        """The job's priority with its parts (``-pri``, ``-urg``, ``-ext``)."""
        return priority_of(self.input_of(job), self._bounds, self._weights, self._now)

    def prior(self, job: Job) -> float:
        """The ``prior`` column: :func:`schedd.priority.priority_of`'s ``prio``, rounded."""
        if self._weights.waiting_time:
            return self._prior(self.input_of(job))
        key = self._signature_of.get(job.job_id) or self._signature(job)
        found = self._prior_of.get(key)
        if found is None:
            found = self._prior_of[key] = self._prior(self._shared_input(job, key))
        return found

    def _prior(self, inp: PriorityInput) -> float:
        w, b, now = self._weights, self._bounds, self._now
        wtcontr = w.waiting_time * max(0.0, now - inp.submit_time)
        dlcontr = 0.0
        if inp.deadline is not None:
            dlcontr = w.deadline / max(1.0, inp.deadline - now)
        urg = inp.rrcontr + wtcontr + dlcontr
        if b.max_urg <= b.min_urg:
            nurg = 0.5
        else:
            nurg = min(1.0, max(0.0, (urg - b.min_urg) / (b.max_urg - b.min_urg)))
        ntix = 0.5 if b.max_tix <= 0.0 else min(1.0, max(0.0, inp.tickets / b.max_tix))
        prio = w.priority * npprior(inp.posix) + w.urgency * nurg + w.ticket * ntix
        return round(prio, 5)


@dataclass(slots=True)
class ChunkedListing:
    """A ``job_list`` reply to send in frames: ``head`` first (with its ``job_rows``),
    then each list of rows of ``chunks``; every frame says whether ``more`` follow."""

    head: dict[str, Any]
    chunks: Iterator[list[Row]]
    stopped: bool = field(default=False)

    def frames(self) -> Iterator[dict[str, Any]]:
        """The frames' data, the last one with ``more`` false."""
        following = next(self.chunks, None)
        yield {**self.head, "more": following is not None}
        while following is not None and not self.stopped:
            rows, following = following, next(self.chunks, None)
            yield {"job_rows": rows, "more": following is not None}


def cut(rows: Iterator[Row], size: int) -> Iterator[list[Row]]:
    """``rows`` in lists of ``size`` (the last one shorter, none empty)."""
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


RowsOf = Callable[[Job], list[Row]]


def running_first(
    core: Core, ids: list[int], rows_of: RowsOf
) -> tuple[list[Row], Callable[[], Iterator[Row]]]:
    """The rows in a queue of the jobs ``ids`` (at once), and the others (lazily, job by
    job, in the order of ``ids``; a job gone meanwhile is left out)."""
    head: list[Row] = []
    rest: dict[int, list[Row]] = {}
    for job_id in ids:
        job = core.jobs.get(job_id)
        if job is not None and job.tasks:
            rows = rows_of(job)
            head.extend(r for r in rows if in_queue(r))
            rest[job_id] = [r for r in rows if not in_queue(r)]

    def others() -> Iterator[Row]:
        for job_id in ids:
            kept = rest.get(job_id)
            if kept is None:
                job = core.jobs.get(job_id)
                kept = rows_of(job) if job is not None else []
            yield from kept

    return head, others


def in_order(core: Core, ids: list[int], rows_of: RowsOf) -> Iterator[Row]:
    """The rows of the jobs ``ids``, lazily, job by job (a job gone meanwhile is left out)."""
    for job_id in ids:
        job = core.jobs.get(job_id)
        if job is not None:
            yield from rows_of(job)
