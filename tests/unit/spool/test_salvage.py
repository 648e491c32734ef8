"""Damaged spool files: refused with the reason, or rebuilt from every row still readable."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from qmaster.core.outcome import SpoolDelta
from qmaster.spool import damage, salvage
from qmaster.spool.database import Spool, SpoolError
from tests.unit.spool.rows import spool_with_rows


def test_a_zero_byte_file_is_refused_instead_of_taken_for_a_new_spool(tmp_path: Path) -> None:
    """Opening a 0-byte spool.db says it is empty and does not create tables in it."""
    path = tmp_path / "spool.db"
    path.write_bytes(b"")
    with pytest.raises(SpoolError, match=r"is empty \(0 bytes\)"):
        Spool(path)
    assert path.stat().st_size == 0


def test_a_missing_table_is_refused_and_a_new_database_is_not(tmp_path: Path) -> None:
    """A spool without its jobs table is refused; a brand-new file still gets every table."""
    path = tmp_path / "spool.db"
    spool_with_rows(path, 2)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE jobs")
    with pytest.raises(SpoolError, match='has no "jobs" table'):
        Spool(path)
    Spool(tmp_path / "new.db").close()
    with sqlite3.connect(tmp_path / "new.db") as db:
        assert damage.missing_tables(db, tmp_path / "new.db") is None


def test_a_truncated_database_is_rebuilt_from_its_readable_rows(tmp_path: Path) -> None:
    """Cut short by three pages: the salvage keeps the configuration, the counters and the
    readable jobs, opens cleanly afterwards and keeps the damaged file beside it."""
    path = tmp_path / "spool.db"
    spool_with_rows(path, 400)
    size = path.stat().st_size
    with open(path, "r+b") as fh:
        fh.truncate(size - 3 * 4096)
    assert salvage.problem(path) is not None
    done = salvage.salvage(path)
    assert done is not None
    assert done.damaged_copy is not None
    assert done.damaged_copy.stat().st_size == size - 3 * 4096
    assert 300 <= done.kept["jobs"] < 400
    assert done.kept["config"] == 1
    assert "jobs" in done.cut_short
    snap = Spool(path).load()
    assert len(snap.jobs) == done.kept["jobs"]
    assert snap.counters == {"job": 401}
    assert salvage.problem(path) is None


def test_a_whole_database_is_left_alone(tmp_path: Path) -> None:
    """Salvage of an undamaged spool changes nothing."""
    path = tmp_path / "spool.db"
    spool_with_rows(path, 3)
    before = path.read_bytes()
    assert salvage.salvage(path) is None
    assert path.read_bytes() == before


def test_a_database_of_another_schema_version_is_refused_not_rebuilt(tmp_path: Path) -> None:
    """A spool written by another version is no damage: salvage leaves it for the refusal."""
    path = tmp_path / "spool.db"
    spool_with_rows(path, 3)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    assert salvage.salvage(path) is None
    with pytest.raises(SpoolError, match="has schema version 99"):
        Spool(path)
    assert not list(tmp_path.glob("spool.db.damaged-*"))


def test_a_salvage_keeps_the_stories_in_their_order(tmp_path: Path) -> None:
    """A rebuilt spool keeps each job's story lines, in the order they were written."""
    path = tmp_path / "spool.db"
    spool = Spool(path)
    lines = {1: [[1.0, 1, "submit by alice", "x"], [2.0, 2, "pass", "pending -> running"]]}
    spool.commit(SpoolDelta(jobs={1: {"job_id": 1}}, story=lines))
    spool.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE tasks")  # a table gone: the database needs rebuilding
    db.commit()
    db.close()
    salvage.salvage(path)
    db = sqlite3.connect(path)
    rows = [json.loads(r) for (r,) in db.execute("SELECT row FROM story ORDER BY rowid")]
    db.close()
    assert rows == lines[1]
