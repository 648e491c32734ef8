"""The tasks that left pending and have not ended, found from what they book.

Every such task (transferring, running, suspended, being deleted) books its
slots and consumables, and nothing else books under a positive job id (ARs use
keys of their own), so the bookings name them: walking those costs the active
tasks, which the cell's slots bound, not every job in the cell.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qmaster.core.jobs import Job, Task
    from qmaster.core.machine import Core


def active_tasks(core: Core) -> Iterator[tuple[Job, Task]]:
    """Each active task with its job, in job and task order."""
    for job_id, task_id in sorted(k for k in core.booked.by_task if k[0] > 0):
        job = core.jobs.get(job_id)
        task = job.tasks.get(task_id) if job is not None else None
        if job is not None and task is not None:
            yield job, task
