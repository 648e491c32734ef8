"""The scheduler's picture of each pending job, derived once by value and kept.

A job's :class:`~schedd.JobRequest` (its requests, category, priority) follows
from its specification alone, so it is worked out once per specification
object, like Grid Engine's job category, and kept on the job
(``Job.request_memo``; whoever replaces ``job.spec`` or resets the memo gets a
fresh one). The memo also keeps what decides whether the job may be
dispatched without parsing again (its ``-a`` start time, whether it belongs to
an advance reservation or waits for predecessors), and the request with its
pending tasks, rebuilt only when the pending tasks object changes. A pass
therefore costs a few attribute reads per waiting job, and no copy of any.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from qmaster.complexes.values import parse_time
from qmaster.core.holds import ad_held_tasks, held_by_jid, start_time
from qmaster.core.job_priority import deadline_epoch
from qmaster.core.jobs import Job
from qmaster.core.jobspec import JobSpec, Pairs
from qmaster.core.states import TaskState
from qmaster.core.taskholds import every_task, free_pending, held, unite
from schedd import JobRequest
from schedd.catkeys import category_text, request_key

if TYPE_CHECKING:
    from collections.abc import Sequence

    from qmaster.core.machine import Core

ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)


@dataclass(slots=True)
class RequestMemo:
    """What the scheduler derives from one job specification, kept until it changes."""

    base: JobRequest
    """The request with its category and no tasks."""
    start: float | None
    """The ``-a`` start time."""
    in_ar: bool
    hold_jid: bool
    hold_jid_ad: bool
    tasks: Sequence[int] | None = None
    """The pending tasks object :attr:`request` was made for."""
    request: JobRequest | None = None


def request_memo(job: Job) -> RequestMemo:
    """The job's memo, made now if its specification (or id) changed since."""
    kept = job.request_memo
    if kept is not None and kept[0] is job.spec:
        memo = kept[1]
        if isinstance(memo, RequestMemo) and memo.base.job_id == job.job_id:
            return memo
    spec = job.spec
    memo = RequestMemo(
        _request(job),
        start_time(job),
        bool(spec.ar),
        bool(spec.hold_jid),
        bool(spec.hold_jid_ad),
    )
    job.request_memo = (spec, memo)
    return memo


def job_request(job: Job, task_ids: Sequence[int]) -> JobRequest:
    """The scheduler's picture of one job with the given tasks."""
    return replace(request_memo(job).base, task_ids=task_ids)


def pending_request(core: Core, job: Job, now: float, maxujobs: int) -> JobRequest | None:
    """The request of a job a pass may consider now, with its dispatchable tasks, or None."""
    if not job.pending or job.verify_wait is not None:
        return None
    if job.holds and not free_pending(job):
        return None  # every pending task held (qsub -h, qhold)
    memo = request_memo(job)
    if memo.in_ar or (memo.start is not None and memo.start > now):
        return None
    if memo.hold_jid and held_by_jid(core, job):
        return None
    waiting = ad_held_tasks(core, job) if memo.hold_jid_ad else None
    if job.holds:  # some tasks held: the others may run
        waiting = held(job) if waiting is None else unite(every_task(job), (waiting, held(job)))
    if waiting:
        tasks = job.pending - waiting  # ranges, never every id of a big array
        if not tasks:
            return None
        request = replace(memo.base, task_ids=tasks)
    else:
        if memo.request is None or memo.tasks is not job.pending:
            memo.tasks = job.pending
            memo.request = replace(memo.base, task_ids=job.pending)
        request = memo.request
    return _limited(core, job, request, maxujobs)


def _active(job: Job) -> int:
    return sum(1 for t in job.tasks.values() if t.state in ACTIVE)


def _limited(core: Core, job: Job, request: JobRequest, maxujobs: int) -> JobRequest:
    """The request with its running tasks and concurrency cap, where a limit needs them."""
    cap: int | None = None
    if job.array:
        caps = [core.config.global_conf.max_aj_instances, (job.spec.task_concurrency or 0)]
        cap = min((c for c in caps if c > 0), default=None)
    if cap is None and not maxujobs:
        return request
    return replace(request, max_tasks=cap, running_tasks=_active(job))


