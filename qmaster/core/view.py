"""Assemble the scheduler's view of the cell from the core's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.complexes.values import parse_time
from qmaster.core.jobs import Job
from schedd import JobRequest, QueueState, View

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def _held_by_jid(core: Core, job: Job) -> bool:
    refs = job.hold_jids
    if not refs:
        return False
    for ref in refs:
        if ref.isdigit():
            other = core.jobs.get(int(ref))
            if other is not None and other.job_id != job.job_id:
                return True
        elif any(
            j.name == ref and j.owner.user == job.owner.user and j.job_id != job.job_id
            for j in core.jobs.values()
        ):
            return True
    return False


def is_held(core: Core, job: Job) -> bool:
    """Held by the user (``-h``) or by an unfinished predecessor (``-hold_jid``)."""
    return job.user_hold or _held_by_jid(core, job)


def job_request(job: Job, task_ids: list[int]) -> JobRequest:
    """The scheduler's picture of one job."""
    spec = job.spec
    hard = dict(spec.get("l_hard") or {})
    h_rt = hard.get("h_rt")
    return JobRequest(
        job_id=job.job_id,
        priority=job.priority,
        submit_time=job.submit_time,
        owner=job.owner.user,
        group=job.owner.group,
        task_ids=task_ids,
        slots=job.slots,
        pe_name=spec.get("pe_name"),
        pe_min=int(spec.get("pe_min") or 1),
        pe_max=int(spec.get("pe_max") or spec.get("pe_min") or 1),
        hard_queues=tuple(spec.get("q_hard") or ()),
        soft_queues=tuple(spec.get("q_soft") or ()),
        hard_resources=hard,
        soft_resources=dict(spec.get("l_soft") or {}),
        master_queues=tuple(spec.get("masterq") or ()),
        reserve=bool(spec.get("R")),
        runtime_limit=parse_time(str(h_rt)) if h_rt is not None else None,
    )


def queue_states(core: Core, *, empty: bool = False) -> list[QueueState]:
    """Every queue instance with its capacity and (unless ``empty``) its booked slots."""
    return [
        QueueState(
            name=qi.name,
            cqueue=qi.cqueue,
            host=qi.host,
            total=qi.slots,
            used=0 if empty else core.booked.get(qi.name, 0),
            seq_no=qi.seq_no,
            user_lists=tuple(qi.user_lists),
            xuser_lists=tuple(qi.xuser_lists),
            pe_list=tuple(qi.pe_list),
        )
        for qi in core.config.queue_instances()
    ]


def usersets(core: Core) -> dict[str, frozenset[str]]:
    return {name: frozenset(u.entries) for name, u in core.config.usersets.items()}


def build_view(core: Core, now: float) -> View:
    """The view of one pass: jobs with dispatchable pending tasks, and the queues."""
    del now
    jobs = [
        job_request(job, job.pending)
        for job in core.jobs.values()
        if job.pending and job.verify_wait is None and not is_held(core, job)
    ]
    return View(jobs=jobs, queues=queue_states(core), usersets=usersets(core), config=core.config)
