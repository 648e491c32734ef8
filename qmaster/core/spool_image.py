"""What a spool holds after a series of deltas, kept in memory: a fake spool for checks.

:class:`SpoolImage` applies :class:`~qmaster.core.outcome.SpoolDelta` objects
exactly as the SQLite spool writes them (deleting a job deletes its tasks;
``None`` deletes a row) and keeps every row as the JSON text would give it
back, so a row that was changed in memory after it was written, or one that
JSON cannot encode, shows up as a difference. :func:`spool_problems` compares
it with what the core would write now.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from qmaster.core import qstates
from qmaster.core.machine import Core
from qmaster.core.outcome import SpoolDelta
from qmaster.core.story import COUNTER

Row = dict[str, Any]


_last_config: list[tuple[object, dict[tuple[str, str], str]]] = []


def config_rows(core: Core) -> dict[tuple[str, str], str]:
    """The configuration's rows, rendered once per configuration state (do not change it)."""
    state = core.config.state
    if not _last_config or _last_config[0][0] is not state:
        _last_config[:] = [(state, {(k, n): text for k, n, text in core.config.to_rows()})]
    return _last_config[0][1]


def as_stored(row: Row) -> Row:
    """A row as the spool gives it back (JSON's lists for tuples, a copy of every dict)."""
    stored: Row = json.loads(json.dumps(row))
    return stored


@dataclass(slots=True)
class SpoolImage:
    """The rows a spool holds: jobs, tasks, ARs, configuration texts, counters."""

    jobs: dict[int, Row] = field(default_factory=dict)
    tasks: dict[tuple[int, int], Row] = field(default_factory=dict)
    ars: dict[int, Row] = field(default_factory=dict)
    config: dict[tuple[str, str], str] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    story: dict[int, list[Any]] = field(default_factory=dict)

    @classmethod
    def of_core(cls, core: Core) -> SpoolImage:
        """The image of a spool that holds exactly what ``core`` holds (``qmaster init``)."""
        image = cls()
        image.jobs = {i: as_stored(j.to_row()) for i, j in core.jobs.items()}
        image.tasks = {
            (i, t): as_stored(task.to_row())
            for i, j in core.jobs.items()
            for t, task in j.tasks.items()
        }
        image.ars = {i: as_stored(ar.to_row()) for i, ar in core.ars.items()}
        image.config = dict(config_rows(core))
        image.story = story_rows(core)
        return image

    @classmethod
    def of_rows(
        cls,
        config: list[tuple[str, str, str]],
        jobs: list[Row],
        tasks: list[Row],
        counters: dict[str, int],
        ars: list[Row] | None = None,
        story: list[tuple[int, list[Any]]] | None = None,
    ) -> SpoolImage:
        """The image of a spool that holds these rows (what ``Core.recover`` was given)."""
        image = cls()
        image.config = {(k, n): text for k, n, text in config}
        image.jobs = {int(r["job_id"]): as_stored(spooled_spec_thawed(r)) for r in jobs}
        for row in tasks:
            stored = as_stored(row)
            job_id = int(stored.pop("job_id"))
            image.tasks[(job_id, int(stored["task_id"]))] = stored
        image.ars = {int(r["ar_id"]): as_stored(r) for r in ars or []}
        image.counters = dict(counters)
        for job_id, line in story or ():
            image.story.setdefault(job_id, []).append(as_stored_line(line))
        return image

    def apply(self, delta: SpoolDelta) -> None:
        """Write one delta, as :meth:`qmaster.spool.database.Spool.commit` does."""
        for job_id, row in delta.jobs.items():
            if row is None:
                self.jobs.pop(job_id, None)
                for key in [k for k in self.tasks if k[0] == job_id]:
                    del self.tasks[key]
                self.story.pop(job_id, None)
            else:
                self.jobs[job_id] = as_stored(row)
        for key, task_row in delta.tasks.items():
            if task_row is None:
                self.tasks.pop(key, None)
            else:
                self.tasks[key] = as_stored(task_row)
        for ckey, text in delta.config.items():
            if text is None:
                self.config.pop(ckey, None)
            else:
                self.config[ckey] = text
        self.counters.update(delta.counters)
        for job_id, lines in delta.story.items():
            self.story.setdefault(job_id, []).extend(as_stored_line(line) for line in lines)
        for ar_id, ar_row in delta.ars.items():
            if ar_row is None:
                self.ars.pop(ar_id, None)
            else:
                self.ars[ar_id] = as_stored(ar_row)


