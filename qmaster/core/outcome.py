"""What handling one stimulus produced: the answer for the caller and the effects.

The core never performs an effect; the driver (daemon or simulator) does:
it commits ``spool`` before it sends the answer, appends ``reports`` to the
reporting files, logs ``logs``, publishes ``events`` to subscribers and stops
when ``shutdown`` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qmaster.gdi.answers import Answer


@dataclass(slots=True)
class SpoolDelta:
    """Rows to write in one transaction. ``None`` as a value deletes the row."""

    jobs: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    tasks: dict[tuple[int, int], dict[str, Any] | None] = field(default_factory=dict)
    config: dict[tuple[str, str], str | None] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    ars: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    story: dict[int, list[Any]] = field(default_factory=dict)
    """Story lines to add, per job (see :mod:`qmaster.core.story`); they go with the job."""

    def __bool__(self) -> bool:
        return bool(
            self.jobs or self.tasks or self.config or self.counters or self.ars or self.story
        )

    def merge(self, other: SpoolDelta) -> None:
        """Fold a later delta into this one (later writes win)."""
        for job_id, row in other.jobs.items():
            self.jobs[job_id] = row
            if row is None:
                for key in [k for k in self.tasks if k[0] == job_id]:
                    del self.tasks[key]
                self.story.pop(job_id, None)
        self.tasks.update(other.tasks)
        for job_id, rows in other.story.items():
            self.story.setdefault(job_id, []).extend(rows)
        self.config.update(other.config)
        self.counters.update(other.counters)
        self.ars.update(other.ars)


@dataclass(slots=True)
class Outcome:
    """The result of :meth:`Core.handle` or :meth:`Core.tick`."""

    answers: list[Answer] = field(default_factory=list)
    data: Any = None
    spool: SpoolDelta = field(default_factory=SpoolDelta)
    reports: list[Any] = field(default_factory=list)
    logs: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    config_changed: bool = False
    shutdown: bool = False

    def log(self, event: str, **fields: Any) -> None:
        self.logs.append((event, fields))
