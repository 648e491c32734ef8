"""Altering jobs (qalter) and finding the jobs a reference names (qdel: :mod:`deletion`)."""

from __future__ import annotations

import re
from typing import Any

from qmaster.core import lifecycle
from qmaster.core.altertexts import alter_texts
from qmaster.core.arjobs import check_job as check_job_ar
from qmaster.core.errors import CoreError, InvalidRequest, NoSuchObject, PermissionDenied
from qmaster.core.holds import (
    check_hold_change,
    hold_order,
    live_tasks,
    new_holds,
    set_holds,
    start_time_of,
)
from qmaster.core.hostnames import check_path_lists
from qmaster.core.jobchecks import (
    check_array_holds,
    check_deadline,
    check_predecessor_refs,
    check_task_concurrency,
    hold_split,
)
from qmaster.core.jobs import Identity, Job, parse_task_range
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.resources import check_alter_rights
from qmaster.core.running_alter import check_running_change
from qmaster.core.specs import altered_spec, checked_spec, with_full_names
from qmaster.core.stimuli import Alter
from qmaster.core.story import altered
from qmaster.core.submit import (
    check_name,
    task_range,
    validate_spec,
    verification,
)
from qmaster.core.taskids import TaskIds
from qmaster.digits import atol_u32
from qmaster.model import Status, error, ok

Selection = list[tuple[Job, TaskIds | range | None]]  # a job and the task ids a ref names


def select_jobs(core: Core, ref: str, owner: str | None = None) -> Selection:
    """Resolve ``7``, ``7.3``, ``7.1-5:2`` or a job name or pattern to jobs and tasks.

    Names and patterns (sge_types(1) wildcards) select only ``owner``'s jobs
    when ``owner`` is given, as qdel and qalter select them without ``-u``.
    ``name.1-5:2`` is a name with a task range (``qdel name -t 1-5:2``) when
    no job has the whole text as its name. A job id may carry a list of ranges
    (``7.1-1:1,4-4:1``, a word's own range beside its ``-t``): the job comes once
    per range, taken in turn as sge_delete_all_tasks_of_job() takes them.
    """
    head, dot, tasks = ref.partition(".")
    number = atol_u32(head)  # job_list_filter(): a word starting with a digit is atol()'s job
    if number is not None:
        job = core.jobs.get(number)
        if job is None:
            return []
        if not dot:
            return [(job, None)]
        return [(job, parse_task_range(part).ids()) for part in _range_list(tasks)]
    found = _by_name(core, ref, owner, None)
    name, dot, tasks = ref.rpartition(".")
    if not found and dot and name and _RANGE_TEXT.fullmatch(tasks):
        found = _by_name(core, name, owner, parse_task_range(tasks).ids())
    return found


def as_named(job: Job, ids: TaskIds | range | None) -> TaskIds | range | None:
    """The job's own task ids a reference's ids name: a job without ``-t`` is task 1 to
    Grid Engine's clients (``qdel 7.1``, ``qmod -sj 7.1``) and task 0 in minige."""
    if ids is None or job.array:
        return ids
    return range(1) if 1 in ids else range(0)


_RANGE_TEXT = re.compile(r"\d+(-\d+(:\d+)?)?")


def _range_list(tasks: str) -> list[str]:
    """The ranges of a job id's task part: a list of whole ranges, or the text as it is."""
    parts = tasks.split(",")
    return parts if len(parts) > 1 and all(_RANGE_TEXT.fullmatch(p) for p in parts) else [tasks]


def _by_name(core: Core, pattern: str, owner: str | None, ids: TaskIds | range | None) -> Selection:
    return [(core.jobs[i], ids) for i in sorted(core.jobs.matching_any(pattern, owner))]


def named_jobs(
    core: Core,
    refs: list[str],
    out: Outcome,
    owner: str | None = None,
    *,
    deleting: bool = False,
) -> Selection:
    """The jobs (and tasks) ``refs`` name; each ref naming none is answered as Grid Engine does."""
    found: Selection = []
    for ref in refs:
        jobs = select_jobs(core, ref, owner)
        if not jobs:
            out.answers.append(error(_not_found(ref, owner, deleting), Status.EEXIST))
        found.extend(jobs)
    return found


def _not_found(ref: str, owner: str | None, deleting: bool) -> str:
    """empty_job_list_filter()'s text for a job reference that names no job.

    A job id is shown as qdel sent it (its job part, ``7`` for ``7.3``) and as qalter
    sent it (the number, ``7`` for ``007``); qdel looks a name up among the caller's
    jobs only and says so (MSG_SGETEXT_DEL_JOB_SS).
    """
    head = ref.partition(".")[0]
    number = atol_u32(head)
    if number is not None:
        return f'denied: job "{head if deleting else number}" does not exist'
    if deleting and owner is not None:
        return f"The job {ref} of user(s) {owner} does not exist"
    return f'denied: job "{ref}" does not exist'