def spooled_spec_thawed(row: Row) -> Row:
    """A job row as committed: a spec recovered as its JSON text (``Spool.load_lazily``)
    in its dict form."""
    spec = row.get("spec")
    return {**row, "spec": json.loads(spec)} if isinstance(spec, str) else row


def as_stored_line(line: Sequence[Any]) -> list[Any]:
    """A story row as the spool gives it back."""
    stored: list[Any] = json.loads(json.dumps(line))
    return stored


def story_rows(core: Core) -> dict[int, list[Any]]:
    """The story rows the core's jobs hold in memory."""
    return {i: [list(x) for x in lines] for i, lines in core.journal.lines.items()}


def _story_problems(core: Core, written: SpoolImage) -> list[str]:
    kept = story_rows(core)
    problems = [
        f"story of job {i}: spooled, job not in memory"
        for i in written.story.keys() - core.jobs.keys()
    ]
    problems += [f"story of job {i}: job not in memory" for i in kept.keys() - core.jobs.keys()]
    problems += [
        f"story of job {i}: spooled lines differ from memory "
        f"({len(kept.get(i, []))} kept, {len(written.story.get(i, []))} spooled)"
        for i in kept.keys() | written.story.keys()
        if kept.get(i, []) != written.story.get(i, [])
    ]
    return problems


def _differs(kept: Row, written: Row) -> bool:
    return kept != written and as_stored(kept) != written


def _compare(what: str, kept: dict[Any, Row], written: dict[Any, Row]) -> list[str]:
    problems = [f"{what} {key}: in memory, not spooled" for key in kept.keys() - written.keys()]
    problems += [f"{what} {key}: spooled, not in memory" for key in written.keys() - kept.keys()]
    for key in kept.keys() & written.keys():
        if _differs(kept[key], written[key]):
            stored = as_stored(kept[key])
            diff = sorted(
                name
                for name in set(stored) | set(written[key])
                if stored.get(name) != written[key].get(name)
            )
            problems.append(f"{what} {key}: spooled row differs from memory in {diff}")
    return problems


def spool_problems(core: Core, written: SpoolImage) -> list[str]:
    """Every difference between what the core would write now and what it has written."""
    jobs = {i: j.to_row() for i, j in core.jobs.items()}
    tasks = {(i, t): task.to_row() for i, j in core.jobs.items() for t, task in j.tasks.items()}
    problems = _compare("job", jobs, written.jobs)
    problems += _compare("task", tasks, written.tasks)
    problems += _compare(
        "advance reservation", {i: a.to_row() for i, a in core.ars.items()}, written.ars
    )
    config = config_rows(core)
    if config != written.config:
        for key in config.keys() ^ written.config.keys():
            where = "in memory" if key in config else "spooled"
            problems.append(f"configuration {key}: only {where}")
        problems += [
            f"configuration {key}: spooled text differs from memory"
            for key in config.keys() & written.config.keys()
            if config[key] != written.config[key]
        ]
    problems += _story_problems(core, written)
    return problems + _counter_problems(core, written.counters)


def _counter_problems(core: Core, counters: dict[str, int]) -> list[str]:
    problems: list[str] = []
    named = (("job", core.next_job_id), ("ar", core.next_ar_id), (COUNTER, core.journal.next_id))
    for name, counter in named:
        # memory may be ahead (the id of a submission refused after its number was taken,
        # or one the JSV then refused), never behind: a restart would hand out again an id
        # already acknowledged
        if counters.get(name, 0) > counter:
            problems.append(f"counter {name}: spooled {counters[name]}, in memory {counter}")
    spooled = {
        key.removeprefix(qstates.SPOOL_PREFIX): value
        for key, value in counters.items()
        if key.startswith(qstates.SPOOL_PREFIX)
    }
    for qi in set(spooled) | set(core.qi_states):
        kept = qstates.encode(core.qi_states.get(qi, frozenset()))
        if spooled.get(qi, 0) != kept:
            problems.append(
                f"queue instance {qi}: spooled states {spooled.get(qi, 0)}, kept {kept}"
            )
    return problems
