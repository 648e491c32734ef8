"""Which spools are checked page by page when opened (``PRAGMA quick_check``): one left by
a daemon that did not close it (its write-ahead log is still there) and one cut short; a
cleanly closed one is not, and a page it cannot read refuses its recovery with the reason."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from qmaster.core.outcome import SpoolDelta
from qmaster.spool import damage
from qmaster.spool.database import Spool, SpoolError
from tests.unit.spool.rows import spool_with_rows

PAGE = 4096


def _spoil_a_page(path: Path) -> None:
    """Garbage over a page in the middle of the file (one of the jobs table's)."""
    pages = path.stat().st_size // PAGE
    with path.open("r+b") as fh:
        fh.seek(pages // 2 * PAGE)
        fh.write(b"\xff" * PAGE)


def test_a_cleanly_closed_spool_is_whole_and_one_cut_short_is_not(tmp_path: Path) -> None:
    """The header's page count matches the file after a close; not once the file is cut."""
    path = tmp_path / "spool.db"
    spool_with_rows(path)
    assert damage.closed_cleanly(path)
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size - 3 * PAGE)
    assert not damage.closed_cleanly(path)
    with pytest.raises(SpoolError, match=r"integrity check|malformed"):
        Spool(path)


def test_a_spool_left_open_by_a_crash_is_checked_when_opened(tmp_path: Path) -> None:
    """The files as a daemon killed with the spool open leaves them (its log not yet
    written back): a damaged page is found at the open, before any row is read."""
    path = tmp_path / "spool.db"
    spool_with_rows(path)
    open_one = Spool(path)
    open_one.commit(SpoolDelta(counters={"job": 999}))  # in the write-ahead log
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{path}{suffix}", crashed / f"spool.db{suffix}")
    open_one.close()
    assert not damage.closed_cleanly(crashed / "spool.db")
    _spoil_a_page(crashed / "spool.db")
    with pytest.raises(SpoolError, match=r"integrity check|malformed"):
        Spool(crashed / "spool.db")


def test_a_damaged_page_of_a_cleanly_closed_spool_refuses_its_recovery(tmp_path: Path) -> None:
    """Opened without the check, the spool's rows are all read by the recovery: the page it
    cannot read refuses it with the reason and what to do (not a raw sqlite3 error)."""
    path = tmp_path / "spool.db"
    spool_with_rows(path)
    _spoil_a_page(path)
    assert damage.closed_cleanly(path)
    spool = Spool(path)
    try:
        with pytest.raises(SpoolError, match=r"is damaged .*--ignore-state-errors"):
            list(spool.load_lazily().jobs)
    finally:
        spool.close()


def test_a_damaged_index_page_of_a_cleanly_closed_spool_is_found_when_opened(
    tmp_path: Path,
) -> None:
    """The recovery reads tables, not indexes: those are read through at the open."""
    path = tmp_path / "spool.db"
    spool = Spool(path)
    spool.commit(SpoolDelta(story={i: [["line", i]] for i in range(1, 3000)}))
    spool.close()
    with sqlite3.connect(path) as db:
        (page,) = db.execute("SELECT max(pageno) FROM dbstat WHERE name='story_job'").fetchone()
    db.close()
    assert page is not None
    with path.open("r+b") as fh:
        fh.seek((page - 1) * PAGE)
        fh.write(b"\xff" * PAGE)
    assert damage.closed_cleanly(path)
    with pytest.raises(SpoolError, match=r"unreadable .*malformed"):
        Spool(path)
