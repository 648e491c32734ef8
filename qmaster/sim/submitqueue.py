"""The submissions still to come, in time order, kept compactly.

A trace's jobs are planned at once: a million of them kept as heap entries
(a tuple, two floats and an int each) cost some 140 bytes a job before the
replay starts. :class:`SubmitQueue` keeps them as arrays sorted once (8 bytes
a value) and a cursor, and only the jobs released later (those following a job
by a think time) in a heap; taking the earlier of the two gives the order the
one heap of ``(time, tie-break key, trace position)`` gave. A trace in
submission order keeps only the times: the keys are the positions (when no seed
shuffles the ties) and the positions are 0, 1, 2... (when every job is planned).
"""

from __future__ import annotations

import heapq
from array import array

Entry = tuple[float, float, int]
"""When a job is submitted, its tie-break key and its trace position."""


class SubmitQueue:
    """Planned submissions (sorted once) merged with jobs released as the replay goes."""

    __slots__ = ("_jobs", "_keys", "_next", "_released", "_times")

    def __init__(
        self, times: array[float], keys: array[float] | None = None, jobs: array[int] | None = None
    ) -> None:
        """``times``, ``keys`` and ``jobs``: the planned entries' parts, position by position;
        no ``keys``: each entry's key is its job's position; no ``jobs``: the entries are
        the jobs 0, 1, 2... (a trace in submission order is taken as it is; any other is
        sorted once)."""
        if keys is not None or jobs is not None or not _ascending(times):
            got = jobs if jobs is not None else array("q", range(len(times)))
            by = keys if keys is not None else array("d", map(float, got))
            if not _in_order(times, by, got):
                order = sorted(range(len(got)), key=lambda i: (times[i], by[i], got[i]))
                times = array("d", (times[i] for i in order))
                by = array("d", (by[i] for i in order))
                got = array("q", (got[i] for i in order))
            keys, jobs = by, got
        self._times, self._keys, self._jobs = times, keys, jobs
        self._next = 0
        self._released: list[Entry] = []

    def _planned(self, at: int) -> Entry:
        job = at if self._jobs is None else self._jobs[at]
        key = float(job) if self._keys is None else self._keys[at]
        return (self._times[at], key, job)

    def __bool__(self) -> bool:
        return self._next < len(self._times) or bool(self._released)

    def first(self) -> Entry | None:
        """The next submission due, without taking it."""
        at = self._next
        planned = self._planned(at) if at < len(self._times) else None
        if not self._released:
            return planned
        released = self._released[0]
        return planned if planned is not None and planned < released else released

    def pop(self) -> int:
        """Take the next submission due: its trace position."""
        entry = self.first()
        if entry is None:
            raise IndexError("no submission to come")
        if self._released and entry is self._released[0]:
            heapq.heappop(self._released)
        else:
            self._next += 1
        return entry[2]

    def pop_due(self, now: float) -> int | None:
        """Take the next submission if it is due by ``now``: its trace position, else None."""
        entry = self.first()
        if entry is None or entry[0] > now:
            return None
        if self._released and entry is self._released[0]:
            heapq.heappop(self._released)
        else:
            self._next += 1
        return entry[2]

    def push(self, at: float, key: float, job: int) -> None:
        """A job released later (it follows another by a think time)."""
        heapq.heappush(self._released, (at, key, job))


def _ascending(times: array[float]) -> bool:
    """Whether the times never go back (then the positions keep ties in order)."""
    return all(times[i - 1] <= times[i] for i in range(1, len(times)))


def _in_order(times: array[float], keys: array[float], jobs: array[int]) -> bool:
    """Whether the entries are already in ``(time, key, job)`` order."""
    for i in range(1, len(jobs)):
        before, after = times[i - 1], times[i]
        if before < after:
            continue
        if before > after or (keys[i - 1], jobs[i - 1]) > (keys[i], jobs[i]):
            return False
    return True
