"""Why a pending task may not start yet: its holds, and its job's start time.

Grid Engine keeps three holds per task (``qsub -h``, ``qalter -h``, ``qhold``,
``qrls``; :mod:`qmaster.core.taskholds` keeps their range lists): the user hold
``u`` (the owner, operators and managers set and remove it), the operator hold
``o`` (operators and managers) and the system hold ``s`` (managers). Three more
holds are derived from the job's relations, never set: ``hj`` while a
``-hold_jid`` predecessor is in the system, ``hd`` while the task of the same
index of a ``-hold_jid_ad`` predecessor is, and ``ha`` for a job with a ``-a``
start time. :func:`hold_kinds` names them all as ``qstat -s`` spells them (``hu
ho hs hd hj ha``); :func:`pending_groups` splits a job's pending tasks into
qstat's lines by their holds, and :func:`dispatchable_tasks` leaves the held ones
out. A job with a start time in the future is not held (it shows ``qw``) but is
not scheduled before that time (:func:`not_yet`). A qalter of holds acts on the
tasks it names (:func:`live_tasks`, :func:`new_holds`) and answers per task whose
holds changed (:func:`hold_order`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from qmaster.core.errors import InvalidRequest, NotManager, PermissionDenied
from qmaster.core.jobs import Job
from qmaster.core.jobspec import JobSpec
from qmaster.core.jobtable import job_number
from qmaster.core.states import TaskState
from qmaster.core.story import holds_changed
from qmaster.core.taskholds import (
    HOLD_BITS,
    Holds,
    changed,
    changed_bits,
    changed_ids,
    every_task,
    free_pending,
    held,
    hold_groups,
    pending_bits,
    tidy,
    unite,
)
from qmaster.core.taskids import TaskIds
from qmaster.gdi.localtime import local_epoch
from qmaster.gdi.values import ValueRefused

if TYPE_CHECKING:
    from qmaster.core.jobs import Identity
    from qmaster.core.machine import Core

USER, OPERATOR, SYSTEM = HOLD_BITS
QSTAT_HOLDS = ("hu", "ho", "hs", "hd", "hj", "ha")
START_TIME_FORMAT = "%Y%m%d%H%M.%S"  # -a, as the clients send it: CCYYMMDDhhmm.SS, local time


def predecessors_of(core: Core, job: Job, refs: Iterable[object]) -> list[Job]:
    """The jobs in the system that ``refs`` (ids or names of the owner's jobs) name."""
    found: list[Job] = []
    for ref in map(str, refs):
        number = job_number(ref)
        if number is not None:
            other = core.jobs.get(number)
            if other is not None and other.job_id != job.job_id:
                found.append(other)
        else:
            named = core.jobs.matching(job.owner.user, ref) - {job.job_id}
            found.extend(core.jobs[i] for i in sorted(named))
    return found


def held_by_jid(core: Core, job: Job) -> bool:
    """``hj``: a ``-hold_jid`` predecessor has not left the system."""
    refs = job.spec.hold_jid
    return bool(refs) and bool(predecessors_of(core, job, refs or ()))


def _active(job: Job, among: TaskIds) -> TaskIds:
    """The ids of ``among`` that are tasks of ``job`` that left pending and have not finished."""
    tasks = job.tasks
    if len(among) <= len(tasks):
        found = (t for t in among if (x := tasks.get(t)) and x.state is not TaskState.FINISHED)
    else:
        found = (t for t, x in tasks.items() if x.state is not TaskState.FINISHED and t in among)
    return TaskIds.from_ids(found)


def ad_held_tasks(core: Core, job: Job) -> TaskIds:
    """``hd``: pending tasks whose task of the same index in a ``-hold_jid_ad`` job is
    pending or unfinished; it costs the ranges of both jobs, not their pending counts."""
    refs = job.spec.hold_jid_ad
    if not refs or not job.pending:
        return TaskIds()
    free = job.pending
    for before in predecessors_of(core, job, refs):
        free = free - before.pending - _active(before, free)
    return job.pending - free


def start_time(job: Job) -> float | None:
    """The ``-a`` start time as seconds since the epoch, or None."""
    return start_time_of(job.spec)


def start_time_of(spec: JobSpec) -> float | None:
    """A specification's ``-a`` start time (refused when it is not a date_time)."""
    text = spec.start_at
    if not text:
        return None
    return parse_start_time(str(text))


def parse_start_time(text: str) -> float:
    """``CCYYMMDDhhmm.SS`` (local time) as seconds since the epoch; a time the
    daylight-saving change skips is refused, as qrsub refuses it."""
    failure = f'ERROR! Wrong date/time format "{text}" specified to -a option'
    try:
        time.strptime(text, START_TIME_FORMAT)
        return local_epoch(text, failure)
    except ValueRefused as exc:
        raise InvalidRequest(exc.message) from None
    except (ValueError, OverflowError):
        raise InvalidRequest(failure) from None


def not_yet(job: Job, now: float) -> bool:
    """The job's ``-a`` start time has not come: the scheduler leaves it alone."""
    start = start_time(job)
    return start is not None and start > now


def derived_letters(core: Core, job: Job) -> set[str]:
    """The holds that follow from the job's relations: ``j`` (a ``-hold_jid`` predecessor
    in the system), ``d`` (a ``-hold_jid_ad`` wait) and ``a`` (a start time)."""
    letters = set()
    if held_by_jid(core, job):
        letters.add("j")
    if ad_held_tasks(core, job):
        letters.add("d")
    if job.spec.start_at:
        letters.add("a")  # as qstat 6.2 selects: any job with a start time
    return letters


def pending_groups(core: Core, job: Job) -> list[tuple[TaskIds, str, frozenset[str]]]:
    """qstat's rows of the job's pending tasks as handle_jobs_not_enrolled() makes them:
    the ids of each combination of holds (``u o s`` and a ``-hold_jid_ad`` wait) in
    job_create_hold_id_lists()'s order, each ``hqw`` when it has a hold or a ``-hold_jid``
    predecessor is in the system, else ``qw``; with the ``qstat -s`` letters each is
    selected by. Rescheduled tasks without a hold come first, ``Rq``; a job waiting for
    the server JSV is one ``vqw`` row."""
    jid = held_by_jid(core, job)
    extra = {"j"} if jid else set()
    if job.spec.start_at:
        extra.add("a")
    waiting = ad_held_tasks(core, job)
    if job.verify_wait is not None:
        letters = pending_bits(job) | extra | ({"d"} if waiting else set())
        return [(job.pending, "vqw", frozenset(letters))]
    sets = dict(job.holds)
    if waiting:
        sets["a"] = waiting
    every = every_task(job)
    rows: list[tuple[TaskIds, str, frozenset[str]]] = []
    pending = job.pending
    if job.restarted and not jid:
        rerun = TaskIds.from_ids(t for t in job.restarted if t in pending)
        rerun = rerun - unite(every, sets.values()) if sets else rerun
        if rerun:
            rows.append((rerun, "Rq", frozenset(extra)))
            pending = pending - rerun
    for combo, ids in hold_groups(every, pending, sets):
        letters = frozenset({"d" if c == "a" else c for c in combo} | extra)
        rows.append((ids, "hqw" if combo or jid else "qw", letters))
    return rows


def live_bits(job: Job) -> frozenset[str]:
    """The hold bits a pending or started (unfinished) task of the job has."""
    if not job.holds:
        return frozenset()
    bits = set(pending_bits(job))
    for bit, ids in job.holds.items():
        if bit not in bits and any(
            t in ids for t, task in job.tasks.items() if task.state is not TaskState.FINISHED
        ):
            bits.add(bit)
    return frozenset(bits)


def hold_kinds(core: Core, job: Job) -> frozenset[str]:
    """Every hold the job has (a task of it has), spelt as ``qstat -s`` spells them."""
    return frozenset(f"h{letter}" for letter in hold_letters(core, job))


def hold_letters(core: Core, job: Job) -> frozenset[str]:
    """The letters of :func:`hold_kinds` without their ``h`` (``u o s j d a``)."""
    return frozenset(live_bits(job) | derived_letters(core, job))


def has_hold(core: Core, job: Job, wanted: Iterable[str]) -> bool:
    """``qstat -s hu|ho|hs|hd|hj|ha`` (``h``: any of them): has the job one of ``wanted``?"""
    kinds = hold_kinds(core, job)
    return any(kinds if w == "h" else w in kinds for w in wanted)


def is_held(core: Core, job: Job) -> bool:
    """The ``h`` of ``hqw`` for the job as a whole: a pending task with a hold bit, or a
    ``-hold_jid`` predecessor still in the system."""
    return bool(pending_bits(job)) or held_by_jid(core, job)


def dispatchable_tasks(core: Core, job: Job, now: float) -> TaskIds:
    """The pending tasks the scheduler may start now (ranges: the scheduler takes as many
    ids as it dispatches, never all of a big array): those no hold bit holds."""
    if not job.pending or job.verify_wait is not None:
        return TaskIds()  # vqw: the server JSV has not accepted it yet
    if held_by_jid(core, job) or not_yet(job, now):
        return TaskIds()
    free = free_pending(job)
    waiting = ad_held_tasks(core, job) if free else None
    return free - waiting if waiting else free


def new_holds(job: Job, ids: TaskIds, user_hold: object, hold_list: str | None) -> Holds:
    """The holds after a qalter of the tasks ``ids``: the JSV parameter ``h`` (the user
    hold), then -h (``u o s`` add holds, ``U O S`` remove them, ``n`` removes all)."""
    holds, every = job.holds, every_task(job)
    if user_hold is not None:
        holds = changed(every, holds, ids, "u" if user_hold else "U")
    return changed(every, holds, ids, hold_list) if hold_list else holds


def set_holds(job: Job, holds: Holds) -> None:
    """Store the holds; the spec's ``h`` (what a JSV sees) follows the user hold."""
    old, job.holds = job.holds, tidy(holds)
    holds_changed(job.job_id, _story(job, old, job.holds))
    user_hold = True if USER in job.holds else None
    if job.spec.user_hold is not user_hold:
        job.spec = job.spec.changed(user_hold=user_hold)


def _story(job: Job, old: Holds, new: Holds) -> list[str]:
    """``hold u set``, ``hold o removed (tasks 2-4:1)``: what changed, for the job's story."""
    notes = []
    every = every_task(job)
    empty = TaskIds()
    for bit in sorted(HOLD_BITS):
        a, b = old.get(bit, empty), new.get(bit, empty)
        for ids, what in ((b - a, "set"), (a - b, "removed")):
            if ids:
                tasks = "" if ids == every or job.array is None else f" (tasks {ids})"
                notes.append(f"hold {bit} {what}{tasks}")
    return notes


def live_tasks(job: Job, tasks: TaskIds | range | None) -> TaskIds:
    """The tasks a hold change acts on: those of ``tasks`` (all for None) that are pending
    or started and not finished. A job that is no array is task 1 to the clients."""
    every = every_task(job)
    if tasks is not None and job.array is None:
        tasks = every if 1 in tasks else None
        if tasks is None:
            return TaskIds()
    active = TaskIds.from_ids(
        t for t, task in job.tasks.items() if task.state is not TaskState.FINISHED
    )
    live = unite(every, (job.pending, active)) if active else job.pending
    return live if tasks is None else live & tasks


def hold_order(job: Job, new: Holds, ids: TaskIds, *, whole: bool) -> list[int]:
    """The tasks of ``ids`` whose holds ``new`` changes, in the order Grid Engine's qmaster
    answers for them: for a task range in id order; for the whole job the pending tasks
    without a hold, then those with a user, operator, system hold, then the started ones."""
    differ = changed_ids(job, job.holds, new) & ids
    if not whole or not differ:
        return list(differ)
    pending = differ & job.pending
    parts = [pending - held(job)]
    for bit in HOLD_BITS:
        parts.append(pending & job.holds.get(bit, TaskIds()))
    parts.append(differ - pending)
    order: list[int] = []
    seen: set[int] = set()
    for part in parts:
        order += (t for t in part if t not in seen)
        seen.update(part)
    return order


_HOLD_NAMES = {USER: "user hold", OPERATOR: "operator hold", SYSTEM: "manager hold"}


def check_hold_change(core: Core, who: Identity, job: Job, old: Holds, new: Holds) -> None:
    """Who may change which hold: system holds managers, operator holds operators (in
    and managers), user holds the owner and operators; refused in Grid Engine's words."""
    manager = core.is_manager(who)
    operator = core.is_operator(who)
    for bit, gained in sorted(set(changed_bits(old, new)), key=lambda c: "sou".index(c[0])):
        what = ("set " if gained else "remove ") + _HOLD_NAMES[bit]
        if bit == SYSTEM and not manager:
            raise NotManager(f'denied: "{who.user}" must be manager to {what}')
        if bit == OPERATOR and not operator:
            raise NotManager(f'denied: "{who.user}" must be operator to {what}')
        if bit == USER and not operator and who.user != job.owner.user:
            raise PermissionDenied(
                f'denied: "{who.user}" must be at least owner of job {job.job_id} to {what}'
            )
