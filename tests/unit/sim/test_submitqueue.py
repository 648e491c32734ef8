"""The submissions to come leave in the order one heap of (time, key, position) gave:
planned ones (in trace order or not) merged with jobs released later by a think time."""

from __future__ import annotations

import heapq
import random
from array import array

from qmaster.sim.submitqueue import SubmitQueue


def _drain(queue: SubmitQueue, released: dict[int, list[tuple[float, float, int]]]) -> list[int]:
    """Take every submission; taking job ``j`` releases the entries ``released[j]``."""
    order: list[int] = []
    while queue:
        job = queue.pop()
        order.append(job)
        for entry in released.get(job, []):
            queue.push(*entry)
    return order


def test_planned_and_released_submissions_leave_in_heap_order() -> None:
    rng = random.Random(7)
    for _ in range(50):
        entries = [(float(rng.randrange(5)), rng.random(), i) for i in range(30)]
        planned = entries[:20]
        later = {p[2]: [e] for p, e in zip(rng.sample(planned, 10), entries[20:], strict=True)}
        queue = SubmitQueue(
            array("d", (e[0] for e in planned)),
            array("d", (e[1] for e in planned)),
            array("q", (e[2] for e in planned)),
        )
        heap = list(planned)
        heapq.heapify(heap)
        want: list[int] = []
        while heap:
            job = heapq.heappop(heap)[2]
            want.append(job)
            for entry in later.get(job, []):
                heapq.heappush(heap, entry)
        assert _drain(queue, later) == want
        assert queue.first() is None


def test_times_alone_stand_for_positions_in_trace_order() -> None:
    """Given only the times, each entry's key and job are its position: the order is the
    heap's of (time, position, position), whether the times come in order or not."""
    rng = random.Random(11)
    for times in ([0.0, 0.0, 1.0, 1.0, 1.0, 3.0], [float(rng.randrange(4)) for _ in range(40)]):
        entries = [(t, float(i), i) for i, t in enumerate(times)]
        want = [job for _, _, job in sorted(entries)]
        queue = SubmitQueue(array("d", times))
        assert queue.first() == sorted(entries)[0]
        assert _drain(queue, {}) == want
