"""The SQLite spool: jobs, tasks, advance reservations, configuration objects, id counters,
and the jobs' story lines (one row each, in the order written, deleted with their job).

One transaction per commit; the daemon commits a batch of request outcomes
before it sends their answers (group commit). WAL mode with
``synchronous=NORMAL`` survives a crash of the daemon (``kill -9``); ``full``
also survives power loss, at a lower write rate. Rows are JSON (jobs, tasks)
or Grid Engine's own file text (configuration objects); a job row keeps its
specification's text apart (:mod:`qmaster.spool.jobrows`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qmaster.model import SpoolDelta
from qmaster.sharedstrings import Decode, SharedStrings
from qmaster.spool import damage
from qmaster.spool.jobrows import decode_job_row, job_text, spec_as_dict

SCHEMA_VERSION = 2
"""Version 2 spools a job row as two lines, the row and its spec's JSON text
(:mod:`qmaster.spool.jobrows`); a version 1 spool (the spec inside the row) is read
as it is and marked version 2 when opened, so an older qmaster refuses it by name
rather than misreading the rows written since."""
UPGRADABLE = frozenset({"1"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (job_id INTEGER PRIMARY KEY, row TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    job_id INTEGER NOT NULL, task_id INTEGER NOT NULL, row TEXT NOT NULL,
    PRIMARY KEY (job_id, task_id));
CREATE TABLE IF NOT EXISTS config (
    kind TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (kind, name));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ars (ar_id INTEGER PRIMARY KEY, row TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS story (job_id INTEGER NOT NULL, row TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS story_job ON story (job_id);
"""


class SpoolError(Exception):
    """The spool cannot be used; the message says why and what to do."""


class SpoolFull(SpoolError):
    """The disk (or the configured size cap) is full; the transaction was rolled back."""


@dataclass(slots=True)
class Snapshot:
    """Everything the spool holds, as rows."""

    jobs: list[dict[str, Any]] = field(default_factory=list)
    tasks: list[dict[str, Any]] = field(default_factory=list)
    config: list[tuple[str, str, str]] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    ars: list[dict[str, Any]] = field(default_factory=list)
    story: list[tuple[int, list[Any]]] = field(default_factory=list)


@dataclass(slots=True)
class LazySnapshot:
    """A :class:`Snapshot` whose job rows come from an iterator, decoded as taken."""

    jobs: Iterable[dict[str, Any]] = ()
    tasks: list[dict[str, Any]] = field(default_factory=list)
    config: list[tuple[str, str, str]] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    ars: list[dict[str, Any]] = field(default_factory=list)
    story: list[tuple[int, list[Any]]] = field(default_factory=list)


