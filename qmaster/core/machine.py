"""The core: a pure, synchronous state machine of one cell.

Theory of operation. The drivers (the daemon, the trace simulator, tests)
feed it typed stimuli (:mod:`qmaster.core.stimuli`), each with the current
wall time, through :meth:`Core.handle`:

- a request from a client, with the caller's kernel identity, or the server
  JSV's verdict on a job the core asked about;
- ``TimeAdvanced`` (also :meth:`Core.tick`): due timers fire (a transferred
  task starts, a running task ends) and, when due, a scheduling pass runs.

Both return an :class:`~qmaster.core.outcome.Outcome` whose ``effects()`` are
typed (:mod:`qmaster.core.effects`): rows to spool, records, log lines,
subscriber events, jobs to verify, tasks to start or kill, the reply. The core
does no I/O, reads no clock and never sleeps; :meth:`Core.next_deadline` tells
the driver when to tick next. Job and task state changes go through the
transition table in :mod:`qmaster.core.states`.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from qmaster.complexes.booking import Changed
from qmaster.conf.state import QueueInstanceConf
from qmaster.conf.store import ClusterConfig
from qmaster.core import qstates
from qmaster.core.ars import AdvanceReservation
from qmaster.core.errors import CoreError, InvalidRequest
from qmaster.core.jobs import Identity, Job, Task
from qmaster.core.jobtable import JobTable
from qmaster.core.jsvrules import Verifications
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HANDLERS, HOOKS, Timer
from qmaster.core.stimuli import Asked, Query, TimeAdvanced
from qmaster.core.story import Journal, StoryLine, stimulus_name
from qmaster.rqs.usage import QuotaBookings
from schedd.calendar import Calendar
from schedd.reasons import ReasonList

if TYPE_CHECKING:  # the index's module imports this one
    from qmaster.core.armembers import ArMembers

MAX_ID = 9_999_999


@dataclass(frozen=True, slots=True)
class CoreSettings:
    """Settings of the core that do not live in the cell's configuration."""

    default_runtime: float = 1.0
    admins: frozenset[str] = frozenset({"root"})
    qmaster_host: str = "localhost"
    local_execution: bool = False
    """A started task runs until its driver reports its end (``TaskEnded``); only
    ``h_rt``/``s_rt`` end it from the core."""


def _enterable(_path: str, _owner: Identity) -> str | None:
    return None


QUIET_TIMERS = frozenset({"start", "qcal", "reverify"})
"""Timers that change nothing a pass looks at by themselves (a task in ``t`` starts; the
calendar check): what they do change calls :meth:`Core.mark_changed` itself."""


_T = TypeVar("_T")


class ClockWentBackwards(Exception):
    """A driver handed the core a time before one it had already seen; nothing changed."""

    def __init__(self, now: float, seen: float) -> None:
        super().__init__(f"time went backwards: {now} is before {seen}, already seen")
        self.now = now
        self.seen = seen


