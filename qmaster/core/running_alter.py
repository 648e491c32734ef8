"""What qalter may change of a job that runs (``mod_job_attributes`` of Grid Engine).

Grid Engine lets most attributes of a running job change — they count for
tasks not started yet, and a started task keeps what it was dispatched with —
but refuses, while a task is transferring or running: a new project or
advance reservation (``job N can't modify running jobs``), and any change to
its hard requests for consumables (the bookings of the running tasks follow
the requests they started with).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import Consumable
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobs import Job
from qmaster.core.jobspec import JobSpec, as_map
from qmaster.core.states import TaskState

_RUNNING = (TaskState.TRANSFERRING, TaskState.RUNNING)
_NOT_WHILE_RUNNING = ("P", "ar")


def is_running(job: Job) -> bool:
    """A task of the job is transferring or running."""
    return any(t.state in _RUNNING for t in job.tasks.values())


def check_running_change(
    table: ComplexTable, job: Job, changes: Mapping[str, Any], new: JobSpec
) -> None:
    """Refuse what Grid Engine refuses to change while the job runs."""
    if not is_running(job):
        return
    if any(key in changes for key in _NOT_WHILE_RUNNING):
        raise InvalidRequest(f"job {job.job_id} can't modify running jobs")
    if "l_hard" in changes:
        old_hard, new_hard = as_map(job.spec.hard_resources), as_map(new.hard_resources)
        _check_consumables(table, old_hard, new_hard)


def _consumables(table: ComplexTable, requests: Mapping[str, Any]) -> dict[str, float | str]:
    found: dict[str, float | str] = {}
    for name, text in requests.items():
        entry = table.get(str(name))
        if entry is not None and entry.consumable is not Consumable.NO:
            found[entry.name] = entry.parse(str(text))
    return found


def _check_consumables(table: ComplexTable, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    before, after = _consumables(table, old), _consumables(table, new)
    for name in before:
        if name not in after:
            raise InvalidRequest(
                f'denied: former resource request on consumable "{name}" of running job '
                "lacks in new resource request"
            )
    for name, value in after.items():
        if name not in before:
            raise InvalidRequest(
                f'denied: resource request on consumable "{name}" of running job was not '
                "contained former resource request"
            )
        if value != before[name]:
            raise InvalidRequest(
                f'denied: can\'t change consumable resource request "{name}" of running job'
            )
