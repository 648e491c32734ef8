"""Grid Engine's job priority: the ``prior`` column of qstat and the order of dispatch.

As ``sgeee.c`` and ``sge_urgency.c`` of Grid Engine 6.2u5 compute it::

    prio = weight_priority * npprior + weight_urgency * nurg + weight_ticket * ntckts

- ``npprior``: the POSIX priority (``-p``, -1023..1024) stored as ``p + 1024`` and
  normalised over the fixed range 0..2048, so ``-p 0`` gives 0.5;
- ``nurg``: the job's urgency normalised between the lowest and highest
  urgency of the jobs in the cell; urgency is the resource contribution (each
  hard request's complex urgency, times the value and the slots for numeric
  types; ``slots`` always counts), plus ``weight_waiting_time`` times the
  seconds since submission, plus ``weight_deadline`` divided by the seconds
  left to the deadline (at most ``weight_deadline``);
- ``ntckts``: the job's tickets normalised over 0..the most tickets of any job.
  Without a share tree or functional shares, tickets are the override tickets.

A normalisation over an empty range gives 0.5, as ``sge_normalize_value`` does.
Pure: the caller passes ``now`` and the jobs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

#: ``BASE_PRIORITY``: the stored POSIX priority is ``p + 1024``, normalised over 0..2048.
BASE_PRIORITY = 1024
MAX_PRIORITY = 2048


def normalize(value: float, low: float, high: float) -> float:
    """``(value - low) / (high - low)``, or 0.5 when the range is empty."""
    if high <= low:
        return 0.5
    return (value - low) / (high - low)


def npprior(posix: int) -> float:
    """The normalised POSIX priority of ``-p posix``."""
    return normalize(posix + BASE_PRIORITY, 0, MAX_PRIORITY)


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of sched_conf(5) that make up a job's priority."""

    priority: float = 1.0
    urgency: float = 0.1
    ticket: float = 0.01
    waiting_time: float = 0.0
    deadline: float = 3600000.0

    @classmethod
    def from_attrs(cls, attrs: Mapping[str, str]) -> Weights:
        """From the scheduler configuration's attributes (``weight_priority`` ...)."""
        base = cls()

        def get(name: str, default: float) -> float:
            try:
                return float(attrs.get(f"weight_{name}", default))
            except ValueError:
                return default

        return cls(
            priority=get("priority", base.priority),
            urgency=get("urgency", base.urgency),
            ticket=get("ticket", base.ticket),
            waiting_time=get("waiting_time", base.waiting_time),
            deadline=get("deadline", base.deadline),
        )


@dataclass(frozen=True, slots=True)
class PriorityInput:
    """What a job's priority is made of."""

    job_id: int
    posix: int
    submit_time: float
    rrcontr: float = 0.0
    deadline: float | None = None
    tickets: float = 0.0


@dataclass(frozen=True, slots=True)
class Priority:
    """One job's priority and its parts, as ``qstat -pri``/``-urg`` would show them."""

    prio: float
    npprior: float
    nurg: float
    ntckts: float
    urg: float
    rrcontr: float
    wtcontr: float
    dlcontr: float


@dataclass(frozen=True, slots=True)
class Bounds:
    """The urgency and ticket ranges of the jobs a normalisation runs over."""

    min_urg: float
    max_urg: float
    max_tix: float


#: The urgency weight and value type of a complex: ``(urgency, numeric)``.
ComplexUrgency = Callable[[str], tuple[float, bool] | None]


def resource_contribution(
    slots: int, requests: Mapping[str, float | str], complex_urgency: ComplexUrgency
) -> float:
    """``rrcontr``: ``slots`` and each hard request weighted by its complex's urgency.

    A numeric request adds ``value * urgency * slots``; a string one adds
    ``urgency``. ``requests`` hold parsed values (numbers for numeric types).
    """
    total = 0.0
    slot_entry = complex_urgency("slots")
    if slot_entry is not None:
        total += slots * slot_entry[0] * 1.0
    for name, value in requests.items():
        entry = complex_urgency(name)
        if entry is None or name == "slots":
            continue
        weight, numeric = entry
        if weight == 0:
            continue
        if numeric and isinstance(value, int | float) and math.isfinite(value):
            total += float(value) * weight * slots
        elif not numeric:
            total += weight
    return total


def _contributions(job: PriorityInput, weights: Weights, now: float) -> tuple[float, float]:
    wtcontr = weights.waiting_time * max(0.0, now - job.submit_time)
    dlcontr = 0.0
    if job.deadline is not None:
        dlcontr = weights.deadline / max(1.0, job.deadline - now)
    return wtcontr, dlcontr


def urgency(job: PriorityInput, weights: Weights, now: float) -> float:
    """The job's (not yet normalised) urgency."""
    wtcontr, dlcontr = _contributions(job, weights, now)
    return job.rrcontr + wtcontr + dlcontr


def bounds(jobs: Iterable[PriorityInput], weights: Weights, now: float) -> Bounds:
    """The ranges a set of jobs normalises over (one pass)."""
    lo, hi, tix = math.inf, -math.inf, 0.0
    for job in jobs:
        urg = urgency(job, weights, now)
        lo, hi, tix = min(lo, urg), max(hi, urg), max(tix, job.tickets)
    if lo > hi:
        lo = hi = 0.0
    return Bounds(lo, hi, tix)


def priority_of(job: PriorityInput, limits: Bounds, weights: Weights, now: float) -> Priority:
    """One job's priority against the ranges of the jobs it is compared with."""
    wtcontr, dlcontr = _contributions(job, weights, now)
    urg = job.rrcontr + wtcontr + dlcontr
    nurg = min(1.0, max(0.0, normalize(urg, limits.min_urg, limits.max_urg)))
    ntix = min(1.0, max(0.0, normalize(job.tickets, 0.0, limits.max_tix)))
    npri = npprior(job.posix)
    prio = weights.priority * npri + weights.urgency * nurg + weights.ticket * ntix
    return Priority(prio, npri, nurg, ntix, urg, job.rrcontr, wtcontr, dlcontr)


def job_priorities(
    jobs: Sequence[PriorityInput], weights: Weights, now: float
) -> dict[int, Priority]:
    """Every job's priority, normalised over these jobs (what ``qstat`` shows)."""
    limits = bounds(jobs, weights, now)
    return {job.job_id: priority_of(job, limits, weights, now) for job in jobs}


def normalized(values: Sequence[float]) -> list[float]:
    """Each value normalised over the range of all of them."""
    if not values:
        return []
    low, high = min(values), max(values)
    return [normalize(v, low, high) for v in values]


def priorities(
    posix: Sequence[int], urgencies: Sequence[float], tickets: Sequence[float], w: Weights
) -> list[float]:
    """The dispatch priorities of a pass's jobs, in their order (as :func:`priority_of`).

    The POSIX priority is normalised over its fixed range, urgency over the jobs
    given, tickets over 0..the most tickets among them.
    """
    nurg = [min(1.0, max(0.0, u)) for u in normalized(urgencies)]
    most = max(tickets, default=0.0)
    return [
        w.priority * npprior(p) + w.urgency * u + w.ticket * normalize(t, 0.0, most)
        for p, u, t in zip(posix, nurg, tickets, strict=True)
    ]
