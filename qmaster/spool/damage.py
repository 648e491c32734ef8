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


def closed_cleanly(path: Path) -> bool:
    """Whether the database was last closed cleanly and is as long as its header says.

    A connection closing cleanly checkpoints and removes the write-ahead log; a daemon
    killed or crashed (or a reader still open) leaves it. SQLite keeps the page count in
    the header (valid when its "version valid for" number equals the change counter): a
    file cut short no longer matches it. Only such a spool is opened without
    ``PRAGMA quick_check``, which reads every page (a third of a second at a million
    jobs): the recovery reads every row of its tables anyway (a page it cannot read
    refuses it), and :func:`read_indexes` the rest.
    """
    try:
        if Path(f"{path}-wal").stat().st_size > 0:
            return False
    except FileNotFoundError:
        pass
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
        size = path.stat().st_size
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return False
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    return head[24:28] == head[92:96] and pages > 0 and pages * page_size == size


def read_indexes(db: sqlite3.Connection) -> None:
    """Read every page of every index (counting through it; a few megabytes at a million
    jobs): damage there raises ``sqlite3.DatabaseError`` now, not at some later write."""
    names = db.execute("SELECT name, tbl_name FROM sqlite_master WHERE type='index'")
    for name, table in names.fetchall():
        db.execute(f'SELECT count(*) FROM "{table}" INDEXED BY "{name}"').fetchone()


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
