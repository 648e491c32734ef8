"""Jobs in an advance reservation (``qsub -ar ID``): admission and scheduling.

At submission (and ``qalter -ar`` of a pending job) the AR must exist and be
usable, the user must be in its access list, ``h_rt`` must fit its duration
and the time it has left, and the job may request only what the AR reserved.

They are scheduled by a pass of their own per AR, only while the AR is ``r``
(or ``W``: with soft error handling, on what remains), and only into what it
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
from qmaster.complexes.types import Consumable
from qmaster.complexes.values import ValueParseError, parse_time
from qmaster.core import lifecycle
from qmaster.core.arlife import duration_offset, jobs_of, rebook
from qmaster.core.ars import LIVE, AdvanceReservation, ArState
from qmaster.core.errors import InvalidRequest, NoSuchObject, PermissionDenied
from qmaster.core.holds import dispatchable_tasks
from qmaster.core.jobs import Identity, Job
from qmaster.core.outcome import Outcome
from qmaster.core.view import assemble, job_request
from schedd import Reason, View, schedule
from schedd.matching import queue_matches
from schedd.reasons import ReasonList

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def has_access(core: Core, ar: AdvanceReservation, who: Identity) -> bool:
    """The user is in the AR's ``-u`` list (by name, ``@group`` or ``@userset``)."""
    for entry in ar.acl:
        if entry in (who.user, f"@{who.group}"):
            return True
        if entry.startswith("@") and core.config.user_in_lists(who.user, who.group, [entry[1:]]):
            return True
    return False


def runtime(spec: dict[str, Any]) -> float | None:
    text = (spec.get("l_hard") or {}).get("h_rt")
    if text is None:
        return None
    try:
        return parse_time(str(text))
    except ValueParseError:
        return None


def check_job(core: Core, who: Identity, spec: dict[str, Any], now: float) -> None:
    """Refuse a job that names an AR it may not use, or does not fit in it."""
    if spec.get("ar") is None:
        return
    ar_id = int(spec["ar"])
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
    _check_within(core, ar, spec)


def _check_within(core: Core, ar: AdvanceReservation, spec: dict[str, Any]) -> None:
    table = core.config.complexes
    reserved = {
        (table.get(str(k)).name if table.get(str(k)) else str(k)): str(v)  # type: ignore[union-attr]
        for k, v in (ar.spec.get("l_hard") or {}).items()
    }
    for key, text in (spec.get("l_hard") or {}).items():
        entry = table.get(str(key))
        if entry is None or entry.consumable is Consumable.NO or entry.name == "slots":
            continue
        have = reserved.get(entry.name)
        if have is None or float(entry.parse(str(text))) > float(entry.parse(have)):
            raise InvalidRequest(_outside(ar, f"{key}={text}"))
    pe = spec.get("pe_name")
    if pe and not (ar.granted_pe and fnmatchcase(ar.granted_pe, str(pe))):
        raise InvalidRequest(_outside(ar, f"-pe {pe}"))
    if int(spec.get("pe_min") or 1) > ar.slots:
        raise InvalidRequest(_outside(ar, f"{spec.get('pe_min')} slots"))
    names = [q for q, _ in ar.granted]
    for pattern in spec.get("q_hard") or ():
        if not any(_qi_matches(str(pattern), n) for n in names):
            raise InvalidRequest(_outside(ar, f"-q {pattern}"))


def _outside(ar: AdvanceReservation, what: str) -> str:
    return f"denied: the advance reservation {ar.ar_id} does not reserve what the job requests ({what})"


def _qi_matches(pattern: str, name: str) -> bool:
    cqueue, _, host = name.partition("@")
    from schedd import QueueState

    return queue_matches(pattern, QueueState(name, cqueue, host, 0, 0))


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
    if ar.state is ArState.ERROR:
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


def ar_view(core: Core, ar: AdvanceReservation, requests: list[Any], now: float) -> View:
    """The cell as an AR's jobs see it: its queue instances, its amounts, its jobs' use."""
    base = assemble(core, requests, now, empty=True)
    reserved: dict[tuple[str, str], dict[str, float]] = {}
    for kind, name, attr, amount in ar.debits:
        at = reserved.setdefault((kind, name), {})
        at[attr] = at.get(attr, 0.0) + amount
    used: dict[tuple[str, str], dict[str, float]] = {}
    for job in jobs_of(core, ar.ar_id):
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
