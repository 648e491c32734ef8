"""Submission: validate a job specification, apply the limits, store the job.

Verification modes (``qsub -w``) run the scheduler on this one job: ``e``
refuses a job no queue could ever run, ``w`` warns and submits, ``v`` and
``p`` answer without submitting (``v`` against an empty cluster, ``p``
against the current bookings).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from qmaster.core import immediate, lifecycle, reports
from qmaster.core.arjobs import check_job as check_job_ar
from qmaster.core.confrefs import check_ckpt, check_project, check_user, default_project
from qmaster.core.errors import InvalidRequest, LimitReached, NoSuchObject
from qmaster.core.holds import start_time_of
from qmaster.core.hostnames import check_path_lists, resolved_request
from qmaster.core.jobchecks import (
    check_array_holds,
    check_checkpointing,
    check_cluster_access,
    check_deadline,
    check_predecessor_refs,
)
from qmaster.core.jobs import Identity, Job, TaskRange
from qmaster.core.jobspec import JobSpec, Pairs, shared_spec
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.resources import (
    check_account,
    check_priority,
    check_qsub_key,
    normalise_requests,
)
from qmaster.core.specs import checked_spec, with_full_names
from qmaster.core.stimuli import Submit
from qmaster.core.story import current_id as current_stimulus
from qmaster.core.taskholds import changed, every_task, uniform
from qmaster.core.verification import wait_for_verification
from qmaster.core.view import assemble, job_request
from qmaster.digits import is_digits
from qmaster.gdi.localtime import U_LONG32_MAX
from qmaster.model import Answer, error, ok, warning
from schedd import Reason, schedule


def check_name(name: str) -> None:
    """A job or AR name as Grid Engine's qmaster checks it (object_verify_name): no leading
    digit, then the QSUB_TABLE rule (a space is allowed; ``/ : @ * ?`` are not)."""
    if not name:
        raise InvalidRequest("job rejected cause there is no job_name in the request")
    if is_digits(name[0]):
        raise InvalidRequest(
            f'denied: "{name}" is not a valid object name (cannot start with a digit)'
        )
    check_qsub_key(name)


def task_range(spec: JobSpec) -> TaskRange | None:
    """The array range of a specification, or None for a plain job."""
    if spec.task_first is None:
        return None
    first = spec.task_first
    last = spec.task_last or first
    step = spec.task_step or 1
    if last < first:
        raise InvalidRequest("ERROR! invalid task range: the first task id exceeds the last")
    return TaskRange(first, last - (last - first) % step, step)


def validate_spec(
    core: Core, spec: JobSpec, who: Identity | None = None, *, submitted: bool = True
) -> JobSpec:
    """References to configuration objects must exist (``who``: the job's owner); the spec
    to store: requests normalised, the owner's default project filled in.

    The checks run in sge_job_verify_adjust()'s order, so a job with two faults hears
    Grid Engine's first: resources, queue references, the PE and its slot range, the
    checkpointing environment and ``-c``, the user (``enforce_user``), the project.
    """
    check_account(spec)
    spec = _stored_requests(core, spec)
    for pattern in [*(spec.hard_queues or ()), *(spec.master_queues or ())]:
        if not _names_any(core, "cqueue", pattern.partition("@")[0] or "*"):
            raise NoSuchObject(f'job was rejected because job requests unknown queue "{pattern}"')
    pe = spec.pe_name
    if pe and not _names_any(core, "pe", str(pe)):
        raise NoSuchObject(
            f'job rejected: the requested parallel environment "{pe}" does not exist'
        )
    pmin, pmax = spec.pe_min, spec.pe_max
    if pmin is not None and pmax is not None and pmax < pmin:
        raise InvalidRequest("ERROR! invalid slot range: the minimum exceeds the maximum")
    check_ckpt(core.config, spec)
    if submitted:  # sge_gdi_add_job() checks how -c and -ckpt agree; qalter's changes do not
        check_checkpointing(spec)
    if who is not None:
        check_user(core.config, who)
        spec = default_project(core.config, spec, who)
        check_project(core.config, spec, who)
    return spec


def _glob(pattern: str) -> str:
    return re.escape(pattern).replace(r"\*", ".*").replace(r"\?", ".")


_PATTERNS_KEPT = 1024


def _stored_requests(core: Core, spec: JobSpec) -> JobSpec:
    """The spec with its ``-l`` requests in their stored form (:func:`normalise_spec_requests`),
    each distinct pair of request lists worked out once while the configuration stands (at
    most ``_PATTERNS_KEPT``): a replay's million jobs ask for some thousand sets. A set not
    kept is put together from its requests, each normalised once (:func:`_stored_pairs`).
    A refused request raises each time, as it is not kept."""
    kept = core.per_config("submit_requests", dict, dict)
    key = (spec.hard_resources, spec.soft_resources)
    found = kept.get(key)
    if found is None:
        if len(kept) >= _PATTERNS_KEPT:
            kept.clear()
        hard = _stored_pairs(core, spec.hard_resources)
        soft = _stored_pairs(core, spec.soft_resources)
        found = kept[key] = (hard, soft)
    hard, soft = found
    if hard == spec.hard_resources and soft == spec.soft_resources:
        return spec
    return spec.changed(hard_resources=hard, soft_resources=soft)


def _stored_pairs(core: Core, pairs: Pairs | None) -> Pairs | None:
    """One request list in its stored form, as :func:`normalise_requests` gives it (a later
    request of the same full name replaces an earlier one in its place), each request
    normalised once while the configuration stands (at most ``_PATTERNS_KEPT``)."""
    if not pairs:
        return pairs
    known = core.per_config("submit_request", dict, dict)
    stored: dict[str, str] = {}
    for pair in dict(pairs).items():  # a name given twice: its last value, in its place
        found = known.get(pair)
        if found is None:
            if len(known) >= _PATTERNS_KEPT:
                known.clear()
            name, value = pair
            found = next(iter(normalise_requests(core.config.complexes, {name: value}).items()))
            found = (found[0], resolved_request(core, *found))
            known[pair] = found
        stored[found[0]] = found[1]
    result = tuple(stored.items())
    return pairs if result == pairs else result


def _names_any(core: Core, kind: str, pattern: str) -> bool:
    """Whether ``pattern`` names some PE or cluster queue (``kind``) of the configuration.

    The answers are kept while the configuration stands (at most ``_PATTERNS_KEPT``): a
    replay submits a million jobs that ask for a handful of patterns.
    """
    known = core.per_config("submit_patterns", dict, dict)
    found = known.get((kind, pattern))
    if found is None:
        if len(known) >= _PATTERNS_KEPT:
            known.clear()
        names = core.config.pes if kind == "pe" else core.config.cqueues
        found = known[(kind, pattern)] = any(re.fullmatch(_glob(pattern), n) for n in names)
    return bool(found)


def check_task_limit(core: Core, n_tasks: int) -> None:
    """``max_aj_tasks``: an array job with more tasks is refused."""
    limit = core.config.global_conf.max_aj_tasks
    if limit and n_tasks > limit:
        raise InvalidRequest(f"job rejected: You try to submit a job with more than {limit} tasks")


def check_limits(core: Core, owner: str, *, verifying: bool = False) -> None:
    """``max_jobs``, then ``max_u_jobs`` (not for ``-w v|p``, which adds no job): refused
    for now, qsub exits 25 (try again later)."""
    conf = core.config.global_conf
    if conf.max_jobs and len(core.jobs) >= conf.max_jobs:
        raise LimitReached(f"job rejected: Only {conf.max_jobs} jobs are allowed per cluster")
    if not verifying and conf.max_u_jobs and core.user_jobs[owner] >= conf.max_u_jobs:
        raise LimitReached(
            f"job rejected: Only {conf.max_u_jobs} jobs are allowed per user "
            f"(current job count: {core.user_jobs[owner]})"
        )


def verify(core: Core, job: Job, mode: str, now: float) -> bool:
    """Could the scheduler place this job (``v``: on an empty cluster, ``p``: now)?"""
    return not verify_reasons(core, job, mode, now)[0]


def verification(core: Core, job: Job, mode: str, now: float) -> list[Answer]:
    """``-w v|p`` (qsub and qalter): why no queue fits, per level, then the verdict.

    No suitable queue is an error answer, so the command exits 1.
    """
    pending, reasons = verify_reasons(core, job, mode, now)
    if not pending:
        return [ok("verification: found suitable queue(s)")]
    return [*(ok(r.text) for r in reasons), error("verification: no suitable queues")]


def verify_reasons(core: Core, job: Job, mode: str, now: float) -> tuple[bool, Sequence[Reason]]:
    """``(pending, reasons)`` of one pass over this job alone, with the same matching."""
    first = next(iter(job.all_task_ids()))
    view = assemble(core, [job_request(job, [first])], now, empty=mode != "p")
    plan = schedule(view, now)
    return not plan.orders, plan.reasons.get(job.job_id, [])


def submitted_text(job: Job) -> str:
    if job.array:
        return f'Your job-array {job.job_id}.{job.array} ("{job.name}") has been submitted'
    return f'Your job {job.job_id} ("{job.name}") has been submitted'


def numbered_spec(core: Core, given: JobSpec, now: float) -> tuple[JobSpec, TaskRange | None]:
    """What sge_job_verify_adjust() checks before it takes the job's number, in its order:
    the values, the task range, the account string, the name and the task count. A
    submission refused here uses no job id; one refused by any later check
    (:func:`admitted_job`) has used one up, and ``qsub -w v`` uses one too: the next
    job's id skips it, as in Grid Engine."""
    spec = with_full_names(checked_spec(_normalise(given), now), core.config.complexes)
    array = task_range(spec)
    check_account(spec)
    check_name(spec.name or "")
    check_task_limit(core, (array.last - array.first) // array.step + 1 if array else 1)
    if array is not None and max(array.last, array.step) > U_LONG32_MAX:
        # a task id is a u_long32 in Grid Engine (and the spool): qsub's parser refuses a
        # range past it; one the task limit let through (max_aj_tasks 0) is refused here
        raise InvalidRequest("ERROR! -t option must have a list of task id ranges")
    return spec, array


def admitted_job(
    core: Core, args: Submit, now: float, out: Outcome, job_id: int | None = None
) -> Job | None:
    """sge_job_verify_adjust(): the job to store, with its number (``job_id``, else a new
    one), or None when a ``-w v|p`` verification was answered; a refusal raises.

    The order is Grid Engine's, so a job with two faults hears its first message:
    ``max_jobs`` (even for ``-w v``), ``max_u_jobs``, the configuration references
    (:func:`validate_spec`), the deadline user, the advance reservation, ``-w``, the
    priority, ``-hold_jid`` and ``-hold_jid_ad``. With a server JSV it runs before the
    JSV is asked and again on the job the JSV let through (sge_gdi_add_job()).
    """
    spec, array = numbered_spec(core, args.job, now)
    check_path_lists(core, spec)  # before the job has a number, as sge_gdi_add_job()
    if job_id is None:  # any refusal from here on has used the id up, as in Grid Engine
        job_id = core.allocate_job_id()
    verifying = args.verify in ("v", "p")
    check_limits(core, args.identity.user, verifying=verifying)
    check_cluster_access(core, args.identity)
    spec = validate_spec(core, spec, args.identity)
    start_time_of(spec)
    check_deadline(core, args.identity, spec)
    check_job_ar(core, args.identity, spec, now)
    job = Job(0, args.identity, now, shared_spec(spec), array=array)
    if spec.user_hold:
        job.holds = uniform(job, "u")
    if args.hold:  # qresub -h: the copy's holds, on the tasks it named
        every = every_task(job)
        ids = every if args.hold_tasks is None else every & args.hold_tasks
        job.holds = changed(every, job.holds, ids, args.hold)
        if "u" in job.holds and not spec.user_hold:
            job.spec = shared_spec(spec.changed(user_hold=True))
    if verifying:
        out.answers.extend(verification(core, job, args.verify, now))
        return None
    if args.verify in ("e", "w") and not verify(core, job, "v", now):
        if args.verify == "e":
            raise InvalidRequest("error: no suitable queues")
        out.answers.append(warning("warning: no suitable queues"))
    check_priority(spec, operator=core.is_operator(args.identity))
    check_predecessor_refs(job_id, spec.hold_jid or ())
    check_array_holds(core, job_id, args.identity.user, spec, array)
    job.job_id = job_id
    return job


def handle_submit(
    core: Core,
    args: Submit,
    now: float,
    out: Outcome,
    *,
    job_id: int | None = None,
    jsv_wait: str | None = None,
) -> None:
    """Store a new job, or answer a verification.

    The request passes the server JSV first when one is set (:mod:`qmaster.core.jsvflow`),
    which then hands over the ``job_id`` it allocated and, for a job the JSV asked to wait
    (REJECT_WAIT), ``jsv_wait``, the JSV's message.
    """
    job = admitted_job(core, args, now, out, job_id)
    if job is None:
        return
    spec, array = job.spec, job.array
    job.stimulus = current_stimulus()
    job.pend_all()
    if jsv_wait is not None:
        wait_for_verification(core, job, jsv_wait, now, out)
    core.jobs[job.job_id] = job
    core.user_jobs[args.identity.user] += 1
    core.spool_job(out, job)
    out.spool.counters["job"] = core.next_job_id
    out.reports.append(reports.new_job(job, now))
    out.reports.append(reports.job_log(job, -1 if array else 0, "pending", "qw", now))
    out.answers.append(ok(submitted_text(job)))
    out.data = {"job_id": job.job_id, "name": job.name, "tasks": str(array) if array else None}
    if spec.immediate and job.verify_wait is None:
        out.data["immediate"] = immediate.decide(core, job, now, out)
    flush = core.config.sched_conf.flush_submit_sec
    if flush > 0:  # Grid Engine's event client holds the event up to flush - 1 seconds
        core.request_pass(now + flush - 1)
    lifecycle.watch_start_time(core, job, now)


def _normalise(spec: JobSpec) -> JobSpec:
    """A job without ``-N`` is named after its command."""
    if spec.name:
        return spec
    return spec.changed(name=os.path.basename(spec.command or "") or "STDIN")