class Spool:
    """One SQLite database; use it from one thread at a time."""

    def __init__(self, path: Path, *, sync: str = "normal") -> None:
        self.path = path
        if (problem := damage.empty_file(path)) is not None:
            raise SpoolError(problem)
        clean = damage.closed_cleanly(path)  # before connecting: reading makes a log
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
            if clean:
                damage.read_indexes(self._db)
            else:
                self._check()
            if (problem := damage.missing_tables(self._db, path)) is not None:
                raise SpoolError(problem)
            self._db.executescript(_SCHEMA)
            self._check_version()
        except sqlite3.DatabaseError as exc:
            raise SpoolError(
                f'spool database "{path}" is unreadable ({exc}); '
                "move it aside or start with --ignore-state-errors"
            ) from exc

    def _check(self) -> None:
        result = self._db.execute("PRAGMA quick_check").fetchone()
        if result is None or result[0] != "ok":
            raise SpoolError(
                f'spool database "{self.path}" failed its integrity check: {result}; '
                + damage.IGNORE_HINT
            )

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] in UPGRADABLE:
            self._db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise SpoolError(
                f'spool database "{self.path}" has schema version {row[0]}, '
                f"this qmaster reads version {SCHEMA_VERSION}"
            )

    def is_empty(self) -> bool:
        return bool(self._db.execute("SELECT count(*) FROM config").fetchone()[0] == 0)

    def load(self, *, ignore_errors: bool = False) -> Snapshot:
        """Read every row back; a row that does not decode is an error unless ignored."""
        lazy = self.load_lazily(ignore_errors=ignore_errors)
        jobs = [spec_as_dict(row) for row in lazy.jobs]
        return Snapshot(jobs, lazy.tasks, lazy.config, lazy.counters, lazy.ars, lazy.story)

    def load_lazily(self, *, ignore_errors: bool = False) -> LazySnapshot:
        """:meth:`load`, but the job rows are decoded one at a time as they are taken, so
        recovery never holds every row at once (a damaged one raises when reached), and
        a job row's ``spec`` is left as spooled: its JSON text (an object in older rows)."""
        try:
            return self._load_lazily(ignore_errors)
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from exc

    def _load_lazily(self, ignore_errors: bool) -> LazySnapshot:
        decode = SharedStrings().decode
        snap = LazySnapshot()
        for job_id, text in self._db.execute("SELECT job_id, row FROM tasks"):
            before = len(snap.tasks)
            self._decode(decode, text, snap.tasks, ignore_errors)
            if len(snap.tasks) > before and isinstance(snap.tasks[-1], dict):
                snap.tasks[-1]["job_id"] = job_id
        for (text,) in self._db.execute("SELECT row FROM ars ORDER BY ar_id"):
            self._decode(decode, text, snap.ars, ignore_errors)
        snap.config = list(self._db.execute("SELECT kind, name, text FROM config"))
        snap.counters = dict(self._db.execute("SELECT name, value FROM counters"))
        snap.story = self._story_rows(decode, ignore_errors)
        snap.jobs = self._job_rows(ignore_errors)
        return snap

    def _story_rows(self, decode: Decode, ignore: bool) -> list[tuple[int, list[Any]]]:
        rows: list[tuple[int, list[Any]]] = []
        one: list[Any] = []
        for job_id, text in self._db.execute("SELECT job_id, row FROM story ORDER BY rowid"):
            self._decode(decode, text, one, ignore)
            if one:
                rows.append((job_id, one.pop()))
        return rows

    def _job_rows(self, ignore: bool) -> Iterator[dict[str, Any]]:
        """The job rows, their ``spec`` left as spooled (text, or an older row's object):
        no shared-strings decoder, the JobSpec interns what it keeps."""
        one: list[dict[str, Any]] = []
        try:
            for (text,) in self._db.execute("SELECT row FROM jobs ORDER BY job_id"):
                self._decode(decode_job_row, text, one, ignore)
                if one:
                    yield one.pop()
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from exc

    def _damaged(self, exc: sqlite3.DatabaseError) -> SpoolError:
        """A page SQLite could not read while the rows were read (opened without a check)."""
        return SpoolError(f'spool database "{self.path}" is damaged ({exc}); {damage.IGNORE_HINT}')

    def _decode(self, decode: Decode, text: str, into: list[dict[str, Any]], ignore: bool) -> None:
        try:
            into.append(decode(text))
        except ValueError as exc:
            if not ignore:
                raise SpoolError(
                    f'spool database "{self.path}" holds a damaged row: {exc}'
                ) from exc

    def commit(self, delta: SpoolDelta) -> None:
        """Write one delta in one transaction; on failure nothing of it is written."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                self._write(delta)
            except BaseException:
                if db.in_transaction:  # SQLite may already have rolled back (SQLITE_FULL)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if "full" in str(exc):
                raise SpoolFull(str(exc)) from exc
            raise SpoolError(str(exc)) from exc
        except (sqlite3.Error, TypeError, ValueError) as exc:  # damaged file, unserialisable row
            raise SpoolError(f"{type(exc).__name__}: {exc}") from exc

    def _write(self, delta: SpoolDelta) -> None:
        db = self._db
        dumps = json.dumps
        gone = [(jid,) for jid, row in delta.jobs.items() if row is None]
        if gone:
            db.executemany("DELETE FROM jobs WHERE job_id=?", gone)
            db.executemany("DELETE FROM tasks WHERE job_id=?", gone)
            db.executemany("DELETE FROM story WHERE job_id=?", gone)
        db.executemany(
            "INSERT INTO story VALUES (?, ?)",
            [(jid, dumps(row)) for jid, rows in delta.story.items() for row in rows],
        )
        db.executemany(
            "INSERT OR REPLACE INTO jobs VALUES (?, ?)",
            [(jid, job_text(row)) for jid, row in delta.jobs.items() if row is not None],
        )
        db.executemany(
            "INSERT OR REPLACE INTO tasks VALUES (?, ?, ?)",
            [(jid, tid, dumps(row)) for (jid, tid), row in delta.tasks.items() if row is not None],
        )
        db.executemany(  # a task back to pending (qmod -r, -cj) has no row of its own
            "DELETE FROM tasks WHERE job_id=? AND task_id=?",
            [key for key, row in delta.tasks.items() if row is None],
        )
        for (kind, name), text in delta.config.items():
            if text is None:
                db.execute("DELETE FROM config WHERE kind=? AND name=?", (kind, name))
            else:
                db.execute("INSERT OR REPLACE INTO config VALUES (?, ?, ?)", (kind, name, text))
        db.executemany(
            "INSERT OR REPLACE INTO counters VALUES (?, ?)", list(delta.counters.items())
        )
        db.executemany(
            "DELETE FROM ars WHERE ar_id=?", [(i,) for i, row in delta.ars.items() if row is None]
        )
        db.executemany(
            "INSERT OR REPLACE INTO ars VALUES (?, ?)",
            [(i, dumps(row)) for i, row in delta.ars.items() if row is not None],
        )

    def set_max_pages(self, pages: int) -> None:
        """Cap the database size (tests use it to simulate a full disk)."""
        self._db.execute(f"PRAGMA max_page_count={int(pages)}")

    def close(self) -> None:
        self._db.close()
