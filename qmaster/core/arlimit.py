"""How long a job in an advance reservation may run: never past the AR's end.

Grid Engine cuts the runtime limit of a job started in an AR to the AR's end
minus ``DURATION_OFFSET`` (sched_conf(5) ``params``, 60 s by default), so the
job is ended by its ``h_rt`` limit before the AR ends instead of being
deleted with it. Kept apart from the AR's life (:mod:`qmaster.core.arlife`)
so that the task life (:mod:`qmaster.core.lifecycle`) can ask without a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.complexes.values import ValueParseError, parse_time
from qmaster.core.jobs import Job

if TYPE_CHECKING:
    from qmaster.core.machine import Core

DEFAULT_DURATION_OFFSET = 60.0


def duration_offset(core: Core) -> float:
    """``DURATION_OFFSET`` of the scheduler's ``params`` (sched_conf(5)), 60 s by default."""
    for item in core.config.sched_conf.attrs.get("params", "none").replace(",", " ").split():
        name, _, value = item.partition("=")
        if name.upper() == "DURATION_OFFSET":
            try:
                return parse_time(value)
            except ValueParseError:
                break
    return DEFAULT_DURATION_OFFSET


def ar_runtime_limit(core: Core, job: Job, start: float, h_rt: float | None) -> float | None:
    """``h_rt`` of a task started at ``start``, cut to its AR's end minus DURATION_OFFSET."""
    ar = core.ars.get(job.spec.ar or 0)
    if ar is None:
        return h_rt
    left = max(ar.end_time - duration_offset(core) - start, 0.0)
    return left if h_rt is None else min(h_rt, left)
