"""Jobs and their tasks: the plain data the core keeps, and their spool rows.

A job holds its specification (a :class:`~qmaster.core.jobspec.JobSpec`), who
submitted it, and its tasks. Pending tasks are kept as ranges of ids
(:class:`~qmaster.core.taskids.TaskIds`, Grid Engine's range lists); only tasks
that left pending have a :class:`Task` object, so ``qsub -t 1-1000000`` costs one
job and one range until its tasks run. A job is spooled as one row; its pending
ids are not spooled but derived at recovery from its range minus its tasks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import JobSpec, from_spooled
from qmaster.core.states import TRANSITIONS, TaskState, check_transition
from qmaster.core.story import task_moved
from qmaster.core.taskholds import NO_HOLDS, Holds, from_spool, to_spool, unite
from qmaster.core.taskids import TaskIds
from qmaster.model import Identity as Identity  # noqa: PLC0414 (re-exported: its old home)


@dataclass(frozen=True, slots=True)
class TaskRange:
    """An array job's ``-t first-last:step``."""

    first: int
    last: int
    step: int

    def ids(self) -> range:
        return range(self.first, self.last + 1, self.step)

    def __str__(self) -> str:
        return f"{self.first}-{self.last}:{self.step}"


_RANGE = re.compile(r"^(\d+)(?:-(\d+)(?::(\d+))?)?$")


def parse_task_range(text: str) -> TaskRange:
    """Parse ``n``, ``n-m`` or ``n-m:s`` as qsub -t and qdel's task lists accept them."""
    m = _RANGE.match(text.strip())
    if not m:
        raise InvalidRequest(f'ERROR! invalid task range "{text}"')
    first = int(m.group(1))
    last = int(m.group(2) or first)
    step = int(m.group(3) or 1)
    if first < 1 or last < first or step < 1:
        raise InvalidRequest(f'ERROR! invalid task range "{text}"')
    last -= (last - first) % step
    return TaskRange(first, last, step)


def task_list(text: str) -> TaskIds | range:
    """A job id's task range (``1-5:2``), or the ranges a client joined with commas for one
    job word (``qhold 7.1 -t 3``: ``7.1,3``, the union Grid Engine's clients send)."""
    if "," not in text:
        return parse_task_range(text).ids()
    parts = [parse_task_range(part).ids() for part in text.split(",")]
    every = TaskIds.of(range(1, max(r[-1] for r in parts) + 1))
    return unite(every, map(TaskIds.of, parts))


def format_id_runs(ids: Iterable[int]) -> str:
    """Compress task ids into qstat's ``1-5:1,7-9:2`` form (a TaskIds costs its ranges)."""
    return str(ids if isinstance(ids, TaskIds) else TaskIds.from_ids(ids))


_MOVES: dict[tuple[TaskState, TaskState], tuple[str, str, str]] = {
    (frm, to): (f"{frm.value}->{to.value}: ", frm.name, to.name)
    for frm in TaskState
    for to in TaskState
}
"""Each move's story prefix and the two states' names, made once (a task moves three times
or more in its life)."""


