"""The discrete-event loop: submissions at their times, core ticks at its deadlines.

Theory of operation. The loop keeps one heap of submissions (trace time,
tie-break key, trace position). At each step the virtual time moves to the
earlier of the next submission and :meth:`CoreFeed.next_deadline`; every
submission due by then is handed to the core, then the core is ticked when
its deadline has come. Nothing sleeps and no socket is opened: a replay runs
as fast as the core's passes allow.

The effects are executed as the daemon executes those that matter here:
report records go through the daemon's own writer (``accounting`` and
``reporting`` in the output folder, as ``reporting_params`` says); spool rows
are dropped (a simulation keeps no spool). Accounting records end jobs: they
give each job its start and end, release jobs that wait for it through a
think time, and advance the progress.
"""

from __future__ import annotations

import gc
import random
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import isnan

from qmaster.core import Identity, Outcome
from qmaster.events.records import Acct, JobLog
from qmaster.events.writer import EventFiles
from qmaster.sim.ars import ArLine
from qmaster.sim.feed import CoreFeed, Verifier
from qmaster.sim.jobs import TraceJob, TraceJobs
from qmaster.sim.mapping import Defaults, job_spec
from qmaster.sim.results import NO_ID, JobResult, Results
from qmaster.sim.submitqueue import SubmitQueue
from qmaster.sim.trace import Trace

__all__ = ["JobResult", "Progress", "RunSettings", "Simulation", "SimulationStuck"]

STUCK_STEPS = 100_000
"""Steps at one instant after which the replay gives up: the core keeps asking for a tick
at a time it has already had (a bug, reported rather than spun on forever)."""
FLUSH_LINES = 20_000
"""Buffered report lines written out at once (bounds memory on long traces)."""

Progress = Callable[[float, int], None]
"""Told the simulated seconds since the trace start and how many jobs ended."""


GC_THRESHOLD = (20_000, 20, 20)
"""The cyclic collector's thresholds while a replay runs: a job's records, rows and stimuli
are short-lived and freed by their reference counts, and collecting every 700 allocations
cost some 4% of a 10k replay's CPU (measured: 1.1 s of 25.7, 0.3 s with these); the trace
and the cell, made before, are left out of the collector's passes."""


@contextmanager
def _collector_for_replay() -> Iterator[None]:
    """Run the replay with :data:`GC_THRESHOLD`, the objects made so far kept out of the
    collector's full passes (``gc.freeze``); both undone after, however it ends."""
    kept = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*kept)
        gc.unfreeze()


class SimulationStuck(RuntimeError):
    """The core asks for the same instant again and again; the message says when."""


@dataclass(slots=True)
class RunSettings:
    """How a run goes: when it stops, how ties are broken, who is told of progress."""

    until: float | None = None
    """Simulated seconds after the trace's start at which the replay stops."""
    seed: int | None = None
    """Submissions at the same second go in trace order, or shuffled with this seed."""
    progress: Progress | None = None


