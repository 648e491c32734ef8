"""Which of qstat's job rows a ``-s`` filter keeps, and the finished jobs ``-s z`` shows.

A pending row is kept when ``p`` is selected and, if any hold flag is
selected, the job is in one of those holds; a row in a queue when ``r`` is
selected (``s`` for a job suspended by ``qmod -s``) or the job is in a selected
user, operator, system or array hold (as Grid Engine's ``sge_print_jobs_queue``
tests them). ``-s z`` adds the last ``finished_jobs`` (sge_conf(5)) jobs that
finished, state ``z``; the qmaster keeps them in memory only, as Grid Engine
keeps its zombie list. Each also keeps
the ids of its tasks that never started (deleted while pending): ``qsub -sync y``
learns from them at once that those tasks have no accounting record to wait for.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qmaster.core.holds import hold_letters
from qmaster.core.jobs import Job, format_id_runs
from qmaster.core.taskids import TaskIds
from qmaster.state_filter import PENDING, RUNNING, SUSPENDED, ZOMBIE, selected_holds

if TYPE_CHECKING:
    from qmaster.core.machine import Core

_PENDING_STATES = frozenset({"qw", "hqw", "Eqw", "vqw", "Rq"})
LETTERS = "_hold_letters"
"""The key of a row's hold letters (``u o s d j a``, :func:`qmaster.core.query.job_rows`),
which the filter takes off the rows it keeps."""
_QUEUE_HOLDS = frozenset({"u", "o", "s", "d"})


def keeps(
    core: Core, job: Job, rows: list[dict[str, Any]], bits: frozenset[str]
) -> list[dict[str, Any]]:
    """The rows of ``job`` the filter ``bits`` keeps."""
    holds = selected_holds(bits)
    kept = []
    for row in rows:
        letters = row.pop(LETTERS, None)
        pending = row["state"] in _PENDING_STATES
        if pending and PENDING not in bits:
            continue
        # a job suspended by qmod -s is not running (GE clears JRUNNING when it sets
        # JSUSPENDED): -s r leaves it out, -s s shows it; a suspended queue's jobs run on
        if not pending and (SUSPENDED if "s" in row["state"] else RUNNING) in bits:
            kept.append(row)
            continue
        wanted = holds if pending else holds & _QUEUE_HOLDS
        if wanted or not pending:
            if not wanted:
                continue
            letters = hold_letters(core, job) if letters is None else letters
            if not letters & wanted:
                continue
        kept.append(row)
    return kept


@dataclass(slots=True)
class FinishedJob(Job):
    """What ``qstat -s z`` keeps of a finished job: the job without its tasks (an array's
    tasks can be a million objects), their ids as qstat prints them, the first start and
    the tasks that never started, whose ending has no accounting record (``None``: every
    task started, the common case; a task rescheduled, then deleted, did start)."""

    task_ids: str | None = None
    first_start: float | None = None
    never_started: TaskIds | None = None


def finished(job: Job) -> FinishedJob:
    """The record of ``job`` kept for ``qstat -s z``."""
    starts = [t.start_time for t in job.tasks.values() if t.start_time is not None]
    never = None
    if len(starts) < len(job.tasks):  # tasks deleted before they started (not after a rerun)
        again = job.restarted
        never = TaskIds.from_ids(
            t.task_id for t in job.tasks.values() if t.start_time is None and t.task_id not in again
        )
    return FinishedJob(
        job_id=job.job_id,
        owner=job.owner,
        submit_time=job.submit_time,
        spec=job.spec,
        array=job.array,
        holds=job.holds,
        task_ids=format_id_runs(sorted(job.tasks)) if job.array else None,
        first_start=min(starts) if starts else None,
        never_started=never,
    )


def finished_record(core: Core, job_id: int) -> FinishedJob | None:
    """The newest finished job ``job_id`` the qmaster still keeps (``None``: none, or
    dropped: the list holds the last ``finished_jobs`` only)."""
    for job in reversed(core.zombies):
        if job.job_id == job_id and isinstance(job, FinishedJob):
            return job
    return None


def remember_finished(core: Core, job: Job) -> None:
    """Keep a job that just finished for ``qstat -s z``, at most ``finished_jobs`` of them.

    Grid Engine keeps its zombie list in memory only: so does minige, and only the
    :class:`FinishedJob` record of each.
    """
    limit = core.config.global_conf.finished_jobs
    zombies: deque[Job] = core.zombies
    if limit <= 0:
        zombies.clear()
        return
    zombies.append(finished(job))
    while len(zombies) > limit:
        zombies.popleft()


def zombie_row(job: Job, prior: float) -> dict[str, Any]:
    """The row of a finished job: state ``z``, no queue, its tasks for an array."""
    record = job if isinstance(job, FinishedJob) else finished(job)
    return {
        "job_id": job.job_id,
        "prior": round(prior, 5),
        "name": job.name,
        "owner": job.owner.user,
        "state": "z",
        "submit_time": job.submit_time,
        "start_time": record.first_start,
        "queue": None,
        "slots": job.slots,
        "tasks": record.task_ids,
    }


def wants_zombies(bits: frozenset[str]) -> bool:
    """Whether the filter asks for finished jobs."""
    return ZOMBIE in bits
