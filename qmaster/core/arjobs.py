"""Jobs in an advance reservation (``qsub -ar ID``): admission and scheduling.

At submission (and ``qalter -ar`` of a pending job) the AR must exist and be
usable, the user must be in its access list, ``h_rt`` must fit its duration
and the time it has left, and the job may request only what the AR reserved.

They are scheduled by a pass of their own per AR, only while the AR is ``r``
(or ``E`` with soft error handling, ``-he no``: on what remains), and only into what it
reserved: the pass sees the AR's queue instances with the AR's amounts as
their capacity and its running jobs as their bookings. A job is started only
if its ``h_rt`` plus ``DURATION_OFFSET`` ends before the AR does; at the end
of the AR every job still there is deleted, so no job outlives its AR.
"""

from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from qmaster.complexes.levels import Level
from qmaster.complexes.values import ValueParseError, parse_time
from qmaster.core import lifecycle
from qmaster.core.arlife import rebook
from qmaster.core.arlimit import duration_offset
from qmaster.core.armembers import jobs_of
from qmaster.core.ars import LIVE, AdvanceReservation, ArState
from qmaster.core.errors import InvalidRequest, NoSuchObject, PermissionDenied
from qmaster.core.holds import dispatchable_tasks
from qmaster.core.jobs import Identity, Job
from qmaster.core.jobspec import JobSpec
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS
from qmaster.core.view import assemble, job_request
from schedd import Reason, View, schedule
from schedd.reasons import ReasonList

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def has_access(core: Core, ar: AdvanceReservation, who: Identity) -> bool:
    """The user is in the AR's ``-u`` list and not excluded by a ``!`` entry of it."""
    return _listed(core, ar.acl, who) and not _listed(core, ar.xacl, who)


def _listed(core: Core, names: list[str], who: Identity) -> bool:
    """The user is among ``names`` (by name, ``@group`` or ``@userset``)."""
    for entry in names:
        if entry in (who.user, f"@{who.group}"):
            return True
        if entry.startswith("@") and core.config.user_in_lists(who.user, who.group, [entry[1:]]):
            return True
    return False


def runtime(spec: JobSpec) -> float | None:
    text = spec.resource("h_rt")
    if text is None:
        return None
    try:
        return parse_time(str(text))
    except ValueParseError:
        return None


def check_job(core: Core, who: Identity, spec: JobSpec, now: float) -> None:
    """Refuse a job that names an AR it may not use, or does not fit in it."""
    if spec.ar is None:
        return
    ar_id = spec.ar
    ar = core.ars.get(ar_id)
    if ar is None:
        raise NoSuchObject(f"the advance reservation id {ar_id} is invalid")
    if ar.state not in LIVE:
        raise InvalidRequest(f"the advance reservation {ar_id} is no longer available")
    if not has_access(core, ar, who):
        raise PermissionDenied(f'denied: "{who.user}" has no access to advance reservation {ar_id}')
    limit = runtime(spec)
    if limit is not None and limit > ar.duration:
        raise InvalidRequest(
            f"the job duration is longer than duration of the advance reservation id {ar_id}"
        )
    if limit is not None and max(now, ar.start_time) + limit > ar.end_time:
        raise InvalidRequest(
            f"the job duration exceeds the end time of the advance reservation id {ar_id}"
        )
    _check_within(core, ar, who, spec)


NO_SUITABLE_QUEUES = "error: no suitable queues"
"""Grid Engine's refusal: ``-ar`` implies ``-w e`` against what the AR reserved."""


def _check_within(core: Core, ar: AdvanceReservation, who: Identity, spec: JobSpec) -> None:
    """Refuse a job that could not run in the AR even while the AR is otherwise empty.

    The scheduler's own matching is asked, on the AR's queue instances with the
    AR's amounts as their capacity: resources (consumable or not), ``-q``,
    ``-masterq``, the PE and its slots.
    """
    pe = spec.pe_name
    if pe and not (ar.granted_pe and fnmatchcase(ar.granted_pe, pe)):
        raise InvalidRequest(NO_SUITABLE_QUEUES)
    trial = Job(0, who, ar.start_time, spec)
    first = next(iter(trial.all_task_ids()))
    view = ar_view(core, ar, [job_request(trial, [first])], ar.start_time, empty=True)
    if not schedule(view, ar.start_time).orders:
        raise InvalidRequest(NO_SUITABLE_QUEUES)


