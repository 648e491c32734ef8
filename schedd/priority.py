"""Grid Engine's job priority: POSIX priority, urgency and tickets, normalised and weighted.

``prio = weight_priority * npprior + weight_urgency * nurg + weight_ticket * ntckts``
where each normalised value maps the job's raw value onto ``[0, 1]`` over the
pending jobs considered together (all equal: 0.5), as sched_conf(5) and
sge_priority(5) describe. minige has no share tree or functional policy, so
every job has 0 tickets (and ``ntckts`` is 0.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    """The sched_conf(5) weights of the priority and urgency policies."""

    priority: float = 1.0
    urgency: float = 0.1
    ticket: float = 0.01
    waiting_time: float = 0.0
    deadline: float = 3_600_000.0


def normalize(value: float, low: float, high: float) -> float:
    """``value`` mapped from ``[low, high]`` onto ``[0, 1]``; 0.5 when the range is empty."""
    if high == low:
        return 0.5
    return (value - low) / (high - low)


def normalized(values: Sequence[float]) -> list[float]:
    """Each value normalised over the range of all of them."""
    if not values:
        return []
    low, high = min(values), max(values)
    return [normalize(v, low, high) for v in values]


def priorities(
    posix: Sequence[float], urgency: Sequence[float], tickets: Sequence[float], w: Weights
) -> list[float]:
    """The weighted sum of the normalised POSIX priorities, urgencies and tickets."""
    return [
        w.priority * p + w.urgency * u + w.ticket * t
        for p, u, t in zip(normalized(posix), normalized(urgency), normalized(tickets), strict=True)
    ]
