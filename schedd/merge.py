"""Category skipping over job groups: the pass order without walking every job.

When the view gives its jobs as groups (:class:`~schedd.view.JobGroup`, each in
dispatch order within itself), :func:`merged_order` yields the same order as
:func:`schedd.order.dispatch_order` would over all of them — highest priority
first, then submission time and id — by merging the groups on a heap. Within a
group the urgency is one value (its requests, slots and PE are the category's;
no waiting-time weight and no deadline, which the caller guarantees), so the
priorities are normalised over the groups exactly as over the jobs.

Once the pass has handled a job whose category is then exhausted (Grid
Engine's ``NEVER_CAT``/``NOT_AT_TIME`` for the category), the rest of that
group is skipped: its jobs are never read and share the category's reasons
(:attr:`~schedd.view.Plan.skipped`); so is the rest of a group whose job a resource
quota held back (its reasons then). A group that asks for reservations
(``-R y``) is read to its end, since each job may still get one.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterator

from schedd.categories import CategoryCache
from schedd.kept import kept_for
from schedd.order import resource_of
from schedd.priority import normalize, npprior
from schedd.quota import PassQuota
from schedd.view import JobGroup, JobRequest, Plan, View

_Entry = tuple[float, float, int, int, JobRequest]


def merged_order(view: View, cats: CategoryCache, plan: Plan) -> Iterator[JobRequest]:
    """The view's grouped jobs in dispatch order, skipping exhausted groups."""
    groups = list(view.groups or ())
    if len(groups) == 1:  # nothing to merge: no priority to work out
        yield from _one(cats, groups[0], plan, view.quota)
        return
    if not groups:
        return
    w = view.weights
    cache = urgency_cache(view)
    urgencies = [resource_of(view, g.first, cache) for g in groups]
    low, high = min(urgencies), max(urgencies)
    tickets = w.ticket * normalize(0.0, 0.0, 0.0)
    scaled = [w.urgency * min(1.0, max(0.0, normalize(u, low, high))) for u in urgencies]

    def entry(i: int, job: JobRequest) -> _Entry:
        prio = w.priority * npprior(job.priority) + scaled[i] + tickets
        return (-prio, job.submit_time, job.job_id, i, job)

    heap = [entry(i, g.first) for i, g in enumerate(groups)]
    heapq.heapify(heap)
    while heap:
        _, _, _, i, job = heapq.heappop(heap)
        yield job
        group = groups[i]
        if not group.reserve and _skip(cats, group, job, plan, view.quota):
            continue
        following = next(group.rest, None)
        if following is not None:
            heapq.heappush(heap, entry(i, following))


def _one(
    cats: CategoryCache, group: JobGroup, plan: Plan, quota: PassQuota | None
) -> Iterator[JobRequest]:
    """A lone group's jobs in its order, up to its category's exhaustion."""
    job: JobRequest | None = group.first
    while job is not None:
        yield job
        if not group.reserve and _skip(cats, group, job, plan, quota):
            return
        job = next(group.rest, None)


URGENCY_ROOM = 100_000
"""Resource urgencies kept from pass to pass (one per category; emptied beyond this)."""


def urgency_cache(view: View) -> dict[Hashable, float]:
    """Where the resource urgency of each category is kept: with the view's queue
    instances (the complexes and PEs it comes from change only with the configuration,
    which brings other instances), else for this pass."""
    kept = kept_for(view)
    if kept is None:
        return {}
    found = kept.get("urgencies")
    if not isinstance(found, dict) or len(found) > URGENCY_ROOM:
        found = kept["urgencies"] = {}
    return found


def _skip(
    cats: CategoryCache, group: JobGroup, job: JobRequest, plan: Plan, quota: PassQuota | None
) -> bool:
    """True (and the group's reasons kept) when the job's category is exhausted, or a
    resource quota holds the job back: the group's jobs share its owner, project, PE and
    requests, and what the pass uses of a limit only grows (Grid Engine's categories
    hold the user and project a quota names, sge_user_is_referenced_in_rqs())."""
    if quota is not None and job.job_id in quota.closed:
        plan.skipped[group.key] = plan.reasons[job.job_id]
        return True
    cat = cats.peek(job)
    if cat is None or not cat.exhausted:
        return False
    plan.skipped[group.key] = cat.reasons
    return True


def grouped(view: View) -> bool:
    """The view gives its jobs as groups."""
    return view.groups is not None
