"""What a scheduling pass sees and what it returns.

The view is a snapshot the core assembles for one pass: the dispatchable jobs
in submission order, the queue instances with their booked slots, and the
configuration. The pass answers with orders (dispatch a task to an
assignment) and, for every job it left pending, the reasons why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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


@dataclass(slots=True)
class QueueState:
    """A queue instance as the pass sees it: capacity and what is booked."""

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

    @property
    def free(self) -> int:
        return self.total - self.used


@dataclass(frozen=True, slots=True)
class View:
    """Everything one pass may look at."""

    jobs: Sequence[JobRequest]
    queues: Sequence[QueueState]
    usersets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    config: Any = None


@dataclass(frozen=True, slots=True)
class Order:
    """Dispatch one task of a job to queue instances with a slot count on each."""

    job_id: int
    task_id: int
    assignment: tuple[tuple[str, int], ...]


@dataclass(slots=True)
class Plan:
    """The result of a pass."""

    orders: list[Order] = field(default_factory=list)
    reasons: dict[int, list[str]] = field(default_factory=dict)
