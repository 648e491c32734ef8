"""The running tasks' bookings over time, kept from pass to pass for reservations.

A pass that plans ahead (``-R y`` jobs with ``max_reservation`` > 0, or
advance reservations) needs every running task's bookings until its expected
end: the start (or dispatch) time plus ``h_rt``, else ``default_duration``.
Building that from every task at every pass, and the scheduler's planner from
it, was most of what reservation cost a pass beyond the search itself. The
:class:`KeptPlan` holds a :class:`~schedd.reservation.RunningPlan` instead and
works a task's entry out again only when something it was worked out from
changed: its bookings (a new tuple of debits), its job's specification (a
qalter of ``h_rt``), its state, its start or dispatch time. Entries that depend
on more (an advance reservation's state, the time of the pass) are worked out
at every pass; a new ``default_duration`` builds it all again.

What each pass adds (its own dispatches, its reservation) lives in the pass's
planner, which copies a key's spans before it books into them: the kept plan
is never written to by a pass. :func:`qmaster.core.schedstate.check_scheduler_caches`
compares it with the plan built from every task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qmaster.complexes.booking import Debit, TaskKey
from qmaster.core.ars import LIVE
from qmaster.core.jobs import Job, Task
from qmaster.core.jobspec import as_map
from qmaster.core.states import TaskState
from schedd.requests import duration
from schedd.reservation import RunningPlan

if TYPE_CHECKING:
    from qmaster.core.machine import Core

KEPT_PLAN_KEY = "kept_plan"
ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)


@dataclass(slots=True)
class _Seen:
    """What a task's entry was worked out from."""

    held: tuple[Debit, ...]
    job: Job | None
    task: Task | None
    spec: Any
    state: TaskState | None
    start: float | None
    dispatch: float | None
    settled: bool
    """Nothing but the fields above decides the entry (else: worked out every pass)."""


class KeptPlan:
    """The running tasks' bookings until their expected end, kept in step with the core."""

    def __init__(self, default: float) -> None:
        self.default = default
        self.plan = RunningPlan()
        self.seen: dict[TaskKey, _Seen] = {}

    def sync(self, core: Core, now: float) -> RunningPlan:
        """Take in what changed since the last pass; the plan as of ``now``."""
        by_task = core.booked.by_task
        seen, plan = self.seen, self.plan
        for key in seen.keys() - by_task.keys():
            del seen[key]
            plan.drop(key)
        live: set[int] | None = None
        for key, held in by_task.items():
            s = seen.get(key)
            if s is not None and s.held is held and s.settled:
                task = s.task
                if task is None:
                    continue
                if (
                    s.job is not None
                    and s.job.spec is s.spec
                    and task.state is s.state
                    and task.start_time == s.start
                    and task.dispatch_time == s.dispatch
                ):
                    continue
            if live is None:
                live = {ar.ar_id for ar in core.ars.values() if ar.state in LIVE}
            self._derive(core, key, held, now, live)
        return plan

    def _derive(
        self, core: Core, key: TaskKey, held: tuple[Debit, ...], now: float, live: set[int]
    ) -> None:
        """The task's entry as a pass built from every task would make it."""
        job_id, task_id = key
        self.plan.drop(key)
        job = core.jobs.get(job_id) if job_id > 0 and held else None
        task = job.tasks.get(task_id) if job is not None else None
        if job is None or task is None:
            # an advance reservation's booking or nothing booked: fixed by the debits
            settled = not (job_id > 0 and held)
            self.seen[key] = _Seen(held, None, None, None, None, None, None, settled)
            return
        spec = job.spec
        seen = _Seen(held, job, task, spec, task.state, task.start_time, task.dispatch_time, True)
        self.seen[key] = seen
        if task.state not in ACTIVE:
            return
        if spec.ar:
            seen.settled = False  # counts once its advance reservation is over
            if spec.ar in live:
                return
        began = task.start_time or task.dispatch_time
        if not began:
            seen.settled = False
            began = now
        self.plan.put(key, held, began + duration(as_map(spec.hard_resources), self.default))


def kept_plan(core: Core, now: float) -> RunningPlan:
    """The core's kept plan brought up to date (built again for a new ``default_duration``)."""
    default = core.config.sched_conf.default_duration
    found = core.derived.get(KEPT_PLAN_KEY)
    kept = found[1] if found is not None else None
    if not isinstance(kept, KeptPlan) or kept.default != default:
        kept = KeptPlan(default)
        core.derived[KEPT_PLAN_KEY] = (None, kept)
    return kept.sync(core, now)
