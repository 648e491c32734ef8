"""Stimulus ids and each job's story: what changed it, when, and how.

Theory of operation. Every stimulus the core handles (a request that is not
refused, a timer firing, a scheduling pass, the quarantine of a failing job)
runs inside :meth:`Journal.stimulus`. While it runs, the journal is the
*active* one, so a transition deep inside a handler reaches it without being
handed a core: :meth:`~qmaster.core.jobs.Task.move` (every task state change,
through the transition table) calls :func:`task_moved`, and the few other
changes (holds, qalter, JSV verification, suspension) call :func:`note` or
:func:`task_noted`. Stimuli are named from the request's op and the caller
(``submit by alice``, ``delete by bob``), the timer's kind (``timer end``),
``pass`` or ``quarantine``.

A stimulus that changed something (it wrote spool rows or recorded a change)
gets the next stimulus id; one that changed nothing (a query, a refusal, a
stale timer, a pass that dispatched nothing) gets none, so ids follow changes.
The counter is spooled with the other counters in the same transaction, so an
id is never handed out twice, across restarts too.

Changes are gathered while the stimulus runs and become story lines when it
ends: the moves of many tasks of one job with the same cause and the same
outcome make one line with their task range (``qdel`` of a million pending
array tasks adds one line, not a million). Each line is kept in memory and
spooled as a row in the same outcome as the change it describes; the rows go
with the job when it leaves.

Cost. A job that only sits pending has no line at all: its first line
(``submit``) is derived from its submission time and the one int it keeps,
:attr:`Job.stimulus`. A pass touches only the jobs it dispatches.

Recovery reads every story row back at once (:meth:`Journal.restore`): rows
exist only for jobs that changed after their submission, so they follow the
tasks that moved, and the core stays pure (it answers ``story`` from memory,
with no spool to read). A restart itself changes no job's state and adds no
line: the timers it arms again fire as stimuli of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qmaster.core.outcome import Outcome, SpoolDelta
from qmaster.core.stimuli import Asked, ConfChange
from qmaster.core.taskids import TaskIds

if TYPE_CHECKING:
    from qmaster.core.jobs import Job

COUNTER = "stimulus"
"""The name of the spooled counter: the next stimulus id."""


@dataclass(frozen=True, slots=True)
class StoryLine:
    """One change of a job: when, the stimulus id, the stimulus, and the transition."""

    at: float
    stimulus: int
    cause: str
    change: str

    def to_row(self) -> list[Any]:
        return [self.at, self.stimulus, self.cause, self.change]


Key = tuple[int, str, str, str]
"""(job id, transition, where, why): changes alike within one stimulus make one line."""
Row = tuple[float, int, str, str]
"""A line as kept and spooled: time, stimulus id, stimulus, transition."""


class Journal:
    """The stimulus counter, the stimulus being handled, and the stories of the jobs.

    ``with journal.stimulus(cause, now, out, jobs):`` handles one stimulus.
    """

    __slots__ = (
        "_at", "_before", "_cause", "_changes", "_depth", "_id", "_jobs", "_out", "lines",
        "next_id",
    )  # fmt: skip

    def __init__(self) -> None:
        self.next_id = 1
        self.lines: dict[int, list[Row]] = {}
        """Each job's lines after its submission; only jobs that changed have an entry."""
        self._cause = ""
        self._at = 0.0
        self._id = 0
        self._changes: dict[Key, int | list[int] | None] = {}
        """Each change's task id, or ids once there are several (None: a job-level change)."""
        self._depth = 0
        self._before = 0
        self._out: Outcome | None = None
        self._jobs: Mapping[int, Job] = {}

    def stimulus(self, cause: str, at: float, out: Outcome, jobs: Mapping[int, Job]) -> Journal:
        """Handle one stimulus: its changes become story lines when it ends.

        A stimulus started while another runs is part of the outer one. On an
        exception nothing is recorded and no id is used.
        """
        if not self._depth:
            self._cause, self._at, self._id, self._out, self._jobs = cause, at, 0, out, jobs
        return self

    def __enter__(self) -> None:
        self._depth += 1
        if self._depth == 1:
            assert self._out is not None
            self._before = _size(self._out.spool)
            _ACTIVE.append(self)

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self._depth -= 1
        if self._depth:
            return
        _ACTIVE.pop()
        out, self._out = self._out, None
        assert out is not None
        if kind is not None:
            if self._id:
                self.next_id = self._id
            self._changes.clear()
        elif self._changes or _size(out.spool) != self._before:
            self.current_id()
            self._flush(out, self._jobs)
            out.spool.counters[COUNTER] = self.next_id
        self._jobs = {}

    def current_id(self) -> int:
        """The id of the stimulus being handled (taken from the counter on first use)."""
        if not self._id:
            self._id = self.next_id
            self.next_id += 1
        return self._id

    def change(self, key: Key, task_id: int | None) -> None:
        """Gather one change of the stimulus being handled."""
        changes = self._changes
        if key not in changes:
            changes[key] = task_id  # most changes name one task: no list for them
            return
        ids = changes[key]
        if task_id is None:
            return
        if isinstance(ids, list):
            ids.append(task_id)
        else:
            changes[key] = [task_id] if ids is None else [ids, task_id]

    def _flush(self, out: Outcome, jobs: Mapping[int, Job]) -> None:
        rows, lines = out.spool.story, self.lines
        at, sid, cause = self._at, self._id, self._cause
        for (job_id, what, where, why), ids in self._changes.items():
            if job_id not in jobs:  # the job left: its story goes with it
                lines.pop(job_id, None)
                rows.pop(job_id, None)
                continue
            row = (at, sid, cause, _text(what, where, ids, why))
            kept = lines.get(job_id)
            if kept is None:
                kept = lines[job_id] = []
            kept.append(row)
            spooled = rows.get(job_id)
            if spooled is None:
                spooled = rows[job_id] = []
            spooled.append(row)
        self._changes.clear()

    def restore(
        self,
        counters: Mapping[str, int],
        rows: list[tuple[int, list[Any]]],
        jobs: Mapping[int, Job],
    ) -> None:
        """After a restart: the jobs' lines spooled (in the order written) and the counter,
        never behind an id already used."""
        for job_id, (at, stimulus, cause, change) in rows:
            if job_id in jobs:
                line = (float(at), int(stimulus), str(cause), str(change))
                self.lines.setdefault(job_id, []).append(line)
        highest = max((ls[-1][1] for ls in self.lines.values()), default=0)
        highest = max(highest, max((j.stimulus for j in jobs.values()), default=0))
        self.next_id = max(int(counters.get(COUNTER, 1)), highest + 1)

    def story(self, job: Job) -> list[StoryLine]:
        """The job's story: its submission, then every change in order."""
        tasks = f" (tasks {job.array})" if job.array else ""
        submitted = StoryLine(
            job.submit_time, job.stimulus, f"submit by {job.owner.user}", f"new -> pending{tasks}"
        )
        return [submitted, *(StoryLine(*row) for row in self.lines.get(job.job_id, ()))]


