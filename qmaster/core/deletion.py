"""qdel in the qmaster: Grid Engine's sge_gdi_del_job() for each job reference.

qdel sends its job references one by one (ID elements), each with the ``-u`` user
list; without references but with users it sends one reference "0" (every job of
those users). For each reference the qmaster:

- refuses ``-f`` of a user who is no manager unless ``qmaster_params`` has
  ``ENABLE_FORCED_QDEL`` (qdel first deletes such a user's jobs without force);
- reads ``*`` among the users as "all users" (then only a manager may name no job:
  ``denied: "bob" must be manager to modify all jobs``); otherwise the users are
  patterns the job owner must match (``JB_owner p= user``); a job name or pattern
  without users is looked up among the caller's own jobs;
- deletes the matching jobs (and tasks) the caller may touch, in job order, and
  answers each job it may not with ``bob - you do not have the necessary privileges
  to delete the job "7"``;
- when it touched nothing, answers as empty_job_list_filter(): ``denied: job "7" does
  not exist``, ``job "7" task "5" does not exist``, ``job "7" task id range "5-10:2"
  comprises no tasks`` (a job matched, its tasks did not), each with ``for user(s)``,
  ``under user(s)`` or ``The job 7 of user(s) u does not exist`` when it filtered by
  users, ``There is no job registered for the following users: u`` (users, no job),
  ``There are no jobs registered`` (all users, no job).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from qmaster.core import lifecycle
from qmaster.core.control import Selection, as_named, select_jobs
from qmaster.core.errors import PermissionDenied
from qmaster.core.jobs import Identity, Job, format_id_runs
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import handler
from qmaster.core.states import TaskState
from qmaster.core.stimuli import Delete
from qmaster.core.taskids import TaskIds
from qmaster.digits import atol_u32
from qmaster.model import Status, error, ok

ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING)
SHOWN_USERS = 20  # empty_job_list_filter(): umax
_RANGE = re.compile(r"(\d+)(?:-(\d+)(?::(\d+))?)?")


@dataclass(frozen=True, slots=True)
class _Filter:
    """The users a reference is filtered by (sge_gdi_del_job()'s flags)."""

    all_users: bool
    owners: list[str] | None  # user_list_flag: the owner must match one of these


@handler(Delete)
def handle_delete(core: Core, args: Delete, now: float, out: Outcome) -> None:
    """qdel: delete pending tasks at once; running ones are registered for deletion."""
    who = args.identity
    if args.force and not core.is_manager(who) and not _forced_qdel_enabled(core):
        raise PermissionDenied(f'"{who.user}" - forcing a job deletion requires manager privileges')
    users = list(args.users or [])
    refs: list[str | None] = list(args.job_ids) if args.job_ids else [None]
    if not args.job_ids and not users:
        return
    for ref in refs:
        _delete_ref(core, who, ref, users, args.force, now, out)


def _filter(who: Identity, ref: str | None, users: list[str]) -> _Filter:
    if "*" in users:
        return _Filter(True, None)
    if users:
        return _Filter(False, users)
    if ref is not None and not _is_id(ref):
        return _Filter(False, [who.user])  # a name: the caller's jobs only
    return _Filter(False, None)


def _delete_ref(
    core: Core,
    who: Identity,
    ref: str | None,
    users: list[str],
    force: bool,
    now: float,
    out: Outcome,
) -> None:
    """One reference (or none: the users' jobs), as sge_gdi_del_job() takes an ID element."""
    chosen = _filter(who, ref, users)
    if chosen.all_users and ref is None and not core.is_manager(who):
        out.answers.append(
            error(f'denied: "{who.user}" must be manager to modify all jobs', Status.EUNKNOWN)
        )
        return
    targets = _targets(core, who, ref, chosen)
    touched = False
    for job, ids in targets:
        if not _may_touch(core, who, job):
            out.answers.append(
                error(
                    f'{who.user} - you do not have the necessary privileges to delete the job "{job.job_id}"',
                    Status.ENOTOWNER,
                )
            )
            touched = True
            continue
        touched |= _delete(core, who, job, ids, force, now, out)
    if not touched:
        text = _nothing_text(ref, chosen, array=bool(targets))
        out.answers.append(error(text, Status.EEXIST))


def _targets(core: Core, who: Identity, ref: str | None, chosen: _Filter) -> Selection:
    if ref is None:
        picked = core.jobs.owned_by({"*"} if chosen.all_users else set(chosen.owners or ()))
        return [(j, None) for j in picked]
    owners = chosen.owners
    if owners == [who.user] and not _is_id(ref):
        return select_jobs(core, ref, who.user)
    found = select_jobs(core, ref)
    if owners is None:
        return found
    return [(j, ids) for j, ids in found if any(_owner_matches(j, u) for u in owners)]


def _is_id(ref: str) -> bool:
    """isdigit(ID_str[0]): a job id (``²`` is a name)."""
    return ref[:1] != "" and ref[:1] in "0123456789"


def _owner_matches(job: Job, user: str) -> bool:
    return fnmatch.fnmatchcase(job.owner.user, user)


def _nothing_text(ref: str | None, chosen: _Filter, *, array: bool) -> str:
    """empty_job_list_filter()'s answer; ``array``: a job matched but none of its tasks."""
    if chosen.all_users and ref is None:
        return "There are no jobs registered"
    jobid, tasks = _ref_parts(ref)
    shown = _shown_users(chosen.owners) if chosen.owners is not None else None
    if array and tasks is not None:
        start, end, step = tasks
        under = "" if shown is None else f" for user(s) {shown}"
        if start == end:
            return f'job "{jobid}" task "{start}" does not exist{under}'
        under = "" if shown is None else f" under user(s) {shown}"
        return f'job "{jobid}" task id range "{start}-{end}:{step}" comprises no tasks{under}'
    if shown is None:
        return f'denied: job "{jobid}" does not exist'
    if ref is None:
        return f"There is no job registered for the following users: {shown}"
    return f"The job {jobid} of user(s) {shown} does not exist"


def _shown_users(users: list[str]) -> str:
    shown = users[:SHOWN_USERS] + (["..."] if len(users) > SHOWN_USERS else [])
    return ",".join(shown)


def _ref_parts(ref: str | None) -> tuple[str, tuple[int, int, int] | None]:
    """The job part qdel sent (ID_str) and its task range as given (5-10:2: 5, 10, 2)."""
    if ref is None:
        return "0", None
    head, dot, tail = ref.partition(".")
    if atol_u32(head) is None:
        head, dot, tail = ref.rpartition(".")
        if not dot or not _RANGE.fullmatch(tail):
            return ref, None
    match = _RANGE.fullmatch(tail.split(",")[0]) if dot else None
    if match is None:
        return head, None
    start = int(match[1])
    end = int(match[2]) if match[2] else start
    return head, (start, end, int(match[3]) if match[3] else 1)


def _may_touch(core: Core, who: Identity, job: Job) -> bool:
    return job.owner.user == who.user or core.is_operator(who)


def _forced_qdel_enabled(core: Core) -> bool:
    """``qmaster_params ENABLE_FORCED_QDEL``: users may force the deletion of their jobs."""
    value = core.config.global_conf.qmaster_params.get("enable_forced_qdel", "false")
    return value[:1] == "1" or value.lower() == "true"


def _delete(
    core: Core,
    who: Identity,
    job: Job,
    ids: TaskIds | range | None,
    force: bool,
    now: float,
    out: Outcome,
) -> bool:
    """Delete the job's tasks ``ids`` names (all: None); False when it names none.

    Answered as sge_delete_all_tasks_of_job(): each running task as its deletion is
    registered (or forced), in task order; then the tasks deleted at once, as one line
    (``has deleted job-array tasks 3,4 of job 5``) when tasks were named, or as ``has
    deleted job 5`` for the whole job."""
    wanted = as_named(job, ids)
    pending = job.pending.copy() if wanted is None else job.pending & wanted
    active = sorted(
        (
            t
            for t in job.tasks.values()
            if t.state is not TaskState.FINISHED and (wanted is None or t.task_id in wanted)
        ),
        key=lambda t: t.task_id,
    )
    if wanted is not None and not pending and not active:
        return False
    deleted = list(pending)
    for task_id in pending:
        lifecycle.finish_pending(core, job, task_id, now, out)
    for task in active:
        what = f"job-array task {job.job_id}.{task.task_id}" if job.array else f"job {job.job_id}"
        if force:
            lifecycle.force_deletion(core, job, task, f"qdel -f by {who.user}", now, out)
            out.answers.append(ok(f"warning: {who.user} forced the deletion of {what}"))
        elif task.state in ACTIVE:
            lifecycle.register_deletion(core, job, task, f"qdel by {who.user}", now, out)
            out.answers.append(ok(f"{who.user} has registered the {what} for deletion"))
        elif task.state is TaskState.DELETING:
            out.answers.append(ok(f"{who.user} has registered the {what} for deletion"))
        else:  # started once, not running now (in error): goes at once
            lifecycle.force_deletion(core, job, task, f"qdel by {who.user}", now, out)
            deleted.append(task.task_id)
    if deleted:
        out.answers.append(ok(_deleted_text(who, job, sorted(deleted), whole=ids is None)))
    return True


def _deleted_text(who: Identity, job: Job, deleted: list[int], *, whole: bool) -> str:
    user, jid = who.user, job.job_id
    if whole:
        return f"{user} has deleted job {jid}"
    if len(deleted) == 1:
        return f"{user} has deleted job-array task {jid}.{deleted[0] or 1}"
    return f"{user} has deleted job-array tasks {format_id_runs(TaskIds.from_ids(deleted))} of job {jid}"
