"""Checked invariants: what the core keeps, recomputed from scratch and compared.

The core caches much of its state (bookings per level, timers, the pending
lists, the sets of jobs waiting for something) and updates it as stimuli
arrive. :func:`validate_state` recomputes each piece from the primary data
(jobs, tasks, ARs, configuration, time) and raises :class:`InvalidState`
listing every difference. It never changes the core.

The checks are a table, :data:`CHECKS`: a check is a function
``(core) -> list[str]`` returning its problems, and adding one is one line::

    CHECKS["scheduler caches"] = check_scheduler_caches

Spool rows are compared when the caller has a spool image at hand (a
:class:`~qmaster.core.spool_image.SpoolImage` kept from every outcome's rows,
or loaded from a real spool).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator

from qmaster.conf import fields as f
from qmaster.core import armembers
from qmaster.core.arlife import booking_key
from qmaster.core.armembers import jobs_of
from qmaster.core.ars import LIVE
from qmaster.core.bookcheck import kept_by_bookings
from qmaster.core.errors import InvalidRequest
from qmaster.core.holds import start_time
from qmaster.core.jobs import Job, Task
from qmaster.core.jobtable import index_problems
from qmaster.core.jsvflow import check_questions
from qmaster.core.lifecycle import START_TIME
from qmaster.core.machine import Core
from qmaster.core.qcalendar import TIMER as CALENDAR_TIMER
from qmaster.core.qcalendar import calendar_letters
from qmaster.core.registry import HOOKS
from qmaster.core.schedstate import check_scheduler_caches
from qmaster.core.spool_image import SpoolImage, spool_problems
from qmaster.core.states import ACTIVE, TaskState
from qmaster.core.taskholds import HOLD_BITS, every_task

Check = Callable[[Core], list[str]]
_EPSILON = 1e-6


class InvalidState(Exception):
    """The core's state breaks its invariants; ``problems`` lists every broken one."""

    def __init__(self, problems: list[str]) -> None:
        shown = "\n  ".join(problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(
            f"the core's state is invalid ({len(problems)} problems):\n  {shown}{more}"
        )
        self.problems = problems


def _tasks(core: Core) -> Iterator[tuple[Job, Task]]:
    for job in core.jobs.values():
        for task in job.tasks.values():
            yield job, task


def _timers(core: Core) -> dict[tuple[str, int, int], list[float]]:
    found: dict[tuple[str, int, int], list[float]] = {}
    for timer in core.timer_list():
        found.setdefault((timer.kind, timer.job_id, timer.task_id), []).append(timer.at)
    return found


def _due(
    timers: dict[tuple[str, int, int], list[float]], key: tuple[str, int, int], now: float
) -> bool:
    return any(at <= now for at in timers.get(key, ()))


# -- the checks ------------------------------------------------------------------------


def check_pending_sets(core: Core) -> list[str]:
    """Every task id of a job is either pending or has a Task, never both; finished jobs are gone."""
    problems: list[str] = []
    for job_id, job in core.jobs.items():
        name = f"job {job_id}"
        if job.job_id != job_id:
            problems.append(f"{name} is kept under the id {job_id} but says {job.job_id}")
        ids = job.all_task_ids()
        pending = job.pending  # compact ranges: checked on ranges, never id by id
        both = sorted(t for t in job.tasks if t in pending)
        if both:
            problems.append(f"{name}: tasks {both} are pending and have a task object")
        unknown = sorted(t for t in job.tasks if t not in ids)
        if not pending.issubset(ids):
            unknown += (pending - ids).take(10)
        if unknown:
            problems.append(f"{name}: task ids {unknown} are outside its range")
        missing = len(job.derived_pending() - pending)
        if missing > 0:
            problems.append(f"{name}: {missing} of its tasks are neither pending nor known")
        waiting = [t for t, task in job.tasks.items() if task.state is TaskState.PENDING]
        if waiting:
            problems.append(f"{name}: tasks {waiting} are pending but kept as task objects")
        if job.is_finished():
            problems.append(f"{name}: every task has finished but the job is still kept")
        if not all(t in ids for t in job.restarted):
            problems.append(f"{name}: restarted tasks {sorted(job.restarted)} outside its range")
    counted = Counter(job.owner.user for job in core.jobs.values())
    if counted != +core.user_jobs:
        problems.append(f"jobs per user: kept {dict(core.user_jobs)}, counted {dict(counted)}")
    return problems


def check_tasks(core: Core) -> list[str]:
    """Each task's fields agree with its state."""
    problems: list[str] = []
    for job, task in _tasks(core):
        name = f"task {job.job_id}.{task.task_id}"
        state = task.state
        if state in ACTIVE and not task.assignment:
            problems.append(f"{name} is {state.value} without an assignment")
        if state in (TaskState.RUNNING,) and task.start_time is None:
            problems.append(f"{name} is running without a start time")
        if state is TaskState.FINISHED and task.end_time is None:
            problems.append(f"{name} has finished without an end time")
        if task.suspended and state not in (TaskState.RUNNING, TaskState.DELETING):
            problems.append(f"{name} is {state.value} and suspended ({task.suspended})")
        if task.suspended and task.remaining is None:
            problems.append(f"{name} is suspended without the runtime it has left")
        if set(task.suspended) - {"s", "S"}:
            problems.append(f"{name}: unknown suspension reasons {task.suspended!r}")
    return problems


def check_holds(core: Core) -> list[str]:
    """Hold bits are Grid Engine's three, each holding some ids of the job's range, and
    the spec's ``h`` follows the user hold."""
    problems: list[str] = []
    for job in core.jobs.values():
        if not job.holds.keys() <= set(HOLD_BITS):
            problems.append(f"job {job.job_id}: unknown hold bits {sorted(job.holds)}")
        every = every_task(job)
        for bit, ids in job.holds.items():
            if not ids or not ids.issubset(every):
                problems.append(f"job {job.job_id}: hold {bit} holds {ids!r}, not of {every}")
        if ("u" in job.holds) != bool(job.spec.user_hold):
            problems.append(
                f"job {job.job_id}: user hold {'u' in job.holds} but its spec says h={job.spec.user_hold}"
            )
    return problems


def check_verification_waits(core: Core) -> list[str]:
    """Jobs waiting for the server JSV are exactly the ones the core lists as waiting."""
    waiting = {j.job_id for j in core.jobs.values() if j.verify_wait is not None}
    problems = [
        f"job {i} waits for verification but is not listed"
        for i in sorted(waiting - core.verify_waiting)
    ]
    problems += [
        f"job {i} is listed as waiting for verification but does not wait"
        for i in sorted(core.verify_waiting - waiting)
    ]
    return problems + check_questions(core, waiting)


def _task_slots(debits: tuple[tuple[str, str, str, float], ...]) -> dict[str, float]:
    slots: dict[str, float] = {}
    for kind, name, attr, amount in debits:
        if kind == "queue" and attr == "slots":
            slots[name] = slots.get(name, 0.0) + amount
    return slots


def check_bookings(core: Core) -> list[str]:
    """Bookings: one per active task (its assignment's slots), one per AR in its window, and
    the totals per level the sum of them all."""
    problems: list[str] = []
    booked = core.booked
    active = {(j.job_id, t.task_id): (j, t) for j, t in _tasks(core) if t.state in ACTIVE}
    tasks_booked = {key for key in booked.by_task if key[0] > 0}
    for key in sorted(active.keys() - tasks_booked):
        problems.append(f"task {key[0]}.{key[1]} is {active[key][1].state.value} and books nothing")
    for key in sorted(tasks_booked - active.keys()):
        problems.append(
            f"task {key[0]}.{key[1]} is not active but still books {booked.by_task[key]}"
        )
    for key in sorted(active.keys() & tasks_booked):
        kept = active[key][1].debits
        if kept and tuple(kept) != tuple(booked.by_task[key]):
            problems.append(
                f"task {key[0]}.{key[1]} books {booked.by_task[key]}, dispatched {kept}"
            )
        want = {q: float(n) for q, n in active[key][1].assignment}
        have = _task_slots(booked.by_task[key])
        if want.keys() != have.keys() or any(abs(want[q] - have[q]) > _EPSILON for q in want):
            problems.append(f"task {key[0]}.{key[1]} books slots {have}, its assignment is {want}")
    problems += _ar_bookings(core)
    total: dict[tuple[str, str], dict[str, float]] = {}
    for debits in booked.by_task.values():
        for kind, name, attr, amount in debits:
            level = total.setdefault((kind, name), {})
            level[attr] = level.get(attr, 0.0) + amount
    for level_key in sorted(total.keys() | booked.used.keys()):
        want_level = {a: v for a, v in total.get(level_key, {}).items() if abs(v) > _EPSILON}
        have_level = booked.used.get(level_key, {})
        for attr in want_level.keys() | have_level.keys():
            if abs(want_level.get(attr, 0.0) - have_level.get(attr, 0.0)) > _EPSILON:
                problems.append(
                    f"booked {attr} at {level_key}: kept {have_level.get(attr, 0.0)}, "
                    f"its tasks and ARs hold {want_level.get(attr, 0.0)}"
                )
    problems += kept_by_bookings(core)
    return problems


def _ar_bookings(core: Core) -> list[str]:
    """What each AR books live: what it reserved minus what its jobs hold, inside its window."""
    problems: list[str] = []
    now = core.now
    timers = _timers(core)
    keys = {booking_key(ar): ar for ar in core.ars.values()}
    for key in sorted(k for k in core.booked.by_task if k[0] <= 0 and k not in keys):
        problems.append(f"booking {key} belongs to no advance reservation")
    for ar in core.ars.values():
        if _due(timers, ("ar_start", ar.ar_id, 0), now) or _due(
            timers, ("ar_end", ar.ar_id, 0), now
        ):
            continue  # its timer fires at the next tick
        want: dict[tuple[str, str, str], float] = {}
        if ar.state in LIVE and ar.in_window(now):
            for kind, name, attr, amount in ar.debits:
                want[(kind, name, attr)] = want.get((kind, name, attr), 0.0) + amount
            for job in jobs_of(core, ar.ar_id):
                for task in job.tasks.values():
                    for kind, name, attr, amount in core.booked.by_task.get(
                        (job.job_id, task.task_id), ()
                    ):
                        if (kind, name, attr) in want:
                            want[(kind, name, attr)] -= amount
        want = {k: v for k, v in want.items() if v > 1e-9}
        have: dict[tuple[str, str, str], float] = {}
        for kind, name, attr, amount in core.booked.by_task.get(booking_key(ar), ()):
            have[(kind, name, attr)] = have.get((kind, name, attr), 0.0) + amount
        if want.keys() != have.keys() or any(abs(want[k] - have[k]) > _EPSILON for k in want):
            problems.append(
                f"advance reservation {ar.ar_id} ({ar.state.value}) books {have}, should {want}"
            )
    if set(core.ar_calendar.owners) != set(core.ars):
        problems.append(
            f"the AR calendar holds {sorted(map(str, core.ar_calendar.owners))}, the core {sorted(core.ars)}"
        )
    return problems


def check_task_timers(core: Core) -> list[str]:
    """Every task that waits for time has its timer: ``t`` its start, ``r`` and ``dr`` their end;
    a job waiting for its ``-a`` start time its start-time timer."""
    problems: list[str] = []
    timers = _timers(core)
    for job, task in _tasks(core):
        name = f"task {job.job_id}.{task.task_id}"
        key_start = ("start", job.job_id, task.task_id)
        key_end = ("end", job.job_id, task.task_id)
        if task.state is TaskState.TRANSFERRING and key_start not in timers:
            problems.append(f"{name} is t with no start timer")
        elif task.state is TaskState.DELETING and key_end not in timers:
            problems.append(f"{name} is being deleted with no end timer")
        elif task.state is TaskState.RUNNING and not task.suspended:
            if task.plan is None:
                problems.append(f"{name} runs without a planned end")
            elif task.plan[0] != math.inf and not any(  # a local task's end is reported
                at <= task.plan[0] + _EPSILON for at in timers.get(key_end, ())
            ):
                problems.append(f"{name} runs with no end timer at or before {task.plan[0]}")
    for job in core.jobs.values():
        at = _start_time(job)
        if at is None or at <= core.now or not job.pending:
            continue
        if not any(abs(t - at) <= _EPSILON for t in timers.get((START_TIME, job.job_id, 0), ())):
            problems.append(f"job {job.job_id} waits for its start time {at} with no timer for it")
    return problems


def _start_time(job: Job) -> float | None:
    try:
        return start_time(job)
    except InvalidRequest:
        return None


def check_ar_timers(core: Core) -> list[str]:
    """Each AR has its end timer, and one that has not started its start timer."""
    problems: list[str] = []
    timers = _timers(core)
    for ar in core.ars.values():
        name = f"advance reservation {ar.ar_id}"
        if not any(at <= ar.end_time + _EPSILON for at in timers.get(("ar_end", ar.ar_id, 0), ())):
            problems.append(f"{name} ({ar.state.value}) has no end timer")
        waiting = ar.state in LIVE and ar.start_time > core.now
        if waiting and not any(
            at <= ar.start_time + _EPSILON for at in timers.get(("ar_start", ar.ar_id, 0), ())
        ):
            problems.append(f"{name} waits for its start with no start timer")
    return problems


def check_calendars(core: Core) -> list[str]:
    """Queue instances' calendar states are the calendars' states now, and the next change
    has its timer."""
    timers = core.timer_list()
    calendar_timers = [t.at for t in timers if t.kind == CALENDAR_TIMER]
    if any(at <= core.now for at in calendar_timers):
        return []  # the states are taken into use at the next tick
    letters, next_at = calendar_letters(core, core.now)
    problems: list[str] = []
    if letters != core.qi_calendar:
        problems.append(f"calendar states: kept {core.qi_calendar}, calendars say {letters}")
    if next_at is not None and not any(at <= next_at + _EPSILON for at in calendar_timers):
        problems.append(f"the calendars change at {next_at} with no timer for it")
    used = {qi.attrs.get("calendar", "NONE") for qi in core.config.queue_instances()}
    unknown = {c for c in used if not f.is_none(c) and c not in core.config.calendars}
    if unknown:
        problems.append(f"queues use unknown calendars {sorted(unknown)}")
    return problems


def check_ar_jobs(core: Core) -> list[str]:
    """A job submitted into an advance reservation goes before its AR does."""
    return [
        f"job {job.job_id} is in advance reservation {job.spec.ar}, which is gone"
        for job in core.jobs.values()
        if job.spec.ar and job.spec.ar not in core.ars
    ]


def check_timer_heap(core: Core) -> list[str]:
    """The timers are a heap: the earliest is always the next to fire."""
    heap = core.timer_list()
    bad = [i for i in range(1, len(heap)) if heap[(i - 1) // 2] > heap[i]]
    return [f"the timer heap is out of order at {bad[:5]}"] if bad else []


CHECKS: dict[str, Check] = {
    "pending sets": check_pending_sets,
    "tasks": check_tasks,
    "holds": check_holds,
    "verification waits": check_verification_waits,
    "bookings": check_bookings,
    "task timers": check_task_timers,
    "advance reservation timers": check_ar_timers,
    "calendars": check_calendars,
    "advance reservation jobs": check_ar_jobs,
    "timer heap": check_timer_heap,
    "advance reservation members": armembers.check,
    "job table": lambda core: index_problems(core.jobs),
}

THOROUGH_CHECKS: dict[str, Check] = {
    "scheduler caches": check_scheduler_caches,
}
"""Checks that rebuild whole structures (every level, every job's request): run by
``validate_state`` unless asked for the quick checks only (the unit tests' per-stimulus
checks), and always at the end of a test."""
"""Every check run by :func:`validate_state`, by name."""


def problems(core: Core, written: SpoolImage | None = None, *, thorough: bool = True) -> list[str]:
    """Every broken invariant, each prefixed with the name of its check."""
    found: list[str] = []
    checks = CHECKS | THOROUGH_CHECKS if thorough else CHECKS
    for name, check in checks.items():
        found.extend(f"{name}: {p}" for p in check(core))
    if written is not None:
        found.extend(f"spool: {p}" for p in spool_problems(core, written))
    return found


def validate_state(core: Core, written: SpoolImage | None = None, *, thorough: bool = True) -> None:
    """Raise :class:`InvalidState` listing every broken invariant, or return."""
    found = problems(core, written, thorough=thorough)
    if found:
        raise InvalidState(found)


HOOKS.validate = validate_state
