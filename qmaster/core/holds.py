"""Why a pending job may not start yet: its holds, and its start time.

Grid Engine keeps three hold bits a job carries (``qsub -h``, ``qalter -h``):
the user hold ``u`` (the owner, operators and managers set and remove it), the
operator hold ``o`` (operators and managers) and the system hold ``s``
(managers). Three more holds are derived from the job's relations, never set:
``hj`` while a ``-hold_jid`` predecessor is in the system, ``hd`` while the
task of the same index of a ``-hold_jid_ad`` predecessor is, and ``ha`` for a
job with a ``-a`` start time. :func:`hold_kinds` names them all as ``qstat -s``
spells them (``hu ho hs hd hj ha``); :func:`has_hold` is the ``qstat -s``
predicate and :func:`is_held` decides the ``h`` of ``hqw``. A job with a
start time in the future is not held (it shows ``qw``) but is not scheduled
before that time (:func:`not_yet`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from qmaster.core.errors import InvalidRequest, NotManager, PermissionDenied
from qmaster.core.jobs import Job, hold_bits
from qmaster.core.jobspec import JobSpec
from qmaster.core.jobtable import job_number
from qmaster.core.states import TaskState
from qmaster.core.story import holds_changed
from qmaster.core.taskids import TaskIds
from qmaster.gdi.localtime import local_epoch
from qmaster.gdi.values import ValueRefused

if TYPE_CHECKING:
    from qmaster.core.jobs import Identity
    from qmaster.core.machine import Core

USER, OPERATOR, SYSTEM = "u", "o", "s"
HOLD_BITS = (USER, OPERATOR, SYSTEM)
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


def hold_kinds(core: Core, job: Job) -> frozenset[str]:
    """Every hold the job has, spelt as ``qstat -s`` spells them."""
    kinds = {f"h{bit}" for bit in job.hold}
    if held_by_jid(core, job):
        kinds.add("hj")
    if ad_held_tasks(core, job):
        kinds.add("hd")
    if job.spec.start_at:
        kinds.add("ha")  # as qstat 6.2 selects: any job with a start time
    return frozenset(kinds)


def hold_letters(core: Core, job: Job) -> frozenset[str]:
    """The letters of :func:`hold_kinds` without their ``h`` (``u o s j d a``)."""
    return frozenset(kind[1] for kind in hold_kinds(core, job))


def has_hold(core: Core, job: Job, wanted: Iterable[str]) -> bool:
    """``qstat -s hu|ho|hs|hd|hj|ha`` (``h``: any of them): has the job one of ``wanted``?"""
    kinds = hold_kinds(core, job)
    return any(kinds if w == "h" else w in kinds for w in wanted)


def is_held(core: Core, job: Job) -> bool:
    """The ``h`` of ``hqw``: a hold bit, or a ``-hold_jid`` predecessor still in the system."""
    return bool(job.hold) or held_by_jid(core, job)


def dispatchable_tasks(core: Core, job: Job, now: float) -> TaskIds:
    """The pending tasks the scheduler may start now (ranges: the scheduler takes as many
    ids as it dispatches, never all of a big array)."""
    if not job.pending or job.verify_wait is not None:
        return TaskIds()  # vqw: the server JSV has not accepted it yet
    if is_held(core, job) or not_yet(job, now):
        return TaskIds()
    waiting = ad_held_tasks(core, job)
    return job.pending - waiting if waiting else job.pending


def new_hold(job: Job, user_hold: object, hold_list: str | None) -> frozenset[str]:
    """The hold bits after a qalter: the JSV parameter ``h`` (the user hold), then -h."""
    hold = job.hold
    if user_hold is not None:
        hold = hold | {USER} if user_hold else hold - {USER}
    return apply_hold_list(hold, hold_list) if hold_list else hold


def set_hold(job: Job, hold: frozenset[str]) -> None:
    """Store the hold bits; the spec's ``h`` (what a JSV sees) follows the user hold."""
    new = hold_bits("".join(hold))
    holds_changed(job.job_id, job.hold, new)
    job.hold = new
    user_hold = True if USER in hold else None
    if job.spec.user_hold is not user_hold:
        job.spec = job.spec.changed(user_hold=user_hold)


def apply_hold_list(current: frozenset[str], letters: str) -> frozenset[str]:
    """qalter -h: ``u o s`` add holds, ``U O S`` remove them, ``n`` removes all."""
    bits = set(current)
    for letter in letters:
        if letter == "n":
            bits.clear()
        elif letter in HOLD_BITS:
            bits.add(letter)
        elif letter.lower() in HOLD_BITS:
            bits.discard(letter.lower())
    return frozenset(bits)


def check_whole_job(job: Job, tasks: range | None) -> None:
    """Holds are kept per job: a task range naming only some of its tasks is refused."""
    if tasks is not None and job.array and not TaskIds.of(job.array.ids()).issubset(tasks):
        raise InvalidRequest(
            f"denied: holds apply to all tasks of job {job.job_id}; minige cannot hold "
            "single tasks (give the job id without a task range)"
        )


_HOLD_NAMES = {USER: "user hold", OPERATOR: "operator hold", SYSTEM: "manager hold"}


def check_hold_change(
    core: Core, who: Identity, job: Job, old: frozenset[str], new: frozenset[str]
) -> None:
    """Who may change which hold: system holds managers, operator holds operators (in
    and managers), user holds the owner and operators; refused in Grid Engine's words."""
    manager = core.is_manager(who)
    operator = core.is_operator(who)
    for bit in (SYSTEM, OPERATOR, USER):
        if (bit in old) == (bit in new):
            continue
        what = ("remove " if bit in old else "set ") + _HOLD_NAMES[bit]
        if bit == SYSTEM and not manager:
            raise NotManager(f'denied: "{who.user}" must be manager to {what}')
        if bit == OPERATOR and not operator:
            raise NotManager(f'denied: "{who.user}" must be operator to {what}')
        if bit == USER and not operator and who.user != job.owner.user:
            raise PermissionDenied(
                f'denied: "{who.user}" must be at least owner of job {job.job_id} to {what}'
            )
