"""The job rows of one ``job_list`` request (qstat), built job by job.

:class:`JobListing` works out once per request what every job's rows need
(the ``-s`` bits and the holds they select, the ``-u`` users, the shown queue
instances, the priorities) and then gives the rows of one job: as dicts
(:meth:`JobListing.rows`, the reply without ``compact``) or as the lists of
:mod:`qmaster.core.qstat_rows` (:meth:`JobListing.compact_rows`), where a
plain listing's pending job without tasks takes a short path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from qmaster.core.holds import held_by_jid
from qmaster.core.job_filter import keeps, wants_zombies, zombie_row
from qmaster.core.jobs import Job
from qmaster.core.qstat_listing import Shown, enrich, keep_rows, per_queue
from qmaster.core.qstat_rows import Priors
from qmaster.core.stimuli import JobList
from qmaster.qstat_wire import Row, compact, second
from qmaster.state_filter import PENDING, selected_holds

if TYPE_CHECKING:
    from qmaster.core.machine import Core


RowsOfJob = Callable[["Core", Job, float], list[dict[str, Any]]]
"""qstat's rows of one job at a priority, before ``-s`` and the options
(:func:`qmaster.core.query.job_rows`)."""


class JobListing:
    """What one ``job_list`` request shows of each job."""

    def __init__(
        self,
        core: Core,
        args: JobList,
        bits: frozenset[str],
        shown: Shown | None,
        now: float,
        job_rows: RowsOfJob,
    ) -> None:
        self.core = core
        self.job_rows = job_rows
        self.args = args
        self.bits = bits
        self.shown = shown
        self.now = now
        self.users = None if args.users is None or "*" in args.users else set(args.users)
        self.ids = [i for i in sorted(core.jobs) if self._wanted(core.jobs[i])]
        self.priors = Priors(core, now, core.jobs.values())
        self._plain = (
            not args.columns
            and not args.requirements
            and not set(args.group) & {"d", "t"}
            and shown is None
            and not selected_holds(bits)
        )
        self._pending = PENDING in bits

    def _wanted(self, job: Job) -> bool:
        return self.users is None or job.owner.user in self.users

    def rows(self, job: Job) -> list[dict[str, Any]]:
        """The job's rows as dicts, kept by ``-s`` and the queue selection, with what the
        options add."""
        core, args = self.core, self.args
        prio = self.priors.full(job)
        mine = per_queue(
            job, keeps(core, job, self.job_rows(core, job, prio.prio), self.bits), args
        )
        kept = keep_rows(core, job, mine, self.shown)
        return enrich(core, args, job, prio, kept, self.now) if kept else kept

    def compact_rows(self, job: Job) -> list[Row]:
        """The job's rows as lists (:func:`qmaster.core.qstat_rows.compact`)."""
        spec = job.spec
        if (  # a plain listing's pending job without tasks: one qw/hqw/vqw row
            self._plain
            and job.array is None
            and not job.tasks
            and not job.restarted
            and job.pending
            and not spec.hold_jid_ad
        ):
            if not self._pending:
                return []
            if job.verify_wait is not None:
                state = "vqw"  # as pending_state
            elif job.holds or (spec.hold_jid and held_by_jid(self.core, job)):
                state = "hqw"
            else:
                state = "qw"
            prior = self.priors.prior(job)
            row = [job.job_id, prior, job.name, job.owner.user, state, second(job.submit_time)]
            return [[*row, None, None, job.slots, None]]
        return [compact(r) for r in self.rows(job)]

    def zombie_rows(self) -> list[dict[str, Any]]:
        """``-s z``: the rows of the jobs that finished last."""
        if not wants_zombies(self.bits):
            return []
        out: list[dict[str, Any]] = []
        for job in self.core.zombies:
            if self._wanted(job):
                prio = self.priors.full(job)
                row = zombie_row(job, prio.prio)
                out.extend(enrich(self.core, self.args, job, prio, [row], self.now))
        return out

    def all_rows(self) -> list[dict[str, Any]]:
        """Every row as dicts, in job order, the finished jobs last."""
        out: list[dict[str, Any]] = []
        for job_id in self.ids:
            out.extend(self.rows(self.core.jobs[job_id]))
        return out + self.zombie_rows()

    def zombie_compact(self) -> Iterator[Row]:
        """The finished jobs' rows as lists (worked out when reached)."""
        yield from (compact(r) for r in self.zombie_rows())