def running_jobs_per_user(core: Core) -> dict[str, int]:
    """How many jobs each user has running (a task transferring, running or being deleted)."""
    out: dict[str, int] = {}
    for job in core.jobs.values():
        if any(t.state in ACTIVE for t in job.tasks.values()):
            out[job.owner.user] = out.get(job.owner.user, 0) + 1
    return out


@dataclass(frozen=True, slots=True)
class _Parts:
    """What a request takes from the category's part of a specification."""

    hard: dict[str, str]
    soft: dict[str, str]
    hard_queues: tuple[str, ...]
    soft_queues: tuple[str, ...]
    master_queues: tuple[str, ...]
    pe_name: str | None
    pe_min: int
    pe_max: int
    project: str | None
    kind: tuple[str | None, bool]
    """``-ckpt`` and ``-now y``: the queue types and lists the job needs."""
    runtime_limit: float | None
    category: str


@lru_cache(maxsize=4096)
def _parts(
    hard: tuple[tuple[str, str], ...],
    soft: tuple[tuple[str, str], ...],
    queues: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
    pe: tuple[str | None, int, int],
    project: str | None,
    kind: tuple[str | None, bool] = (None, False),
) -> _Parts:
    """Worked out once per distinct request, and shared: a million jobs in fifty
    categories hold fifty resource dicts and queue lists, and parse no time twice."""
    hard_d, soft_d = dict(hard), dict(soft)
    h_rt = hard_d.get("h_rt")
    (hard_q, soft_q, master_q), (pe_name, pe_min, pe_max) = queues, pe
    key = request_key(hard_d, soft_d, hard_q, soft_q, pe_name, pe_min, pe_max, master_q, project,
                      *kind)  # fmt: skip
    return _Parts(hard_d, soft_d, *queues, *pe, project, kind,
                  parse_time(h_rt) if h_rt is not None else None, category_text(key))  # fmt: skip


def _items(pairs: Pairs | None) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in pairs) if pairs else ()


def category_of(job: Job) -> str:
    """The job's category (the text of its request's category key), without making its
    request: the pending index files every waiting job by it, and makes the request of
    a job only when a pass reaches it (a million waiting jobs in fifty categories are
    filed without a million requests)."""
    return _job_parts(job.spec).category


_LAST: list[tuple[JobSpec, _Parts]] = []
"""The last specification's parts: the pass that files a new job in the pending index
(:func:`category_of`) goes on to make its request (:func:`_request`)."""


def _job_parts(spec: JobSpec) -> _Parts:
    if _LAST and _LAST[0][0] is spec:
        return _LAST[0][1]
    found = _spec_parts(spec)
    _LAST[:] = [(spec, found)]
    return found


def _spec_parts(spec: JobSpec) -> _Parts:
    queues = (
        tuple(spec.hard_queues or ()),
        tuple(spec.soft_queues or ()),
        tuple(spec.master_queues or ()),
    )
    pe = (spec.pe_name, int(spec.pe_min or 1), int(spec.pe_max or spec.pe_min or 1))
    project = str(spec.project) if spec.project else None
    hard, soft = _items(spec.hard_resources), _items(spec.soft_resources)
    return _parts(hard, soft, queues, pe, project, (spec.ckpt or None, bool(spec.immediate)))


def _request(job: Job) -> JobRequest:
    """The job's request with its category, no tasks."""
    spec = job.spec
    parts = _job_parts(spec)
    return JobRequest(
        job_id=job.job_id,
        priority=job.priority,
        submit_time=job.submit_time,
        owner=job.owner.user,
        group=job.owner.group,
        task_ids=(),
        slots=job.slots,
        pe_name=parts.pe_name,
        pe_min=parts.pe_min,
        pe_max=parts.pe_max,
        hard_queues=parts.hard_queues,
        soft_queues=parts.soft_queues,
        hard_resources=parts.hard,
        soft_resources=parts.soft,
        master_queues=parts.master_queues,
        reserve=bool(spec.reserve),
        runtime_limit=parts.runtime_limit,
        deadline=deadline_epoch(spec.deadline),
        project=parts.project,
        ckpt=parts.kind[0],
        immediate=parts.kind[1],
        category=parts.category,
    )