# -- scheduling --------------------------------------------------------------------


def run_passes(core: Core, now: float, out: Outcome) -> None:
    """Schedule the pending jobs of every AR; say why the others wait."""
    for ar in list(core.ars.values()):
        jobs = [j for j in jobs_of(core, ar.ar_id) if dispatchable_tasks(core, j, now)]
        if not jobs:
            continue
        why = _blocked(ar, now)
        if why is not None:
            for job in jobs:
                core.reasons[job.job_id] = ReasonList(
                    [Reason("ar", "job", str(ar.ar_id), None, None, why)]
                )
            continue
        _pass(core, ar, jobs, now, out)


def _blocked(ar: AdvanceReservation, now: float) -> str | None:
    if ar.state is ArState.ERROR and ar.hard_errors:
        return "is in error state"
    if ar.state not in LIVE:
        return "is no longer available"
    if now < ar.start_time:
        return "has not started yet"
    return None


def _pass(core: Core, ar: AdvanceReservation, jobs: list[Job], now: float, out: Outcome) -> None:
    offset = duration_offset(core)
    fitting: list[Job] = []
    for job in jobs:
        limit = runtime(job.spec)
        if limit is not None and now + limit + offset > ar.end_time:
            text = "it ends before the job's h_rt (plus DURATION_OFFSET) would be over"
            core.reasons[job.job_id] = ReasonList(
                [Reason("ar", "job", str(ar.ar_id), None, None, text)]
            )
        else:
            fitting.append(job)
    if not fitting:
        return
    requests = [job_request(j, dispatchable_tasks(core, j, now)) for j in fitting]
    view = ar_view(core, ar, requests, now)
    plan = schedule(view, now)
    for order in plan.orders:
        lifecycle.dispatch(core, order, now, out)
    core.reasons.update(plan.reasons)
    if plan.orders:
        rebook(core, ar, now)


def ar_view(
    core: Core, ar: AdvanceReservation, requests: list[Any], now: float, *, empty: bool = False
) -> View:
    """The cell as an AR's jobs see it: its queue instances, its amounts, its jobs' use
    (none with ``empty``: what a job could have if it were alone in the AR)."""
    base = assemble(core, requests, now, empty=True)
    reserved: dict[tuple[str, str], dict[str, float]] = {}
    for kind, name, attr, amount in ar.debits:
        at = reserved.setdefault((kind, name), {})
        at[attr] = at.get(attr, 0.0) + amount
    used: dict[tuple[str, str], dict[str, float]] = {}
    for job in [] if empty else jobs_of(core, ar.ar_id):
        for task in job.tasks.values():
            for kind, name, attr, amount in core.booked.by_task.get((job.job_id, task.task_id), ()):
                at = used.setdefault((kind, name), {})
                at[attr] = at.get(attr, 0.0) + amount
    granted = {q for q, _ in ar.granted}
    queues = [q for q in base.queues if q.name in granted]
    for level in [base.global_level, *(q.queue_level for q in queues)]:
        _restrict(level, reserved, used)
    for host in {q.host for q in queues}:
        _restrict(base.host(host).level, reserved, used)
    pes = dict(base.pes)
    if ar.granted_pe and ar.granted_pe in pes:
        pe_used = round(used.get(("pe", ar.granted_pe), {}).get("slots", 0.0))
        pes[ar.granted_pe] = replace(pes[ar.granted_pe], slots=ar.slots, used=pe_used)
    return replace(
        base, queues=queues, pes=pes, max_reservation=0, running=(), ar_queues=frozenset()
    )


def _restrict(
    level: Level,
    reserved: dict[tuple[str, str], dict[str, float]],
    used: dict[tuple[str, str], dict[str, float]],
) -> None:
    mine = reserved.get((level.kind, level.name), {})
    level.capacity = {a: min(cap, mine.get(a, 0.0)) for a, cap in level.capacity.items()}
    level.used = dict(used.get((level.kind, level.name), {}))


HOOKS.ar_passes = run_passes
