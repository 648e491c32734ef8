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

A pass does not read every running task to find what changed: the bookings note
the tasks booked or released, and the core the jobs whose spool rows it wrote
(every change to a job or task is spooled: a start, a new state, a qalter), each
in a :class:`~qmaster.complexes.booking.Changed` the kept plan takes at the next
pass. Only those tasks, the tasks of those jobs, and the entries worked out at
every pass are looked at again (all of them when the logs lost count, or were
not the kept plan's: a new core's bookings, a new kept plan).

What each pass adds (its own dispatches, its reservation) lives in the pass's
planner, which copies a key's spans before it books into them: the kept plan
is never written to by a pass. :func:`qmaster.core.schedstate.check_scheduler_caches`
compares it with the plan built from every task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qmaster.complexes.booking import Bookings, Changed, Debit, TaskKey
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
        self.unsettled: set[TaskKey] = set()
        """The entries worked out at every pass (``settled`` false)."""
        self.tasks_of: dict[int, set[int]] = {}
        """The tasks of each job with an entry."""
        self.booked: Changed[TaskKey] = Changed()
        self.jobs: Changed[int] = Changed()
        self.bookings: Bookings | None = None
        """The bookings ``booked`` is the log of (and the core's ``jobs``)."""

    def sync(self, core: Core, now: float) -> RunningPlan:
        """Take in what changed since the last pass; the plan as of ``now``."""
        booked = core.booked
        if (
            self.bookings is not booked
            or booked.watch is not self.booked
            or core.job_watch is not self.jobs
        ):
            self.bookings, booked.watch, core.job_watch = booked, self.booked, self.jobs
            self.booked.lose()
        tasks, jobs = self.booked.take(), self.jobs.take()
        if tasks is None or jobs is None:
            self._sync_all(core, now)
            return self.plan
        look = tasks | self.unsettled
        for job_id in jobs:
            found = self.tasks_of.get(job_id)
            if found:
                look.update((job_id, task_id) for task_id in found)
        by_task, live = booked.by_task, None
        for key in sorted(look):
            held = by_task.get(key)
            if held is None:
                self._forget(key)
            elif self._changed(key, held):
                if live is None:
                    live = {ar.ar_id for ar in core.ars.values() if ar.state in LIVE}
                self._derive(core, key, held, now, live)
        return self.plan

    def _sync_all(self, core: Core, now: float) -> None:
        """Look at every running task."""
        by_task = core.booked.by_task
        for key in self.seen.keys() - by_task.keys():
            self._forget(key)
        live: set[int] | None = None
        for key, held in by_task.items():
            if not self._changed(key, held):
                continue
            if live is None:
                live = {ar.ar_id for ar in core.ars.values() if ar.state in LIVE}
            self._derive(core, key, held, now, live)

    def _changed(self, key: TaskKey, held: tuple[Debit, ...]) -> bool:
        """The task's entry may differ from the one worked out before."""
        s = self.seen.get(key)
        if s is not None and s.held is held and s.settled:
            task = s.task
            if task is None:
                return False
            if (
                s.job is not None
                and s.job.spec is s.spec
                and task.state is s.state
                and task.start_time == s.start
                and task.dispatch_time == s.dispatch
            ):
                return False
        return True

    def _forget(self, key: TaskKey) -> None:
        """The task books nothing any more."""
        if self.seen.pop(key, None) is None:
            return
        self.plan.drop(key)
        self.unsettled.discard(key)
        found = self.tasks_of.get(key[0])
        if found is not None:
            found.discard(key[1])
            if not found:
                del self.tasks_of[key[0]]

    def _keep(self, key: TaskKey, seen: _Seen) -> None:
        """The task's entry is worked out from ``seen`` (its ``settled`` final)."""
        self.seen[key] = seen
        self.tasks_of.setdefault(key[0], set()).add(key[1])
        if seen.settled:
            self.unsettled.discard(key)
        else:
            self.unsettled.add(key)

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
            self._keep(key, _Seen(held, None, None, None, None, None, None, settled))
            return
        spec = job.spec
        seen = _Seen(held, job, task, spec, task.state, task.start_time, task.dispatch_time, True)
        if task.state not in ACTIVE:
            self._keep(key, seen)
            return
        if spec.ar:
            seen.settled = False  # counts once its advance reservation is over
            if spec.ar in live:
                self._keep(key, seen)
                return
        began = task.start_time or task.dispatch_time
        if not began:
            seen.settled = False
            began = now
        self._keep(key, seen)
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
