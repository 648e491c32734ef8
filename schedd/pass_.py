"""The scheduling pass: priority, then submission order, onto queue instances with free slots.

This is the first scheduler; the full global -> host -> queue attribute
matching, job categories and reservation plug in behind the same
``schedule(view, now) -> Plan`` signature.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from schedd.view import JobRequest, Order, Plan, QueueState, View


def _sort_key(job: JobRequest) -> tuple[int, float, int]:
    return (-job.priority, job.submit_time, job.job_id)


def queue_matches(pattern: str, q: QueueState) -> bool:
    """``-q`` patterns: ``all.q``, ``all.q@host1``, ``*@host*``, ``@hostgroup`` is not expanded here."""
    if "@" in pattern:
        cq, _, host = pattern.partition("@")
        return fnmatchcase(q.cqueue, cq or "*") and fnmatchcase(q.host, host or "*")
    return fnmatchcase(q.cqueue, pattern)


def _may_access(job: JobRequest, q: QueueState, usersets: dict[str, frozenset[str]]) -> bool:
    def member(lists: tuple[str, ...]) -> bool:
        return any(
            job.owner in usersets.get(n, frozenset())
            or f"@{job.group}" in usersets.get(n, frozenset())
            for n in lists
        )

    if q.xuser_lists and member(q.xuser_lists):
        return False
    return not q.user_lists or member(q.user_lists)


def _why_not(job: JobRequest, q: QueueState, usersets: dict[str, frozenset[str]]) -> str | None:
    if q.disabled:
        return f'queue instance "{q.name}" dropped because it is disabled'
    if job.hard_queues and not any(queue_matches(p, q) for p in job.hard_queues):
        return f'cannot run in queue "{q.name}" because it is not contained in its hard queue list (-q)'
    if not _may_access(job, q, usersets):
        return f'cannot run in queue instance "{q.name}" because the job owner has no access'
    if job.pe_name and job.pe_name not in q.pe_list:
        return f'cannot run in queue "{q.name}" because PE "{job.pe_name}" is not in pe_list'
    if q.free < job.slots:
        return f'queue instance "{q.name}" dropped because it is full'
    return None


def schedule(view: View, now: float) -> Plan:
    """Place pending tasks by priority and submission order; say why the rest wait."""
    del now  # the first scheduler has no time-dependent decisions
    plan = Plan()
    queues = sorted(view.queues, key=lambda q: (q.seq_no, q.name))
    usersets = dict(view.usersets)
    for job in sorted(view.jobs, key=_sort_key):
        for task_id in job.task_ids:
            target = next((q for q in queues if _why_not(job, q, usersets) is None), None)
            if target is None:
                plan.reasons[job.job_id] = [
                    r for q in queues if (r := _why_not(job, q, usersets)) is not None
                ] or ["no queue instance available"]
                break
            target.used += job.slots
            plan.orders.append(Order(job.job_id, task_id, ((target.name, job.slots),)))
    return plan