@dataclass(slots=True)
class Task:
    """One task that has left the pending list."""

    task_id: int
    state: TaskState
    assignment: tuple[tuple[str, int], ...] = ()
    dispatch_time: float | None = None
    start_time: float | None = None
    end_time: float | None = None
    exit_status: int = 0
    failed: int = 0
    message: str = ""
    # fixed when the task starts, as an execd would: (end time, exit status, failed)
    plan: tuple[float, int, int] | None = None
    story: list[str] = field(default_factory=list)
    # why a running task is suspended ("s" qmod -sj, "S" its queue) and the runtime it has left
    suspended: str = ""
    remaining: float | None = None
    restarted: bool = False  # rescheduled before (qmod -r): qstat's "R"
    # what its dispatch booked (level kind, level, attribute, amount): a restart books it again,
    # whatever changed in the configuration since (a host left its queue, a complex changed)
    debits: tuple[tuple[str, str, str, float], ...] = ()

    @property
    def queue(self) -> str | None:
        """The master queue instance."""
        return self.assignment[0][0] if self.assignment else None

    @property
    def slots(self) -> int:
        return sum(n for _, n in self.assignment)

    def move(self, job_id: int, to: TaskState, why: str) -> None:
        """Change state through the transition table, recording the cause."""
        frm = self.state
        if to not in TRANSITIONS[frm]:  # raises
            check_transition(f"job {job_id}.{self.task_id}", frm, to, self.story)
        arrow, frm_name, to_name = _MOVES[(frm, to)]
        self.story.append(arrow + why)
        task_moved(job_id, self.task_id, frm_name, to_name, why, self.queue)
        self.state = to

    def to_row(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "state": self.state.name,
            "assignment": [list(a) for a in self.assignment],
            "dispatch_time": self.dispatch_time,
            "start_time": self.start_time,
            "end_time": self.end_time,
            "exit_status": self.exit_status,
            "failed": self.failed,
            "message": self.message,
            "plan": list(self.plan) if self.plan else None,
            "suspended": self.suspended,
            "remaining": self.remaining,
            "restarted": self.restarted,
            "debits": [list(d) for d in self.debits],
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Task:
        return cls(
            task_id=row["task_id"],
            state=TaskState[row["state"]],
            assignment=tuple((str(q), int(n)) for q, n in row["assignment"]),
            dispatch_time=row["dispatch_time"],
            start_time=row["start_time"],
            end_time=row["end_time"],
            exit_status=row["exit_status"],
            failed=row["failed"],
            message=row["message"],
            plan=(float(p[0]), int(p[1]), int(p[2])) if (p := row.get("plan")) else None,
            suspended=str(row.get("suspended") or ""),
            remaining=row.get("remaining"),
            restarted=bool(row.get("restarted")),
            debits=tuple(
                (str(k), str(n), str(a), float(v)) for k, n, a, v in row.get("debits") or ()
            ),
        )


NO_TASKS: frozenset[int] = frozenset()


@dataclass(slots=True)
class VerifyWait:
    """A job the server JSV answered REJECT_WAIT for, waiting to be verified again."""

    tries: int
    next_at: float
    message: str


@dataclass(slots=True)
class Job:
    """A submitted job."""

    job_id: int
    owner: Identity
    submit_time: float
    spec: JobSpec
    array: TaskRange | None = None
    # the tasks each hold bit holds: "u" user, "o" operator, "s" system (see taskholds.py)
    holds: Holds = field(default_factory=lambda: NO_HOLDS)
    pending: TaskIds = field(default_factory=TaskIds)
    tasks: dict[int, Task] = field(default_factory=dict)
    verify_wait: VerifyWait | None = None
    # pending tasks that ran before and were rescheduled (qmod -r): qstat's "Rq"
    restarted: frozenset[int] = NO_TASKS
    # the scheduler's picture of this spec (a JobRequest without tasks), kept until the
    # spec object is replaced: like Grid Engine's job category, worked out once per job
    request_memo: tuple[JobSpec, Any] | None = field(default=None, repr=False, compare=False)
    # the id of the stimulus that submitted it: with submit_time, the first line of its story
    stimulus: int = 0

    @property
    def name(self) -> str:
        return self.spec.name or ""

    @property
    def priority(self) -> int:
        return self.spec.priority or 0

    @property
    def slots(self) -> int:
        return self.spec.slots

    @property
    def hold(self) -> frozenset[str]:
        """The hold bits some task of the job has (which tasks: :attr:`holds`)."""
        return frozenset(self.holds)

    @property
    def hold_jids(self) -> list[str]:
        return list(self.spec.hold_jid or ())

    def all_task_ids(self) -> range:
        return self.array.ids() if self.array else range(1)

    def pend_all(self) -> None:
        """Every task of the job pending (a new job): one range, whatever its size."""
        self.pending = TaskIds.of(self.all_task_ids())

    def derived_pending(self) -> TaskIds:
        """What ``pending`` must hold: the job's tasks but those that left pending (costs
        the ranges and the task objects, never the ids of the whole range)."""
        every = TaskIds.of(self.all_task_ids())
        return every - TaskIds.from_ids(self.tasks) if self.tasks else every

    def is_finished(self) -> bool:
        return not self.pending and all(t.state is TaskState.FINISHED for t in self.tasks.values())

    def to_row(self) -> dict[str, Any]:
        o = self.owner
        row: dict[str, Any] = {
            "job_id": self.job_id,
            "owner": [o.uid, o.gid, o.user, o.group, o.host],
            "submit_time": self.submit_time,
            "spec": self.spec.to_dict(),
            "array": [self.array.first, self.array.last, self.array.step] if self.array else None,
            "hold": "",
            "verify_wait": (
                [self.verify_wait.tries, self.verify_wait.next_at, self.verify_wait.message]
                if self.verify_wait
                else None
            ),
            "restarted": sorted(self.restarted),
            **({"stimulus": self.stimulus} if self.stimulus else {}),  # rows before stories: none
        }
        if self.holds:
            row["hold"], some = to_spool(self)
            if some:
                row["holds"] = some  # held tasks, not the whole job (qhold 7.2)
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any], tasks: list[Task]) -> Job:
        """The job of a spool row and its tasks' (a recovery of a million rows spends
        most of its time here: the spec is decoded once per distinct text, the owner
        once per user)."""
        owner = owner_of(row["owner"])
        arr = row["array"]
        array = TaskRange(*arr) if arr else None
        every = TaskIds.of(array.ids() if array else range(1))
        wait = row.get("verify_wait")
        job = cls(
            row["job_id"],
            owner,
            row["submit_time"],
            from_spooled(row["spec"]),
            array,
            NO_HOLDS,
            _pending_of(every, array, tasks),
            {t.task_id: t for t in tasks},
            VerifyWait(*wait) if wait else None,
            frozenset(row.get("restarted") or ()) or NO_TASKS,
            None,
            int(row.get("stimulus") or 0),
        )
        if row.get("holds") or row.get("hold") or row.get("user_hold"):
            job.holds = from_spool(job, row)  # rows before per-task holds: "hold" letters
        return job


def _pending_of(every: TaskIds, array: TaskRange | None, tasks: list[Task]) -> TaskIds:
    """A recovered job's pending ids: its range but the tasks that left pending (a plain
    job whose one task left has none; its range is never walked)."""
    if not tasks:
        return every
    if array is None and len(tasks) == 1 and tasks[0].task_id == 0:
        return TaskIds()
    return every - TaskIds.from_ids(t.task_id for t in tasks)


_OWNERS: dict[tuple[Any, ...], Identity] = {}


def owner_of(fields: list[Any]) -> Identity:
    """The Identity of a spooled owner (uid, gid, user, group, host): one object per
    owner, not one per job (a bounded table, emptied when full)."""
    key = tuple(fields)
    found = _OWNERS.get(key)
    if found is None:
        if len(_OWNERS) >= 4096:
            _OWNERS.clear()
        uid, gid, user, group, host = key
        found = _OWNERS[key] = Identity(uid, gid, user, group, host)
    return found
