"""Salvage of a spool database SQLite cannot use as it is (``qmaster start --ignore-state-errors``).

A truncated or otherwise damaged file, or one that lost a table, is read for
every row it still gives (each table scanned forwards and then backwards, so
rows beyond a damaged page are found too) and those rows are written to a new
database, which takes the damaged one's place. The damaged file is kept beside
it (``spool.db.damaged-<time>``) for whoever wants to look further. Rows that
are readable but are not jobs, tasks or reservations are left out later, by
recovery (see :mod:`qmaster.spool.damage`).
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from qmaster.spool import damage
from qmaster.spool.database import Spool

KEYS = {
    "meta": "key",
    "jobs": "job_id",
    "tasks": "job_id, task_id",
    "config": "kind, name",
    "counters": "name",
    "ars": "ar_id",
    "story": "rowid",  # a job's lines in the order they were written
}


@dataclass
class Salvaged:
    """What a salvage kept, and where the damaged file went."""

    kept: dict[str, int] = field(default_factory=dict)
    cut_short: list[str] = field(default_factory=list)
    damaged_copy: Path | None = None

    def summary(self) -> str:
        kept = ", ".join(f"{n} {t}" for t, n in self.kept.items() if t != "meta")
        short = f"; unreadable parts of {', '.join(self.cut_short)} lost" if self.cut_short else ""
        return (
            f"salvaged the spool database: kept {kept}{short}; "
            f'the damaged file is kept as "{self.damaged_copy}"'
        )


def problem(path: Path) -> str | None:
    """Why SQLite cannot use ``path`` as a spool (None: it can, or it is absent or empty).

    A database of another schema version is no damage: it is refused, never rebuilt.
    """
    if not path.exists() or damage.empty_file(path) is not None:
        return None
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    with contextlib.closing(db):
        try:
            (result,) = db.execute("PRAGMA quick_check").fetchone()
            if result != "ok":
                return f"failed its integrity check: {result}"
            return damage.missing_tables(db, path)
        except sqlite3.DatabaseError as exc:
            return str(exc)


def salvage(path: Path) -> Salvaged | None:
    """Replace a damaged database at ``path`` by what can be read of it (None: not damaged).

    The caller holds the cell lock: nobody else uses the file meanwhile.
    """
    if problem(path) is None:
        return None
    result = Salvaged()
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".salvage-") as tmp:
        copy = Path(tmp) / path.name
        for suffix in ("", "-wal"):  # a copy, so that reading it leaves the damaged file as is
            with contextlib.suppress(FileNotFoundError):
                shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        rows = _readable_rows(copy, result)
        fresh = Path(tmp) / "fresh.db"
        Spool(fresh).close()
        _write(fresh, rows)
        stamp = time.strftime("%Y%m%d%H%M%S")
        result.damaged_copy = path.with_name(f"{path.name}.damaged-{stamp}")
        path.rename(result.damaged_copy)
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{path}{suffix}").rename(f"{result.damaged_copy}{suffix}")
        fresh.rename(path)
    return result


def _readable_rows(copy: Path, result: Salvaged) -> dict[str, list[tuple[object, ...]]]:
    rows: dict[str, list[tuple[object, ...]]] = {}
    db = sqlite3.connect(copy, isolation_level=None)
    with contextlib.closing(db):
        # reads a schema whose tables are not all there (their pages cut off) table by table
        with contextlib.suppress(sqlite3.DatabaseError):
            db.execute("PRAGMA writable_schema=ON")
        for table, key in KEYS.items():
            found: dict[tuple[object, ...], tuple[object, ...]] = {}
            if not _scan(db, f"SELECT {key}, * FROM {table}", key.count(",") + 1, found):
                _one_by_one(db, table, key, found)
                result.cut_short.append(table)
            rows[table] = [found[k] for k in sorted(found)]  # in key order, as written
            result.kept[table] = len(found)
    return rows


def _scan(
    db: sqlite3.Connection, sql: str, width: int, into: dict[tuple[object, ...], tuple[object, ...]]
) -> bool:
    """Read rows until the end (True) or a damaged page (False)."""
    try:
        for row in db.execute(sql):
            into.setdefault(row[:width], row[width:])
    except sqlite3.DatabaseError:
        return False
    return True


def _one_by_one(
    db: sqlite3.Connection, table: str, key: str, into: dict[tuple[object, ...], tuple[object, ...]]
) -> None:
    """Every row whose key can be read (forwards, then backwards past a damaged page) and
    whose own pages are whole."""
    keys: dict[tuple[object, ...], tuple[object, ...]] = {}
    for order in ("ASC", "DESC"):
        by = ", ".join(f"{k} {order}" for k in key.split(", "))
        if _scan(db, f"SELECT {key} FROM {table} ORDER BY {by}", 99, keys):
            break
    where = " AND ".join(f"{k}=?" for k in key.split(", "))
    for k in keys:
        try:
            row = db.execute(f"SELECT * FROM {table} WHERE {where}", k).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None:
            into.setdefault(k, tuple(row))


def _write(fresh: Path, rows: dict[str, list[tuple[object, ...]]]) -> None:
    db = sqlite3.connect(fresh, isolation_level=None)
    with contextlib.closing(db):
        db.execute("BEGIN")
        for table, values in rows.items():
            if values:
                marks = ", ".join("?" * len(values[0]))
                db.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({marks})", values)
        db.execute("COMMIT")
