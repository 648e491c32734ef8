"""Limits on how much of a user's or an array job's work may run at once.

- ``maxujobs`` (sched_conf(5)): running jobs per user; a job already running
  may start more tasks, a new one waits ("job dropped because of user
  limitations").
- ``max_aj_instances`` (sge_conf(5)) and ``-tc`` (submit(1)): running tasks per
  array job; the core gives each array job the smaller of both as
  :attr:`~schedd.view.JobRequest.max_tasks` ("not all array task may be
  started due to 'max_aj_instances'").
"""

from __future__ import annotations

from collections.abc import Sequence

from schedd.reasons import Reason
from schedd.view import JobRequest, View


class Limits:
    """Running jobs per user as the pass dispatches, and each array job's task cap."""

    __slots__ = ("counted", "maxujobs", "running")

    def __init__(self, view: View) -> None:
        self.maxujobs = view.maxujobs
        self.running = dict(view.user_running)
        self.counted: set[int] = set()

    def refuse(self, job: JobRequest) -> Reason | None:
        """Why the job may not start at all in this pass (its owner is at ``maxujobs``)."""
        if not self.maxujobs or job.running_tasks or job.job_id in self.counted:
            return None
        if self.running.get(job.owner, 0) < self.maxujobs:
            return None
        return Reason("user_limit", "job", job.owner)

    def tasks(self, job: JobRequest) -> tuple[Sequence[int], Reason | None]:
        """The tasks the pass may start, and why not all, when capped."""
        if job.max_tasks is None:
            return job.task_ids, None
        room = max(0, job.max_tasks - job.running_tasks)
        if room >= len(job.task_ids):
            return job.task_ids, None
        return job.task_ids[:room], Reason("max_aj_instances", "job", str(job.job_id))

    def started(self, job: JobRequest) -> None:
        """A task of ``job`` was dispatched: a job new to running counts for its owner."""
        if self.maxujobs and not job.running_tasks and job.job_id not in self.counted:
            self.counted.add(job.job_id)
            self.running[job.owner] = self.running.get(job.owner, 0) + 1
