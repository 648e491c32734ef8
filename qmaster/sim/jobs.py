"""A trace's jobs: :class:`TraceJob` and :class:`TraceJobs`, the compact table that holds them.

A million-job trace kept as a million ``TraceJob`` objects costs some 310 bytes a
job (the object, its floats, ints and name). :class:`TraceJobs` keeps each field
in a column instead: numbers, submit and run times and sizes in arrays (8 bytes
a value), owners, request sets and queue names as small codes into one list of
the distinct values (4 bytes), and what few jobs have (a name of their own, a
category, a PE, a preceding job, an SWF line) only once a job has it. Reading
``jobs[i]`` makes that job's :class:`TraceJob` (a new object each time, equal
to the one appended); changing it changes nothing in the table.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, TypeVar, overload

NO_REQUESTS: Mapping[str, str] = MappingProxyType({})

T = TypeVar("T")


@dataclass(slots=True)
class TraceJob:
    """One job of a trace, in the simulator's terms."""

    number: int
    submit: float
    """Seconds after the trace's start."""
    runtime: float
    slots: int
    user: str
    group: str
    uid: int
    gid: int
    name: str
    requests: Mapping[str, str] = field(default_factory=dict)
    """Hard ``-l`` requests (``h_rt``, ``h_vmem`` per slot); a loaded trace's jobs share
    one read-only mapping per distinct set."""
    queue: str | None = None
    category: str | None = None
    """An accounting trace's recorded category (qsub options), replayed as requests."""
    pe: str | None = None
    preceding: int | None = None
    think: float | None = None
    swf: str = ""
    """The job's SWF line (fields joined by spaces: one string per job, not 18), written
    back with the simulated wait and run time; empty for a trace loaded from a file,
    whose lines :func:`qmaster.sim.trace.job_lines` reads again."""


def default_name(number: int) -> str:
    """The name of a job that has none of its own: ``swf<number>`` (as SWF traces name them)."""
    return f"swf{number}"


class Interned(Generic[T]):
    """Distinct values and their codes (code 0 is ``None``)."""

    __slots__ = ("_codes", "values")

    def __init__(self) -> None:
        self.values: list[T | None] = [None]
        self._codes: dict[Hashable, int] = {}

    def code(self, value: T | None, key: Hashable | None = None) -> int:
        """The code of ``value`` (told apart by ``key``, else by the value itself)."""
        if value is None:
            return 0
        found = self._codes.get(value if key is None else key)
        if found is None:
            found = self._codes[value if key is None else key] = len(self.values)
            self.values.append(value)
        return found

    def find(self, key: Hashable) -> int:
        """The code kept for ``key``; 0 when there is none."""
        return self._codes.get(key, 0)


class Sparse:
    """Codes by position that take no memory while every one is 0."""

    __slots__ = ("codes",)

    def __init__(self) -> None:
        self.codes: array[int] | None = None

    def append(self, code: int, position: int) -> None:
        """Add the code of the job at ``position`` (the table's length before it)."""
        if self.codes is None:
            if not code:
                return
            self.codes = array("I", bytes(4 * position))
        self.codes.append(code)

    def __getitem__(self, position: int) -> int:
        return 0 if self.codes is None else self.codes[position]


class TraceJobs(Sequence[TraceJob]):
    """A trace's jobs in trace order, in columns (see the module's text)."""

    __slots__ = (
        "_category",
        "_lines",
        "_name",
        "_owner",
        "_owners",
        "_pe",
        "_queue",
        "_request_sets",
        "_requests",
        "_texts",
        "follows",
        "numbers",
        "runtimes",
        "sizes",
        "submits",
    )

    def __init__(self, jobs: Iterable[TraceJob] = ()) -> None:
        self.numbers = array("q")
        self.submits = array("d")
        """Each job's submit time (seconds after the trace's start)."""
        self.runtimes = array("d")
        self.sizes = array("q")
        self.follows: dict[int, tuple[int | None, float | None]] = {}
        """Position -> (preceding job number, think time) of the jobs that have either."""
        self._owner = array("I")
        self._owners: Interned[tuple[str, str, int, int]] = Interned()
        self._requests = array("I")
        self._request_sets: Interned[Mapping[str, str]] = Interned()
        self._queue = Sparse()
        self._category = Sparse()
        self._pe = Sparse()
        self._texts: Interned[str] = Interned()
        self._name: list[str | None] | None = None
        """Names other than :func:`default_name` (kept once a job has one)."""
        self._lines: list[str] | None = None
        """SWF lines (kept once a job has one)."""
        for job in jobs:
            self.append(job)

    def append(self, job: TraceJob) -> None:
        """Add a job at the end (its values are kept, not the object)."""
        at = len(self.numbers)
        self.numbers.append(job.number)
        self.submits.append(job.submit)
        self.runtimes.append(job.runtime)
        self.sizes.append(job.slots)
        self._owner.append(self._owners.code((job.user, job.group, job.uid, job.gid)))
        self._requests.append(self._request_code(job.requests))
        texts = self._texts
        self._queue.append(texts.code(job.queue), at)
        self._category.append(texts.code(job.category), at)
        self._pe.append(texts.code(job.pe), at)
        if job.preceding is not None or job.think is not None:
            self.follows[at] = (job.preceding, job.think)
        name = None if job.name == default_name(job.number) else job.name
        if name is not None and self._name is None:
            self._name = [None] * at
        if self._name is not None:
            self._name.append(name)
        if job.swf and self._lines is None:
            self._lines = [""] * at
        if self._lines is not None:
            self._lines.append(job.swf)

    def _request_code(self, requests: Mapping[str, str]) -> int:
        """The code of a request set (kept read-only: jobs asking alike share it)."""
        if not requests:
            return 0
        pairs = tuple(requests.items())
        found = self._request_sets.find(pairs)
        if found:
            return found
        if not isinstance(requests, MappingProxyType):
            requests = MappingProxyType(dict(requests))
        return self._request_sets.code(requests, pairs)

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> TraceJob: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[TraceJob]: ...

    def __getitem__(self, index: int | slice) -> TraceJob | Sequence[TraceJob]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        number = self.numbers[index]
        at = index if index >= 0 else index + len(self)
        user, group, uid, gid = self._owners.values[self._owner[at]] or ("", "", 0, 0)
        texts = self._texts.values
        preceding, think = self.follows.get(at, (None, None))
        name = None if self._name is None else self._name[at]
        return TraceJob(
            number=number,
            submit=self.submits[at],
            runtime=self.runtimes[at],
            slots=self.sizes[at],
            user=user,
            group=group,
            uid=uid,
            gid=gid,
            name=default_name(number) if name is None else name,
            requests=self._request_sets.values[self._requests[at]] or NO_REQUESTS,
            queue=texts[self._queue[at]],
            category=texts[self._category[at]],
            pe=texts[self._pe[at]],
            preceding=preceding,
            think=think,
            swf=self.line(at),
        )

    def __iter__(self) -> Iterator[TraceJob]:
        return (self[i] for i in range(len(self)))

    def user_codes(self) -> tuple[array[int], list[str]]:
        """Each job's owner code (by position) and each code's user name."""
        return self._owner, [owner[0] if owner else "" for owner in self._owners.values]

    def line(self, position: int) -> str:
        """The job's SWF line ("" when the table keeps none)."""
        return "" if self._lines is None else self._lines[position]
