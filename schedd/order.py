"""The order in which a pass considers jobs: highest priority first (sge_priority(5)).

Each job's urgency (see :mod:`schedd.urgency`) and POSIX priority are
normalised over the jobs of the pass and weighted (:mod:`schedd.priority`);
ties go to the earlier submission, then the lower job id. The resource
contribution is worked out once per kind of request.
"""

from __future__ import annotations

from collections.abc import Hashable
from fnmatch import fnmatchcase

from schedd.catkeys import base_key
from schedd.kept import compiled_requests
from schedd.priority import priorities
from schedd.urgency import resource_urgency, urgency, urgency_slots
from schedd.view import JobRequest, View


def _slots(view: View, job: JobRequest) -> float:
    if not job.pe_name:
        return 1.0
    pe = next((p for n, p in sorted(view.pes.items()) if fnmatchcase(n, job.pe_name)), None)
    return urgency_slots(pe.urgency_slots if pe else "min", job.pe_min, job.pe_max)


def resource_of(view: View, job: JobRequest, cache: dict[Hashable, float]) -> float:
    """The job's resource urgency, worked out once per kind of request (``cache``)."""
    # the key holds the requests and the PE range, so the slots follow from it
    key = job.category if job.category is not None else base_key(job)
    resource = cache.get(key)
    if resource is None:
        c = compiled_requests(view, job, soft=False)
        resource = cache[key] = resource_urgency(c, view.complexes, _slots(view, job))
    return resource


def job_urgencies(view: View, now: float) -> list[float]:
    """The urgency of every job of the view, in the view's order."""
    w = view.weights
    cache: dict[Hashable, float] = {}
    out: list[float] = []
    for job in view.jobs:
        resource = resource_of(view, job, cache)
        if w.waiting_time or job.deadline is not None:
            out.append(urgency(resource, job.submit_time, job.deadline, now, w))
        else:
            out.append(resource)
    return out


def dispatch_order(view: View, now: float) -> list[JobRequest]:
    """The view's jobs, highest priority first."""
    jobs = list(view.jobs)
    prio = priorities(
        [j.priority for j in jobs], job_urgencies(view, now), [0.0] * len(jobs),
        view.weights,
    )  # fmt: skip
    ranked = sorted(range(len(jobs)), key=lambda i: (-prio[i], jobs[i].submit_time, jobs[i].job_id))
    return [jobs[i] for i in ranked]
