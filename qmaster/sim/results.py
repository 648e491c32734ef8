"""What became of each trace job: :class:`JobResult`, and :class:`Results` that holds them.

A ``JobResult`` object per trace job, made before the replay for the whole trace,
costs some 370 bytes a job (370 MB for a million). :class:`Results` keeps the
same values in columns by trace position (about 64 bytes a job): times in
``array("d")`` with NaN for "not yet", the job id, size and statuses in
``array("q")``, the queue and host names as codes into one list of the distinct
names, refusals only for the jobs refused. The driver writes the columns as
records come; the summary, plots and outputs read them. Reading ``results[i]``
makes the :class:`JobResult` of that job (a snapshot: changing it changes
nothing here).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import isnan
from typing import overload

from qmaster.sim.jobs import TraceJob, TraceJobs

NOT_YET = math.nan
"""A time not (yet) known: the job was not submitted, has not started or ended."""
NO_ID = -1


@dataclass(slots=True)
class JobResult:
    """What became of one trace job (times in seconds after the trace's start)."""

    job: TraceJob
    index: int
    job_id: int | None = None
    submitted: float | None = None
    start: float | None = None
    end: float | None = None
    queue: str | None = None
    host: str | None = None
    slots: int = 0
    failed: int = 0
    exit_status: int = 0
    refusal: str | None = None

    @property
    def wait(self) -> float | None:
        """Seconds from submission to start, once started."""
        if self.start is None or self.submitted is None:
            return None
        return self.start - self.submitted


def known(value: float) -> float | None:
    """A column's time as a result gives it: ``None`` for :data:`NOT_YET`."""
    return None if isnan(value) else value


class Results(Sequence[JobResult]):
    """The result of every job of a trace, by trace position, in columns."""

    __slots__ = (
        "_codes",
        "end",
        "exit_status",
        "failed",
        "host",
        "job_id",
        "jobs",
        "names",
        "queue",
        "refusals",
        "slots",
        "start",
        "submitted",
    )

    def __init__(self, jobs: TraceJobs) -> None:
        count = len(jobs)
        self.jobs = jobs
        self.job_id = array("q", [NO_ID]) * count
        """The job id the qmaster gave (:data:`NO_ID` before, or when refused)."""
        self.submitted = array("d", [NOT_YET]) * count
        self.start = array("d", [NOT_YET]) * count
        self.end = array("d", [NOT_YET]) * count
        self.queue = array("I", bytes(4 * count))
        """Codes into :attr:`names` (0: none)."""
        self.host = array("I", bytes(4 * count))
        self.slots = array("q", bytes(8 * count))
        self.failed = array("q", bytes(8 * count))
        self.exit_status = array("q", bytes(8 * count))
        self.refusals: dict[int, str] = {}
        """Position -> the qmaster's refusal, for the jobs refused."""
        self.names: list[str | None] = [None]
        """Queue and host names (and refusals), each kept once; code 0 is none."""
        self._codes: dict[str, int] = {}

    @classmethod
    def of(cls, results: Iterable[JobResult]) -> Results:
        """The table of these results (positions in their order; their ``index`` is not read)."""
        given = list(results)
        table = cls(TraceJobs(r.job for r in given))
        for at, r in enumerate(given):
            if r.job_id is not None:
                table.job_id[at] = r.job_id
            if r.submitted is not None:
                table.submitted[at] = r.submitted
            if r.start is not None:
                table.start[at] = r.start
            if r.end is not None:
                table.end[at] = r.end
            table.queue[at], table.host[at] = table.code(r.queue), table.code(r.host)
            table.slots[at], table.failed[at] = r.slots, r.failed
            table.exit_status[at] = r.exit_status
            if r.refusal is not None:
                table.refusals[at] = r.refusal
        return table

    def code(self, name: str | None) -> int:
        """The code of a name (one copy of each kept)."""
        if name is None:
            return 0
        found = self._codes.get(name)
        if found is None:
            found = self._codes[name] = len(self.names)
            self.names.append(name)
        return found

    def refuse(self, position: int, refusal: str | None) -> None:
        """The job at ``position`` was refused (one copy of each refusal's text kept)."""
        if refusal is not None:
            self.refusals[position] = self.names[self.code(refusal)] or refusal

    def __len__(self) -> int:
        return len(self.job_id)

    @overload
    def __getitem__(self, index: int) -> JobResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[JobResult]: ...

    def __getitem__(self, index: int | slice) -> JobResult | Sequence[JobResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        at = index if index >= 0 else index + len(self)
        if not 0 <= at < len(self):
            raise IndexError("result index out of range")
        job_id = self.job_id[at]
        return JobResult(
            self.jobs[at],
            at,
            job_id=None if job_id == NO_ID else job_id,
            submitted=known(self.submitted[at]),
            start=known(self.start[at]),
            end=known(self.end[at]),
            queue=self.names[self.queue[at]],
            host=self.names[self.host[at]],
            slots=self.slots[at],
            failed=self.failed[at],
            exit_status=self.exit_status[at],
            refusal=self.refusals.get(at),
        )

    def __iter__(self) -> Iterator[JobResult]:
        return (self[i] for i in range(len(self)))