class Core:
    """The cell's jobs and configuration, changed only through handle() and tick()."""

    def __init__(
        self,
        config: ClusterConfig,
        settings: CoreSettings | None = None,
        *,
        workdir_error: Callable[[str, Identity], str | None] = _enterable,
    ) -> None:
        self.config = config
        self.settings = settings or CoreSettings()
        self.workdir_error = workdir_error
        """Why a job's owner could not enter a working directory (None: it could); the
        daemon's is :func:`qmaster.workdirs.workdir_error`."""
        self.jobs = JobTable()
        self.next_job_id = 1
        self.booked = QuotaBookings()
        self.user_jobs: Counter[str] = Counter()
        self.reasons: dict[int, ReasonList] = {}
        # the last finished jobs, for qstat -s z (in memory only, as Grid Engine's zombies)
        self.zombies: deque[Job] = deque()
        self.now = -math.inf
        """The latest time a stimulus brought; the core refuses earlier ones."""
        self.working_on: tuple[str, int, int] | None = None
        """The timer (kind, job id, task id) or dispatch being handled; left set when that
        step raises, so that the driver knows which job or task a bug is about."""
        self.schedule_at: float | None = None
        self.sched_touched: set[int] = set()
        """Jobs changed since the last pass (their spool rows were written)."""
        self.job_watch: Changed[int] | None = None
        """Jobs changed since the kept plan last looked (:mod:`qmaster.core.keptplan`)."""
        self.sched_dirty = True
        """Something a pass looks at changed since the last pass (Grid Engine's scheduler
        runs on events: a tick with nothing changed runs no pass)."""
        self.monitor_next_pass = False
        """``qconf -tsm`` asked for the next pass's decisions (:mod:`qmaster.core.runlog`)."""
        self._timers: list[Timer] = []
        self._seq = itertools.count()
        self._qi_by_name: dict[str, QueueInstanceConf] | None = None
        self.verify_waiting: set[int] = set()
        self.verifications = Verifications()
        """What the core asked the server JSV (``VerifyJob``) and awaits the verdict of."""
        # values derived from one configuration state, rebuilt when it changes
        self.derived: dict[str, tuple[object, object]] = {}
        self.ars: dict[int, AdvanceReservation] = {}
        self.next_ar_id = 1
        self.ar_calendar = Calendar()
        # queue instance states set by qmod (d, s, E; spooled) and by calendars (D, C)
        self.qi_states: dict[str, frozenset[str]] = {}
        self.qi_calendar: dict[str, str] = {}
        self.down_hosts: set[str] = set()
        self.unknown_since: dict[str, float] = {}  # host -> when it went down (reschedule_unknown)
        """Hosts whose execd ``qconf -ke`` shut down (``u``); a qmaster restart brings them back."""
        self.qcal_at: float | None = None
        self.ar_members: ArMembers | None = None
        """Which jobs are in which AR (:mod:`qmaster.core.armembers`), built when needed."""
        self.journal = Journal()
        """Stimulus ids and the jobs' stories (see :mod:`qmaster.core.story`)."""

    # -- entry points -------------------------------------------------------

    def per_config(self, key: str, kind: type[_T], build: Callable[[], _T]) -> _T:
        """A value derived from the configuration: built once, rebuilt when it changes."""
        state = self.config.state
        kept = self.derived.get(key)
        if kept is None or kept[0] is not state:
            kept = (state, build())
            self.derived[key] = kept
        value = kept[1]
        assert isinstance(value, kind)
        return value

    def advance(self, now: float) -> None:
        """Take ``now`` as the time; raise :class:`ClockWentBackwards` for an earlier one.

        The first time the core learns starts its scheduling passes.
        """
        if now < self.now:
            raise ClockWentBackwards(now, self.now)
        if self.now == -math.inf:
            self.request_pass(now)
        self.now = now

    def validate_state(self, written: Any = None, *, thorough: bool = True) -> None:
        """Recompute what the core caches and raise ``InvalidState`` listing every difference.

        ``written`` (a :class:`~qmaster.core.spool_image.SpoolImage`) also compares
        the spooled rows with memory. See :mod:`qmaster.core.validate`.
        """
        assert HOOKS.validate is not None
        HOOKS.validate(self, written, thorough=thorough)

    def timer_list(self) -> list[Timer]:
        """The timers set, stale ones included, in the order of the heap."""
        return list(self._timers)

    def handle(self, stimulus: Asked | TimeAdvanced, now: float) -> Outcome:
        """Handle one stimulus; on a refusal nothing in the core has changed but the job id
        counter, when a submission was refused after its number was taken (as in Grid Engine:
        :func:`qmaster.core.submit.numbered_spec`)."""
        if isinstance(stimulus, TimeAdvanced):
            return self.tick(now)
        self.advance(now)
        out = Outcome()
        fn = HANDLERS.get(type(stimulus))
        if fn is None:
            out.answers.append(InvalidRequest(f"unknown request {stimulus!r}").to_answer())
            return out
        try:
            with self.journal.stimulus(stimulus_name(stimulus), now, out, self.jobs):
                fn(self, stimulus, now, out)
        except CoreError as exc:
            out.answers.extend(exc.to_answers())
            out.discard_effects()
            return out
        if not isinstance(stimulus, Query) and (
            out.spool or (out.answered and not any(a.is_error for a in out.answers))
        ):
            self.mark_changed(now)  # a request refused in its answers changed nothing
        self.touch(out)
        return out

    def touch(self, out: Outcome) -> None:
        """Note the jobs an outcome changed so far: every change to a job is spooled."""
        spool = out.spool
        watch = self.job_watch
        if spool.jobs:
            self.sched_touched.update(spool.jobs)
            if HOOKS.jobs_changed is not None:
                HOOKS.jobs_changed(self, spool.jobs)
            if watch is not None:
                for job_id in spool.jobs:
                    watch.note(job_id)
        if spool.tasks:
            self.sched_touched.update(key[0] for key in spool.tasks)
            if watch is not None:
                for job_id, _ in spool.tasks:
                    watch.note(job_id)

    def tick(self, now: float) -> Outcome:
        """Fire due timers and run a scheduling pass if one is due (``TimeAdvanced``)."""
        self.advance(now)
        out = Outcome(answered=False)
        while self._timers and self._timers[0].at <= now:
            t = heapq.heappop(self._timers)
            self.working_on = (t.kind, t.job_id, t.task_id)
            with self.journal.stimulus(f"timer {t.kind}", now, out, self.jobs):
                HOOKS.timer(t.kind)(self, t, now, out)
            if t.kind not in QUIET_TIMERS:
                self.mark_changed(now)
        self.working_on = None
        if self.pass_due(now) and HOOKS.run_pass:
            with self.journal.stimulus("pass", now, out, self.jobs):
                HOOKS.run_pass(self, now, out)
        self.working_on = None
        self.touch(out)
        return out

    def story(self, job_id: int) -> list[StoryLine]:
        """What happened to a job in the cell, in order: time, stimulus id and name, change."""
        job = self.jobs.get(job_id)
        return self.journal.story(job) if job is not None else []

    def pass_due(self, now: float) -> bool:
        """A pass is due: its time has come and something changed since the last one."""
        return self.sched_dirty and self.schedule_at is not None and self.schedule_at <= now

    def mark_changed(self, now: float) -> None:
        """Something a scheduling pass looks at changed: the next regular pass runs.

        The pass keeps the ``schedule_interval`` rhythm: after a quiet spell it comes at
        the first interval boundary not before ``now``, as Grid Engine's would.
        """
        if self.sched_dirty:
            return
        self.sched_dirty = True
        at, interval = self.schedule_at, self.config.sched_conf.schedule_interval
        if at is not None and at < now and interval > 0:
            self.schedule_at = at + math.ceil((now - at) / interval) * interval

    def next_deadline(self) -> float | None:
        """The wall time at which the driver has something to do (a job waiting for
        verification has a timer for its next try)."""
        at = self.schedule_at if self.sched_dirty else None
        if self._timers:
            first = self._timers[0].at
            return first if at is None or first < at else at
        return at

    # -- helpers used by the handlers -----------------------------------------

    def set_timer(self, at: float, kind: str, job_id: int, task_id: int) -> None:
        heapq.heappush(self._timers, Timer(at, next(self._seq), kind, job_id, task_id))

    def request_pass(self, at: float) -> None:
        """Ask for a scheduling pass no later than ``at`` (something changed)."""
        self.mark_changed(at)
        if self.schedule_at is None or at < self.schedule_at:
            self.schedule_at = at

    def queue_instance(self, name: str) -> QueueInstanceConf | None:
        """The configuration of one queue instance (``all.q@host1``)."""
        if self._qi_by_name is None:
            self._qi_by_name = {qi.name: qi for qi in self.config.queue_instances()}
        return self._qi_by_name.get(name)

    def replace_config(self, config: ClusterConfig) -> None:
        """Take a changed configuration into use."""
        self.config = config
        self._qi_by_name = None

    def is_manager(self, who: Identity) -> bool:
        return who.uid == 0 or who.user in self.settings.admins or who.user in self.config.managers

    def is_operator(self, who: Identity) -> bool:
        """Operators (``qconf -ao``) and managers: they may handle every job and queue."""
        return self.is_manager(who) or who.user in self.config.state.operators

    def free_job_id(self) -> int:
        """The id the next job gets: wraps after 9,999,999 and skips ids in use."""
        job_id = self.next_job_id
        for _ in range(MAX_ID):
            if job_id not in self.jobs:
                return job_id
            job_id = job_id % MAX_ID + 1
        raise CoreError("job rejected: no free job id")

    def allocate_job_id(self) -> int:
        """The next free id (:meth:`free_job_id`), taken."""
        job_id = self.free_job_id()
        self.next_job_id = job_id % MAX_ID + 1
        return job_id

    def allocate_ar_id(self) -> int:
        """The next free advance reservation id; wraps after 9,999,999, skips ids in use."""
        ar_id = self.next_ar_id
        for _ in range(MAX_ID):
            if ar_id not in self.ars:
                break
            ar_id = ar_id % MAX_ID + 1
        else:
            raise CoreError("rejected: no free advance reservation id")
        self.next_ar_id = ar_id % MAX_ID + 1
        return ar_id

    def spool_job(self, out: Outcome, job: Job) -> None:
        out.spool.jobs[job.job_id] = job.to_row()

    def spool_task(self, out: Outcome, job: Job, task: Task) -> None:
        out.spool.tasks[(job.job_id, task.task_id)] = task.to_row()

    # -- recovery --------------------------------------------------------------

    @classmethod
    def recover(
        cls,
        config: ClusterConfig,
        settings: CoreSettings,
        jobs: Iterable[dict[str, Any]],
        tasks: list[dict[str, Any]],
        counters: dict[str, int],
        now: float,
        ars: list[dict[str, Any]] | None = None,
        story: list[tuple[int, list[Any]]] | None = None,
        **kw: Any,
    ) -> Core:
        """Rebuild the core from spooled rows (after a clean stop or a crash)."""
        core = cls(config, settings, **kw)
        core.advance(now)
        core.qi_states = qstates.restore(counters)
        core.set_timer(now, "qcal", 0, 0)  # calendar states at once, on the first tick
        by_job: dict[int, list[Task]] = {}
        for row in tasks:
            by_job.setdefault(int(row["job_id"]), []).append(Task.from_row(row))
        owners: dict[Identity, Identity] = {}
        for row in jobs:
            job = Job.from_row(row, by_job.get(int(row["job_id"]), []))
            job.owner = owners.setdefault(job.owner, job.owner)  # one object per user
            core.jobs[job.job_id] = job
            core.user_jobs[job.owner.user] += 1
            if job.verify_wait:
                core.verify_waiting.add(job.job_id)
                core.set_timer(job.verify_wait.next_at, "reverify", job.job_id, 0)
            if HOOKS.restore_job is not None:
                HOOKS.restore_job(core, job, now)
        highest = max(core.jobs, default=0)
        core.next_job_id = counters.get("job") or highest % MAX_ID + 1
        core.journal.restore(counters, story or [], core.jobs)
        if HOOKS.restore_ars is not None:
            HOOKS.restore_ars(core, ars or [], counters, now)
        return core


def recovered_tasks(core: Core) -> int:
    """How many tasks the core's jobs hold: pending ones and those that left pending."""
    return sum(len(job.pending) + len(job.tasks) for job in core.jobs.values())