@dataclass(slots=True)
class Simulation:
    """One replay of a trace through a core."""

    trace: Trace
    feed: CoreFeed
    defaults: Defaults
    events: EventFiles | None
    settings: RunSettings = field(default_factory=RunSettings)
    jsv: Verifier | None = None
    ars: list[ArLine] = field(default_factory=list)
    """Advance reservations to ask for, in time order."""
    results: Results = field(default_factory=lambda: Results(TraceJobs()))
    """What became of each trace job (made for the whole trace when the replay starts)."""
    ar_results: list[tuple[ArLine, int | None, str | None]] = field(default_factory=list)
    """Each reservation asked for: its id, or the qmaster's refusal."""
    now: float = 0.0
    ended: int = 0
    _queue: SubmitQueue = field(init=False)
    _by_id: dict[int, int] = field(default_factory=dict)
    """Job id -> trace position, of the jobs in the cell."""
    _by_number: dict[int, int] = field(default_factory=dict)
    _followers: dict[int, list[int]] = field(default_factory=dict)
    _owners: dict[tuple[str, str], Identity] = field(default_factory=dict)

    def run(self) -> Results:
        """Replay the whole trace (or up to ``until``); the result of every trace job."""
        self._plan()
        with _collector_for_replay():
            self._replay()
        return self.results

    def _replay(self) -> None:
        start = float(self.trace.start)
        until = None if self.settings.until is None else start + self.settings.until
        self.now = start
        steps = 0
        while True:
            at = self._next_time()
            if at is None or (until is not None and at > until):
                break
            steps = steps + 1 if at <= self.now else 0
            if steps > STUCK_STEPS:
                raise SimulationStuck(f"the core asks for a tick at {self.now} over and over")
            self.now = max(at, self.now)
            self._ask_ars()
            while (due := self._queue.pop_due(self.now)) is not None:
                self._submit(due)
            deadline = self.feed.next_deadline()
            if deadline is not None and deadline <= self.now:
                self.feed.tick(self.now, self.jsv, self._apply)
        if self.events is not None:
            self.events.flush()

    def _next_time(self) -> float | None:
        at = self.feed.next_deadline()
        due = self._queue.first()
        if due is not None and (at is None or due[0] < at):
            at = due[0]
        if len(self.ar_results) < len(self.ars):
            ar_at = self.trace.start + self.ars[len(self.ar_results)].at
            if at is None or ar_at < at:
                at = ar_at
        return at

    def _ask_ars(self) -> None:
        """qrsub of every reservation due by now, as root (before the jobs of that second)."""
        root = self._owners.setdefault(("root", "root"), Identity(0, 0, "root", "root"))
        while len(self.ar_results) < len(self.ars):
            line = self.ars[len(self.ar_results)]
            if self.trace.start + line.at > self.now:
                return
            done = self.feed.submit_ar(root, line.spec, self.now)
            self.ar_results.append((line, done.job_id, done.refusal))
            self._apply(done.outcome)

    # -- submissions ---------------------------------------------------------------

    def _plan(self) -> None:
        """Every job into the heap, except those that follow a job by a think time."""
        rng = random.Random(self.settings.seed) if self.settings.seed is not None else None
        jobs = self.trace.jobs
        self.results = Results(jobs)
        follows = jobs.follows
        # only the jobs some job follows are looked up by number (no table of a million)
        leads = {preceding for preceding, _ in follows.values() if preceding is not None}
        if leads:
            for index, number in enumerate(jobs.numbers):
                if number in leads:
                    self._by_number.setdefault(number, index)
        start = float(self.trace.start)
        # without a seed the keys are the positions, and without followers every job is
        # planned in trace order: the queue keeps only the times then
        times = array("d")
        keys = array("d") if rng is not None else None
        planned = array("q") if follows else None
        for index, submit in enumerate(jobs.submits):
            preceding, think = follows.get(index, (None, None)) if follows else (None, None)
            lead = self._by_number.get(preceding) if preceding is not None else None
            if lead is not None and lead != index and think is not None:
                self._followers.setdefault(lead, []).append(index)
                continue
            times.append(start + submit)
            if keys is not None and rng is not None:
                keys.append(rng.random())
            if planned is not None:
                planned.append(index)
        self._queue = SubmitQueue(times, keys, planned)

    def _owner(self, job: TraceJob) -> Identity:
        key = (job.user, job.group)
        who = self._owners.get(key)
        if who is None:
            who = self._owners[key] = Identity(job.uid, job.gid, job.user, job.group)
        return who

    def _submit(self, index: int) -> None:
        job = self.trace.jobs[index]
        spec = job_spec(job, self.defaults)
        lead = self._lead_in_system(job)
        if lead is not None:
            spec["hold_jid"] = [str(lead)]
        done = self.feed.submit(self._owner(job), spec, self.now, self.jsv, self._apply)
        results = self.results
        results.submitted[index] = self.now - self.trace.start
        if done.job_id is None:
            results.refuse(index, done.refusal)
            self.ended += 1
            return
        results.job_id[index] = done.job_id
        self._by_id[done.job_id] = index
        self._apply(done.outcome)

    def _lead_in_system(self, job: TraceJob) -> int | None:
        """The job id of a preceding job still in the cell (``-hold_jid`` on it)."""
        if job.preceding is None:
            return None
        index = self._by_number.get(job.preceding)
        if index is None:
            return None
        job_id, end = self.results.job_id[index], self.results.end[index]
        return job_id if job_id != NO_ID and isnan(end) else None  # not ended: end is NaN

    # -- effects -------------------------------------------------------------------

    def _apply(self, out: Outcome) -> None:
        for record in out.reports:
            if self.events is not None:
                self.events.add(record)
            if isinstance(record, Acct):
                self._ended(record)
            elif isinstance(record, JobLog) and record.event == "running":
                self._started(record)
        if self.events is not None and self.events.pending >= FLUSH_LINES:
            self.events.flush()

    def _started(self, record: JobLog) -> None:
        index = self._by_id.get(record.job_number)
        if index is not None:
            self.results.start[index] = record.event_time - float(self.trace.start)

    def _ended(self, record: Acct) -> None:
        index = self._by_id.get(record.job_number)
        if index is None:
            return
        start = float(self.trace.start)
        results = self.results
        results.start[index] = record.start_time - start
        results.end[index] = record.end_time - start
        results.queue[index] = results.code(record.qname)
        results.host[index] = results.code(record.hostname)
        results.slots[index], results.failed[index] = record.slots, record.failed
        results.exit_status[index] = record.exit_status
        if record.job_number not in self.feed.core.jobs:  # it left the cell: no more records
            del self._by_id[record.job_number]
        self.ended += 1
        for follower in self._followers.pop(index, []):
            think = self.trace.jobs.follows.get(follower, (None, None))[1] or 0.0
            self._queue.push(record.end_time + think, float(follower), follower)
        if self.settings.progress is not None:
            self.settings.progress(self.now - start, self.ended)