def _may_touch(core: Core, who: Identity, job: Job) -> bool:
    return job.owner.user == who.user or core.is_operator(who)


def handle_alter(core: Core, args: Alter, now: float, out: Outcome) -> None:
    """qalter: change a job's specification (of a running job, what Grid Engine allows).

    The request passes the server JSV first when one is set (:mod:`qmaster.core.jsvflow`).
    """
    changes = dict(args.job)
    changes.pop("jsv", None)
    changes.pop("CMDNAME", None)
    who = args.identity
    if args.verify in ("v", "p"):
        _verify_alter(core, who, args.job_ids, changes, args.verify, now, out)
        return
    if not changes and args.hold is None:
        raise InvalidRequest("No jobs modified")
    for job, tasks in _alter_targets(core, who, args, out):
        try:
            _alter(core, who, job, changes, out, now, hold_list=args.hold, tasks=tasks)
        except CoreError as exc:
            out.answers.append(exc.to_answer())
    if any(not a.is_error for a in out.answers):
        core.request_pass(now)


def _verify_alter(
    core: Core,
    who: Identity,
    refs: list[str],
    changes: dict[str, Any],
    mode: str,
    now: float,
    out: Outcome,
) -> None:
    """qalter -w v|p: would the job, changed so, find a queue? Nothing is changed."""
    for job, _ in named_jobs(core, refs, out, who.user):
        if not _may_touch(core, who, job):
            out.answers.append(_alter_denied(who, job).to_answer())
            continue
        trial = Job(
            job.job_id, job.owner, job.submit_time, altered_spec(job.spec, changes), job.array
        )
        out.answers.extend(verification(core, trial, mode, now))


def _alter_denied(who: Identity, job: Job) -> PermissionDenied:
    return PermissionDenied(
        f'denied: "{who.user}" must be at least owner of job {job.job_id} to change job attributes'
    )


def _alter(
    core: Core,
    who: Identity,
    job: Job,
    changes: dict[str, Any],
    out: Outcome,
    now: float,
    *,
    hold_list: str | None = None,
    tasks: TaskIds | range | None = None,
) -> None:
    if not _may_touch(core, who, job):
        raise _alter_denied(who, job)
    new = with_full_names(checked_spec(altered_spec(job.spec, changes), now), core.config.complexes)
    if "t_min" in changes:
        raise InvalidRequest("denied: the task range of a submitted job cannot be changed")
    check_alter_rights(who.user, job.priority, changes, operator=core.is_operator(who))
    check_task_concurrency(job, changes)
    check_name(new.name or "")
    task_range(new)
    check_path_lists(core, new, changes)
    new = validate_spec(core, new, job.owner if "P" in changes else None, submitted=False)
    check_running_change(core.config.complexes, job, changes, new)
    start_time_of(new)
    if "dl" in changes:
        check_deadline(core, who, new)
    if "hold_jid" in changes:
        check_predecessor_refs(job.job_id, new.hold_jid or ())
    if "hold_jid_ad" in changes:
        check_array_holds(core, job.job_id, job.owner.user, new, job.array)
    if "ar" in changes:
        check_job_ar(core, job.owner, new, now)
    holds, order = job.holds, []
    if hold_list is not None or "h" in changes:  # the tasks' holds (the others: the job's)
        ids = live_tasks(job, tasks)
        holds = new_holds(job, ids, changes.get("h"), hold_list)
        check_hold_change(core, who, job, job.holds, holds)
        order = hold_order(job, holds, ids, whole=tasks is None)
    texts = alter_texts(who, job, changes, order, lambda refs: hold_split(core, job, refs))
    job.spec = new
    core.jobs.refile(job)
    altered(job.job_id, changes)
    set_holds(job, holds)
    if "a" in changes:
        lifecycle.watch_start_time(core, job, now)
    core.spool_job(out, job)
    out.answers.extend(ok(text) for text in texts)


def _alter_targets(core: Core, who: Identity, args: Alter, out: Outcome) -> Selection:
    """The jobs a qalter names: ids, names and patterns (the caller's), or ``-u`` users' jobs."""
    if args.users is None:
        return named_jobs(core, args.job_ids, out, who.user)
    users = set(args.users)
    picked: Selection = [(j, None) for j in core.jobs.owned_by(users)]
    if not picked:
        raise NoSuchObject(
            "There is no job registered for the following users: " + ",".join(args.users)
        )
    return picked
