"""The core's jobs as :mod:`schedd.priority` inputs, and the ``prior`` of each job.

The weights come from the scheduler configuration (``weight_priority``,
``weight_urgency``, ``weight_ticket``, ``weight_waiting_time``,
``weight_deadline``); the urgency of a resource from the complex table. Tickets
are the job's override tickets (``-ot``): without a share tree or functional
shares Grid Engine gives a job no others.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from qmaster.complexes.table import ComplexTable
from qmaster.complexes.values import ValueParseError, parse_double
from qmaster.core.jobs import Job
from schedd.priority import (
    Bounds,
    ComplexUrgency,
    Priority,
    PriorityInput,
    Weights,
    bounds,
    priority_of,
)
from schedd.priority import resource_contribution as _rrcontr

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def _urgency_lookup(table: ComplexTable) -> ComplexUrgency:
    def lookup(name: str) -> tuple[float, bool] | None:
        entry = table.get(name)
        if entry is None:
            return None
        try:
            weight = parse_double(entry.urgency)
        except ValueParseError:
            return None
        return weight, entry.type.is_numeric

    return lookup


def _requests(table: ComplexTable, job: Job) -> dict[str, float | str]:
    parsed: dict[str, float | str] = {}
    for key, text in job.spec.hard_resources or ():
        entry = table.get(str(key))
        if entry is None:
            continue
        try:
            parsed[entry.name] = entry.parse(str(text))
        except ValueParseError:
            continue
    return parsed


def deadline_epoch(value: object) -> float | None:
    """The ``-dl`` deadline (spec key ``dl``, stored as seconds since the epoch), when set."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value:
        return float(value)
    return None


def resource_urgency(core: Core, job: Job) -> float:
    """The job's resource contribution, worked out once per slot count and hard requests
    (and configuration): most jobs ask alike, and nothing is kept per job."""
    hard = job.spec.hard_resources
    key = (job.slots, hard or ())
    same: dict[tuple[int, tuple[tuple[str, str], ...]], float]
    same = core.per_config("rrcontr_by_request", dict, dict)
    rr = same.get(key)
    if rr is None:
        if len(same) > 10_000:
            same.clear()
        table = core.config.complexes
        rr = same[key] = _rrcontr(job.slots, _requests(table, job), _urgency_lookup(table))
    return rr


def priority_input(core: Core, job: Job) -> PriorityInput:
    """One job's priority inputs."""
    rr = resource_urgency(core, job)
    return PriorityInput(
        job_id=job.job_id,
        posix=job.priority,
        submit_time=job.submit_time,
        rrcontr=rr,
        deadline=deadline_epoch(job.spec.deadline),
        tickets=_tickets(job.spec.override_tickets),
    )


def _tickets(value: object) -> float:
    try:
        return max(0.0, float(str(value))) if value not in (None, "") else 0.0
    except ValueError:
        return 0.0


def weights(core: Core) -> Weights:
    """The weights of the current scheduler configuration."""
    return Weights.from_attrs(core.config.sched_conf.attrs)


class JobPriorities:
    """Every job's priority in one pass over the cell; jobs outside it (finished ones)
    are placed against the same ranges."""

    def __init__(self, core: Core, now: float, jobs: Iterable[Job] | None = None) -> None:
        self._core = core
        self._now = now
        self._weights = weights(core)
        self._inputs = {
            j.job_id: priority_input(core, j)
            for j in (core.jobs.values() if jobs is None else jobs)
        }
        self._bounds: Bounds = bounds(self._inputs.values(), self._weights, now)

    def of(self, job: Job) -> Priority:
        """The priority of ``job``."""
        inp = self._inputs.get(job.job_id) or priority_input(self._core, job)
        return priority_of(inp, self._bounds, self._weights, self._now)
