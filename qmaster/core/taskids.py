"""A compact sorted set of task ids: Grid Engine's range lists (``1-1000000:1,7``).

A pending array job keeps the ids of its pending tasks as a few ranges with a
step, the way Grid Engine's qmaster keeps ``JB_ja_n_h_ids``: ``qsub -t
1-1000000`` costs one range until tasks are dispatched, not a million ids.
:class:`TaskIds` is a set (``in``, ``add``, ``remove``, difference,
intersection) and a sequence in id order (``len``, ``ids[0]``, ``ids[:n]``, lazy
iteration), so the scheduler takes only as many ids as it dispatches.

The ranges are Python ``range`` objects, sorted, none empty, and apart: each
ends before the next begins (their spans never interleave). A one-id range has
step 1. Two sets may hold the same ids in different ranges; equality and the
text (:meth:`TaskIds.runs`) depend on the ids only.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from math import gcd
from typing import overload


def _norm(r: range) -> range:
    """``r`` with a one-id range spelt with step 1 (``r`` is not empty)."""
    return range(r.start, r.start + 1) if len(r) == 1 else r


def _start(r: range) -> int:
    return r.start


def _ap_and(a: range, b: range) -> range:
    """The ids two ranges share: one range with step lcm(a.step, b.step), maybe empty."""
    lo, hi = max(a.start, b.start), min(a[-1], b[-1])
    s, t = a.step, b.step
    g = gcd(s, t)
    if lo > hi or (b.start - a.start) % g:
        return range(0)
    period = s // g * t
    # x = a.start + s*k with s*k == b.start - a.start (mod t)
    k = ((b.start - a.start) // g * pow(s // g, -1, t // g)) % (t // g)
    x = a.start + s * k
    x += -((x - lo) // period) * period  # the first x >= lo on the common progression
    return _norm(range(x, hi + 1, period)) if x <= hi else range(0)


def _ap_minus(a: range, b: range) -> list[range]:
    """The ids of ``a`` not in ``b``, as ranges in order (apart from each other)."""
    common = _ap_and(a, b)
    if not common:
        return [a]
    s, p0, p1, period = a.step, common[0], common[-1], common.step if len(common) > 1 else 0
    out = [range(a.start, p0, s)]
    per = period // s  # ids of ``a`` in one period of the common progression
    if per == 2:
        out.append(range(p0 + s, p1, period))
    elif per > 2:
        out.extend(range(p + s, p + period, s) for p in common[:-1])
    out.append(range(p1 + s, a.stop, s))
    return [_norm(r) for r in out if r]


def _minus_run(a: range, bs: Iterable[range]) -> list[range]:
    """``a`` without the ids of ``bs`` (ranges apart from each other, in order)."""
    out: list[range] = []
    rest: range | None = a
    for b in bs:
        if rest is None:
            break
        pieces = _ap_minus(rest, b)
        rest = pieces.pop() if pieces and pieces[-1][-1] > b[-1] else None
        out.extend(pieces)
    if rest is not None:
        out.append(rest)
    return out


class TaskIds(Sequence[int]):
    """A sorted set of task ids kept as ranges with a step; memory follows the ranges."""

    __slots__ = ("_len", "_runs")

    def __init__(self, runs: Iterable[range] = ()) -> None:
        """From ranges already sorted and apart (see the module); empty ones are dropped."""
        self._runs = [_norm(r) for r in runs if r]
        self._len = sum(map(len, self._runs))

    @classmethod
    def of(cls, ids: range) -> TaskIds:
        """The ids of one range, e.g. an array job's ``-t 1-1000000:1``."""
        if not ids:
            return cls()
        one = cls.__new__(cls)  # what __init__ makes of one range, without its loop
        one._runs, one._len = [_norm(ids)], len(ids)
        return one

    @classmethod
    def from_ids(cls, ids: Iterable[int]) -> TaskIds:
        """The given ids (any order, repeats allowed), as few ranges as runs allow."""
        return cls(range(a, b + 1, d) for a, b, d in _greedy(sorted(set(ids))))

    # -- a sequence in id order --------------------------------------------------------

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        return chain.from_iterable(self._runs)

    def __reversed__(self) -> Iterator[int]:
        return chain.from_iterable(reversed(r) for r in reversed(self._runs))

    def __contains__(self, task_id: object) -> bool:
        if not isinstance(task_id, int):
            return False
        i = bisect_right(self._runs, task_id, key=_start) - 1
        return i >= 0 and task_id in self._runs[i]

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> TaskIds: ...

    def __getitem__(self, index: int | slice) -> int | TaskIds:
        if isinstance(index, slice):
            return self._slice(index)
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError("task id index out of range")
        for r in self._runs:
            if i < len(r):
                return r[i]
            i -= len(r)
        raise AssertionError("unreachable")  # pragma: no cover

    def _slice(self, index: slice) -> TaskIds:
        start, stop, step = index.indices(self._len)
        if step != 1:
            return TaskIds.from_ids(list(self)[index])
        out: list[range] = []
        for r in self._runs:
            if stop <= 0:
                break
            if start < len(r):
                out.append(r[max(start, 0) : stop])
            start, stop = start - len(r), stop - len(r)
        return TaskIds(out)

    def take(self, n: int) -> list[int]:
        """The first ``n`` ids (fewer when the set is smaller)."""
        return list(self[: max(n, 0)])

    def count(self, value: object) -> int:
        return int(value in self)

    @property
    def first(self) -> int:
        """The smallest id (IndexError when empty)."""
        if not self._runs:
            raise IndexError("no task ids")
        return self._runs[0].start

    @property
    def ranges(self) -> tuple[range, ...]:
        """The ranges as kept (sorted, apart from each other)."""
        return tuple(self._runs)

    # -- changes ---------------------------------------------------------------------

    def copy(self) -> TaskIds:
        """A copy that later changes of this set do not touch (costs the ranges)."""
        out = TaskIds()
        out._runs, out._len = list(self._runs), self._len
        return out

    def remove(self, task_id: int) -> None:
        """Take ``task_id`` out; ValueError when it is not in the set (as list.remove)."""
        if not self.discard(task_id):
            raise ValueError(f"task id {task_id} is not in the set")

    def discard(self, task_id: int) -> bool:
        """Take ``task_id`` out if it is in; True when it was."""
        runs = self._runs
        i = bisect_right(runs, task_id, key=_start) - 1
        if i < 0 or task_id not in runs[i]:
            return False
        r = runs[i]
        self._len -= 1
        if task_id == r.start and len(r) > 2:  # the scheduler's case: the first id goes
            runs[i] = range(task_id + r.step, r.stop, r.step)
            return True
        low, high = range(r.start, task_id, r.step), range(task_id + r.step, r.stop, r.step)
        pieces = [_norm(p) for p in (low, high) if p]
        runs[i : i + 1] = pieces
        self._join(i + len(pieces) - 1)  # the last piece (or the range before) with the next
        if len(pieces) == 2:
            self._join(i)  # two lone ids either side
        if pieces:
            self._join(i - 1)
        return True

    def add(self, task_id: int) -> None:
        """Put ``task_id`` in (a rescheduled task pending again)."""
        runs = self._runs
        i = bisect_right(runs, task_id, key=_start)
        if i and task_id in runs[i - 1]:
            return
        if i and task_id < runs[i - 1][-1]:  # inside the span of a range with a step
            r = runs[i - 1]
            low = range(r.start, task_id, r.step)
            high = range(low[-1] + r.step, r.stop, r.step)
            runs[i - 1 : i] = [_norm(low), range(task_id, task_id + 1), _norm(high)]
        else:
            runs.insert(i, range(task_id, task_id + 1))
        i += 1  # the new id is at i - 1
        self._len += 1
        self._join(i - 1)  # the new id with the range after it
        self._join(i - 2)  # and the range before

    def _join(self, i: int) -> None:
        """Merge range ``i`` with the next one when together they keep one step
        (every other task deleted one by one stays one range with step 2)."""
        runs = self._runs
        if i >= 0 and i + 1 < len(runs):
            a, b = runs[i], runs[i + 1]
            step = b.start - a[-1]
            if (len(a) == 1 or a.step == step) and (len(b) == 1 or b.step == step):
                runs[i : i + 2] = [range(a.start, b[-1] + 1, step)]

    def difference_update(self, other: TaskIds | range) -> None:
        """Take out every id of ``other`` (e.g. qdel's ``-t 1-100:2``)."""
        result = self - other
        self._runs, self._len = result._runs, result._len

    def __sub__(self, other: TaskIds | range) -> TaskIds:
        bs = other._runs if isinstance(other, TaskIds) else ([_norm(other)] if other else [])
        out: list[range] = []
        j = 0
        for a in self._runs:
            while j < len(bs) and bs[j][-1] < a.start:
                j += 1
            k = j
            while k < len(bs) and bs[k].start <= a[-1]:
                k += 1
            out.extend(_minus_run(a, bs[j:k]) if k > j else (a,))
        return TaskIds(out)

    def __and__(self, other: TaskIds | range) -> TaskIds:
        bs = other._runs if isinstance(other, TaskIds) else ([_norm(other)] if other else [])
        out: list[range] = []
        i = j = 0
        runs = self._runs
        while i < len(runs) and j < len(bs):
            a, b = runs[i], bs[j]
            out.append(_ap_and(a, b))
            if a[-1] < b[-1]:
                i += 1
            else:
                j += 1
        return TaskIds(out)

    def issubset(self, other: TaskIds | range) -> bool:
        """Every id of this set is in ``other``."""
        return not (self - other)

    # -- equality and text ------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TaskIds):
            return NotImplemented
        return self._len == other._len and list(self.runs()) == list(other.runs())

    __hash__ = None  # type: ignore[assignment]

    def runs(self) -> Iterator[tuple[int, int, int]]:
        """``(first, last, step)`` runs as qstat prints them: from the first id on, each
        run takes the step to the next id and goes on while the ids keep it; a run that
        would hold only two ids leaves its first alone when the second begins another
        run (``5,1001-2000:1``, not ``5-1001:996,1002-2000:1``)."""
        rs = self._runs
        i = k = 0
        while i < len(rs):
            x = rs[i][k]
            if k + 1 < len(rs[i]):
                step, i2, k2 = rs[i].step, i, k + 1
            elif i + 1 < len(rs):
                step, i2, k2 = rs[i + 1].start - x, i + 1, 0
            else:
                yield x, x, 1
                return
            second = (i2, k2)
            i2, k2 = _extend(rs, i2, k2, step)
            after = (i2, k2 + 1) if k2 + 1 < len(rs[i2]) else (i2 + 1, 0)
            if (i2, k2) == second and after[0] < len(rs):
                yield x, x, 1
                i, k = second
                continue
            yield x, rs[i2][k2], step
            i, k = after

    def __str__(self) -> str:
        """qstat's ``1-5:1,7-9:2``: a lone id as ``7`` and a run of two ids as ``7,9``,
        as Grid Engine prints a range list (``range_to_dstring``)."""
        return ",".join(_run_text(a, b, d) for a, b, d in self.runs())

    def __repr__(self) -> str:
        return f"TaskIds('{self}')"


def _run_text(first: int, last: int, step: int) -> str:
    if first == last:
        return str(first)
    if first + step == last:
        return f"{first},{last}"
    return f"{first}-{last}:{step}"


def _extend(rs: list[range], i: int, k: int, step: int) -> tuple[int, int]:
    """From id ``rs[i][k]``, how far the ids go on with ``step`` (the last one's place)."""
    while True:
        r = rs[i]
        if k + 1 < len(r):
            if r.step != step:
                return i, k
            k = len(r) - 1
        elif i + 1 < len(rs) and rs[i + 1].start - r[k] == step:
            i, k = i + 1, 0
        else:
            return i, k


def _greedy(ids: list[int]) -> Iterator[tuple[int, int, int]]:
    """Runs of sorted unique ids, as :meth:`TaskIds.runs` makes them."""
    i = 0
    while i < len(ids):
        if i + 1 == len(ids):
            yield ids[i], ids[i], 1
            return
        step = ids[i + 1] - ids[i]
        j = i + 1
        while j + 1 < len(ids) and ids[j + 1] - ids[j] == step:
            j += 1
        yield ids[i], ids[j], step
        i = j + 1
