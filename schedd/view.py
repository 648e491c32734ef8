"""What a scheduling pass sees and what it returns.

The view is a snapshot the core assembles for one pass: the dispatchable jobs,
the queue instances, hosts and the global level with what each offers and has
booked (:class:`~qmaster.complexes.levels.Level`), the parallel environments,
the running tasks (for reservation), and the configuration the pass needs. The
pass answers with orders (dispatch a task to an assignment, booking its
debits), reservations, and for every job it left pending the reasons why.

Levels in a view belong to the pass: it books into their ``used`` as it
dispatches, so build a fresh view for every pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from qmaster.complexes.booking import Debit
from qmaster.complexes.levels import GLOBAL, HOST, QUEUE, Level
from qmaster.complexes.table import ComplexTable, entry_from_fields
from schedd.priority import Weights
from schedd.reasons import ReasonList

if TYPE_CHECKING:
    from schedd.quota import PassQuota

DEFAULT_TABLE = ComplexTable(
    [entry_from_fields(["slots", "s", "INT", "<=", "YES", "YES", "1", "1000"])]
)
"""The table a view without one uses: just ``slots``."""


@dataclass(frozen=True, slots=True)
class JobRequest:
    """One job with pending tasks the pass may dispatch."""

    job_id: int
    priority: int
    submit_time: float
    owner: str
    group: str
    task_ids: Sequence[int]
    slots: int = 1
    pe_name: str | None = None
    pe_min: int = 1
    pe_max: int = 1
    hard_queues: tuple[str, ...] = ()
    soft_queues: tuple[str, ...] = ()
    hard_resources: Mapping[str, str] = field(default_factory=dict)
    soft_resources: Mapping[str, str] = field(default_factory=dict)
    master_queues: tuple[str, ...] = ()
    reserve: bool = False
    runtime_limit: float | None = None
    deadline: float | None = None
    max_tasks: int | None = None
    """Tasks of this array job that may run at once (``-tc``, ``max_aj_instances``)."""
    running_tasks: int = 0
    """Tasks of this job running now (filled where a limit needs it)."""
    project: str | None = None
    ckpt: str | None = None
    """The checkpointing environment the job asks for (``-ckpt``)."""
    immediate: bool = False
    """``-now y``: Grid Engine dispatches it to INTERACTIVE queues only."""
    # the job's category key, when the caller keeps it from pass to pass (as Grid
    # Engine assigns a job its category at submission); None: worked out per pass
    category: Hashable | None = field(default=None, compare=False)


@dataclass(slots=True)
class QueueState:
    """A queue instance as the pass sees it: capacity, access, and its queue level."""

    name: str
    cqueue: str
    host: str
    total: int
    used: int
    seq_no: int = 0
    user_lists: tuple[str, ...] = ()
    xuser_lists: tuple[str, ...] = ()
    pe_list: tuple[str, ...] = ()
    disabled: bool = False
    host_groups: tuple[str, ...] = ()
    level: Level | None = None
    load_thresholds: tuple[tuple[str, str], ...] = ()
    projects: tuple[str, ...] = ()
    xprojects: tuple[str, ...] = ()
    qtype: tuple[str, ...] = ("BATCH", "INTERACTIVE")
    ckpt_list: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.level is None:
            self.level = Level(QUEUE, self.name, capacity={"slots": float(self.total)})
        self.level.capacity.setdefault("slots", float(self.total))
        if self.used:
            self.level.used.setdefault("slots", float(self.used))

    @property
    def free(self) -> int:
        """Slots not booked."""
        assert self.level is not None
        return int(self.level.available("slots"))

    @property
    def queue_level(self) -> Level:
        """The queue instance's level (never None after construction)."""
        assert self.level is not None
        return self.level


@dataclass(slots=True)
class HostState:
    """An execution host: its level and its access lists."""

    level: Level
    user_lists: tuple[str, ...] = ()
    xuser_lists: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    xprojects: tuple[str, ...] = ()


@dataclass(slots=True)
class PeState:
    """A parallel environment: its slot limit, what is booked, its rule and access."""

    name: str
    slots: int
    allocation_rule: str = "$pe_slots"
    used: int = 0
    user_lists: tuple[str, ...] = ()
    xuser_lists: tuple[str, ...] = ()
    urgency_slots: str = "min"


@dataclass(frozen=True, slots=True)
class Running:
    """What a running task holds and when it is expected to end (for reservations)."""

    debits: tuple[Debit, ...]
    end: float


@dataclass(frozen=True, slots=True)
class Booked:
    """Consumables an advance reservation holds from ``start`` to ``end``."""

    debits: tuple[Debit, ...]
    start: float
    end: float


@dataclass(slots=True)
class JobGroup:
    """Interchangeable jobs (one category, owner, ``-R`` and deadline flag) in dispatch
    order: ``first``, then ``rest``, read only as far as the pass gets."""

    key: Hashable
    first: JobRequest
    rest: Iterator[JobRequest]
    reserve: bool = False


