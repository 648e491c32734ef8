"""Which jobs are inside which advance reservation (``qsub -ar``), kept as jobs change.

The AR passes, an AR's end and qrdel ask for the jobs of one AR; scanning every job
of the cell for each AR made a pass cost ARs x jobs (20,000 jobs and 1,000 ARs kept
a restarted daemon from answering for a minute). The index is built once from the
jobs (at the first question after a start) and then follows the jobs each outcome
changed (:meth:`Core.touch` calls :func:`jobs_changed`), so a question costs the
jobs of that AR. A job deleted later in the same stimulus is skipped when read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from qmaster.core.jobs import Job
from qmaster.core.registry import HOOKS

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def ar_of(job: Job) -> int:
    """The id of the AR the job was submitted into, 0 for none."""
    return job.spec.ar or 0


class ArMembers:
    """AR id -> ids of its jobs, and the way back."""

    __slots__ = ("members", "of")

    def __init__(self, jobs: Iterable[Job] = ()) -> None:
        self.members: dict[int, set[int]] = {}
        self.of: dict[int, int] = {}
        for job in jobs:
            if job.spec.ar:  # the others are in no AR (a million calls of file at a restart)
                self.file(job.job_id, job.spec.ar)

    def file(self, job_id: int, ar_id: int) -> None:
        old = self.of.pop(job_id, 0)
        if old:
            ids = self.members[old]
            ids.discard(job_id)
            if not ids:
                del self.members[old]
        if ar_id:
            self.of[job_id] = ar_id
            self.members.setdefault(ar_id, set()).add(job_id)


def members(core: Core) -> ArMembers:
    """The core's index, built from its jobs the first time it is needed."""
    if core.ar_members is None:
        core.ar_members = ArMembers(core.jobs.values())
    return core.ar_members


def jobs_changed(core: Core, job_ids: Iterable[int]) -> None:
    """File again the jobs an outcome changed (only once the index exists)."""
    kept = core.ar_members
    if kept is None:
        return
    for job_id in job_ids:
        job = core.jobs.get(job_id)
        kept.file(job_id, ar_of(job) if job is not None else 0)


def jobs_of(core: Core, ar_id: int) -> list[Job]:
    """The jobs inside AR ``ar_id``, in job id order."""
    found: list[Job] = []
    for job_id in sorted(members(core).members.get(ar_id, ())):
        job = core.jobs.get(job_id)
        if job is not None and ar_of(job) == ar_id:
            found.append(job)
    return found


def check(core: Core) -> list[str]:
    """The kept index against one built from the jobs (for ``validate_state``)."""
    kept = core.ar_members
    if kept is None:
        return []
    fresh = ArMembers(core.jobs.values())
    if fresh.of != kept.of:
        wrong = sorted(set(fresh.of.items()) ^ set(kept.of.items()))[:5]
        return [f"AR membership index differs from the jobs: {wrong}"]
    return []


HOOKS.jobs_changed = jobs_changed
