"""Immediate jobs (``qsub -now y``): scheduled in the next pass, or not at all.

Grid Engine's scheduler removes an immediate job it cannot dispatch in the
pass after its submission, and qsub, which waits for that decision, answers
``Your qsub request could not be scheduled, try again later.`` (exit 1). Here
the next pass is run at once, as part of the submission, so the answer carries
the decision and qsub needs no second round trip. Every pending job takes part
in that pass in its usual order; tasks of the immediate job it leaves pending
are deleted (a job that never ran has no accounting record).
"""

from __future__ import annotations

from qmaster.core import lifecycle
from qmaster.core.jobs import Job
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome


def decide(core: Core, job: Job, now: float, out: Outcome) -> bool:
    """Run the pass the immediate ``job`` waits for; True when it started a task of it."""
    lifecycle.run_pass(core, now, out)
    started = bool(job.tasks)
    for task_id in job.pending.copy():
        lifecycle.finish_pending(core, job, task_id, now, out)
    if not started:
        out.log("immediate_job_unscheduled", job_id=job.job_id)
    return started