@dataclass(slots=True)
class View:
    """Everything one pass may look at."""

    jobs: Sequence[JobRequest]
    queues: Sequence[QueueState]
    usersets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    config: Any = None
    complexes: ComplexTable = field(default_factory=lambda: DEFAULT_TABLE)
    global_level: Level = field(default_factory=lambda: Level(GLOBAL, GLOBAL))
    hosts: dict[str, HostState] = field(default_factory=dict)
    pes: dict[str, PeState] = field(default_factory=dict)
    global_user_lists: tuple[str, ...] = ()
    global_xuser_lists: tuple[str, ...] = ()
    """The global host's access lists (they hold for every host)."""
    global_projects: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    """The global host's ``projects`` and ``xprojects``."""
    max_reservation: int = 0
    default_duration: float = math.inf
    running: Sequence[Running] = ()
    running_plan: Any = None
    """The running tasks' bookings over time kept by the qmaster from pass to pass
    (a :class:`~schedd.reservation.RunningPlan`, then ``running`` is empty); None: the
    planner is built from ``running``."""
    advance: Sequence[Booked] = ()
    """Advance reservations not yet over: what each holds over its window."""
    ar_queues: frozenset[str] = frozenset()
    """Queue instances an advance reservation holds: no job without ``h_rt`` goes there."""
    maxujobs: int = 0
    """Running jobs allowed per user (0: no limit)."""
    user_running: Mapping[str, int] = field(default_factory=dict)
    """Running jobs per user (filled when ``maxujobs`` is set)."""
    queue_sort: str = "load"
    """``queue_sort_method``: ``load`` or ``seqno``."""
    load_formula: str = "np_load_avg"
    load_adjustments: Sequence[tuple[str, float]] = ()
    """``job_load_adjustments`` as (attribute, amount per slot)."""
    load_decay: float = 0.0
    """``load_adjustment_decay_time`` in seconds."""
    recent: Sequence[tuple[tuple[tuple[str, int], ...], float]] = ()
    """Jobs dispatched within the decay time: (host, slots) pairs and the dispatch time."""
    named: Callable[[tuple[str, ...]], frozenset[str]] | None = None
    """The names of the queue instances a ``-q`` list names, among every instance of the
    configuration (kept by the qmaster from pass to pass); None: worked out each pass."""
    weights: Weights = field(default_factory=Weights)
    """The priority and urgency weights of the scheduler configuration."""
    kept: dict[Hashable, Any] | None = None
    """What the scheduler may keep from pass to pass while the queue instances stay the
    same objects (the core's kept view; None: work everything out for this pass)."""
    written: list[tuple[str, str]] = field(default_factory=list)
    """The levels (kind, name) the pass booked into, so that a kept view can undo it."""
    groups: Sequence[JobGroup] | None = None
    """The pending jobs as groups (``jobs`` then holds the first of each): the pass merges
    them by priority and skips the rest of a group once its category is exhausted. Only
    where priority does not change with time (no waiting-time weight, no deadline)."""
    quota: PassQuota | None = None
    """Resource quota limits and what they count (None: no enabled set)."""
    job_info: bool = True
    """Say why jobs wait (``schedd_job_info``). False: nobody reads it, so the pass skips
    collecting what the places it looked at offer; the pending jobs' reasons stay empty
    but for those a category found before the pass (its static ones)."""

    unknown_hosts: dict[str, HostState] = field(default_factory=dict)
    """The hosts the view does not know, as the pass asked for them (kept apart from
    ``hosts``, which may be the core's kept view's, shared from pass to pass)."""

    def host(self, name: str) -> HostState:
        """The host's state; a host the view does not know offers nothing."""
        state = self.hosts.get(name)
        if state is None:
            state = self.unknown_hosts.get(name)
            if state is None:
                state = HostState(Level(HOST, name, values={"hostname": name}))
                self.unknown_hosts[name] = state
        return state


@dataclass(frozen=True, slots=True)
class Order:
    """Dispatch one task of a job to queue instances with a slot count on each."""

    job_id: int
    task_id: int
    assignment: tuple[tuple[str, int], ...]
    debits: tuple[Debit, ...] = ()
    pe_name: str | None = None


@dataclass(frozen=True, slots=True)
class Reservation:
    """A future start the pass set aside for a job (``-R y``)."""

    job_id: int
    task_id: int
    start: float
    end: float
    assignment: tuple[tuple[str, int], ...]


@dataclass(slots=True)
class Plan:
    """The result of a pass: orders, reservations, reasons and cache statistics."""

    orders: list[Order] = field(default_factory=list)
    reasons: dict[int, ReasonList] = field(default_factory=dict)
    reservations: list[Reservation] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    """Jobs whose matching raised (kept pending, the pass went on), with the fault."""
    skipped: dict[Hashable, ReasonList] = field(default_factory=dict)
    """Groups left once their category was exhausted: their other jobs share these reasons."""
    load_decaying: bool = False
    """A queue instance was in load alarm through job load adjustments that decay with
    time: a later pass may find it open although nothing else changed."""
