"""What is wrong with a damaged spool, in words an administrator can act on.

The checks :class:`~qmaster.spool.database.Spool` makes when it opens an existing
database (a 0-byte file, a missing table), the message recovery gives for a row
that is valid JSON but not a job, and, with ``--ignore-state-errors``, the
filters that leave such rows out (each one logged) instead of stopping the start.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from qmaster import logs
from qmaster.core.ars import AdvanceReservation
from qmaster.core.jobs import Job, Task

log = logs.get("qmaster")

TABLES = ("meta", "jobs", "tasks", "config", "counters", "ars")
"""Every table a spool database has from ``qmaster init`` on."""

ROW_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError)
"""What building an object from a row that is not one raises."""

IGNORE_HINT = "start with --ignore-state-errors to start with what can be read of it"


def empty_file(path: Path) -> str | None:
    """The refusal for a 0-byte database (SQLite would take it for a new, empty one)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size:
        return None
    return (
        f'spool database "{path}" is empty (0 bytes): it holds no cell, so there is nothing '
        'to start or to salvage; restore it from a backup, or move it aside and run "qmaster init"'
    )


def missing_tables(db: sqlite3.Connection, path: Path) -> str | None:
    """The refusal for a database that has some of the spool's tables but not all of them
    (creating the missing ``jobs`` table would start an empty cell and lose every job)."""
    names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    present = [t for t in TABLES if t in names]
    if not present or len(present) == len(TABLES):
        return None  # a new database, or a whole one
    missing = ", ".join(f'"{t}"' for t in TABLES if t not in names)
    return f'spool database "{path}" has no {missing} table: it is damaged; {IGNORE_HINT}'


class TrackedRows:
    """Job rows passed through, remembering the one being turned into a job."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        self._rows = rows
        self.current: object = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for row in self._rows:
            self.current = row
            yield row
        self.current = None


def refusal(path: Path, tracked: TrackedRows, exc: BaseException) -> str:
    """Why recovery stopped: a bad value (a configuration object, a date) in its own words,
    or a row that decodes but is not what its table holds."""
    row = tracked.current
    if row is None and isinstance(exc, ValueError):
        return f"cannot recover the spooled state: {exc}"
    if row is None:
        which = "a task or advance reservation row"
    else:
        job_id = row.get("job_id") if isinstance(row, dict) else None
        which = f"the job row {job_id}" if job_id is not None else "a job row"
    return (
        f'spool database "{path}" is damaged: {which} is not what the table holds '
        f"({type(exc).__name__}: {str(exc)[:200]}); {IGNORE_HINT}"
    )


def _loadable(kind: str, build: Callable[[Any], object], rows: Iterable[Any]) -> Iterator[Any]:
    for row in rows:
        try:
            build(row)
        except ROW_ERRORS as exc:
            key = row.get(f"{kind}_id") if isinstance(row, dict) else None
            log.warning("damaged_row_skipped", table=f"{kind}s", id=key, error=repr(exc))
            continue
        yield row


def loadable_jobs(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The job rows that make jobs; each other one is logged and left out."""
    return _loadable("job", lambda row: Job.from_row(row, []), rows)


def loadable_tasks(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The task rows that make tasks of a known job id; each other one is logged and left out."""
    return list(_loadable("task", lambda row: (int(row["job_id"]), Task.from_row(row)), rows))


def loadable_ars(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The advance reservation rows that make reservations; others are logged and left out."""
    return list(_loadable("ar", AdvanceReservation.from_row, rows))