_ACTIVE: list[Journal] = []
"""The journal of the stimulus being handled (the core is synchronous: one at a time)."""

_WORDS = {
    "PENDING": "pending",
    "TRANSFERRING": "transferring",
    "RUNNING": "running",
    "DELETING": "deleting",
    "ERROR": "error",
}


def task_moved(job_id: int, task_id: int, frm: str, to: str, why: str, where: str | None) -> None:
    """A task moved from state ``frm`` to ``to`` (:class:`TaskState` names) for ``why``."""
    if _ACTIVE:
        what = _MOVES.get((frm, to, why))
        if what is None:
            what = _MOVES[(frm, to, why)] = _move_text(frm, to, why)
        _ACTIVE[-1].change((job_id, what[0], where or "", what[1]), task_id)


_MOVES: dict[tuple[str, str, str], tuple[str, str]] = {}


def _move_text(frm: str, to: str, why: str) -> tuple[str, str]:
    """The transition and the reason a line gives: a task leaves for good as what ended it
    (``finished``, ``deleted``); an error says why."""
    target = _WORDS.get(to) or why
    return f"{_WORDS.get(frm, frm)} -> {target}", why if to == "ERROR" else ""


def task_noted(job_id: int, task_id: int, what: str, where: str | None) -> None:
    """A change of a task that is no state of the transition table (a suspension)."""
    if _ACTIVE:
        _ACTIVE[-1].change((job_id, what, where or "", ""), task_id)


def note(job_id: int, what: str) -> None:
    """A job-level change (a hold set, a qalter, a verification) of the stimulus handled."""
    if _ACTIVE:
        _ACTIVE[-1].change((job_id, what, "", ""), None)


def holds_changed(job_id: int, notes: Iterable[str]) -> None:
    """The job's holds changed (``hold u set``, ``hold o removed (tasks 2)``)."""
    for text in notes:
        note(job_id, text)


def altered(job_id: int, keys: Iterable[str]) -> None:
    """qalter changed these JSV parameters of the job (holds are told apart)."""
    names = sorted(k for k in keys if k != "h")
    if names:
        note(job_id, f"altered {', '.join(names)}")


def current_id() -> int:
    """The id of the stimulus being handled; 0 outside a stimulus."""
    return _ACTIVE[-1].current_id() if _ACTIVE else 0


_SHARED_TEXTS: dict[tuple[str, str, str], str] = {}
"""The texts of lines that name no task (jobs that are no arrays), made once and shared by
every such line: each is one of a few transitions in one of the queue instances."""


def _text(what: str, where: str, ids: int | list[int] | None, why: str) -> str:
    if ids:  # None, or task 0: the one task of a job that is no array
        tasks = f"task {ids}" if isinstance(ids, int) else _tasks(TaskIds.from_ids(ids))
        return _joined(what, f"{where}, {tasks}" if where else tasks, why)
    key = (what, where, why)
    text = _SHARED_TEXTS.get(key)
    if text is None:
        if len(_SHARED_TEXTS) >= 100_000:  # bounded whatever the configuration
            _SHARED_TEXTS.clear()
        text = _SHARED_TEXTS[key] = _joined(what, where, why)
    return text


def _tasks(ids: TaskIds) -> str:
    return f"task {ids[0]}" if len(ids) == 1 else f"tasks {ids}"


def _joined(what: str, detail: str, why: str) -> str:
    text = f"{what} ({detail})" if detail else what
    return f"{text}: {why}" if why else text


def _size(spool: SpoolDelta) -> int:
    return (
        len(spool.jobs)
        + len(spool.tasks)
        + len(spool.config)
        + len(spool.counters)
        + len(spool.ars)
    )


_WORD = re.compile(r"(?<!^)(?=[A-Z])")


def stimulus_name(stimulus: Asked) -> str:
    """How a story names a request: its kind as the wire names it, and who asked
    (``submit by alice``, ``jsv_verdict by root``, ``conf_modify by root``)."""
    kind = stimulus.op if isinstance(stimulus, ConfChange) else type(stimulus).__name__
    word = _KIND_WORDS.get(kind)
    if word is None:
        word = _KIND_WORDS[kind] = _WORD.sub("_", kind).lower()
    return f"{word} by {stimulus.identity.user}"


_KIND_WORDS: dict[str, str] = {}
"""Each stimulus kind's word, made once (a few dozen kinds)."""
