"""Damaged spools: a start refuses with a clear message and leaves the file as it was;
``--ignore-state-errors`` starts with what can be salvaged (and says what it kept)."""

from __future__ import annotations

import sqlite3

import pytest

from qmaster.gdi.client import Connection
from qmaster.testing import RunningCell
from tests.e2e import cells

pytestmark = pytest.mark.timeout(120)


def with_jobs(cell: RunningCell, n: int) -> None:
    """A stopped cell holding jobs 1..n (held, so they stay as they are)."""
    cell.start()
    with Connection(cell.cell.socket) as conn:
        for _ in range(n):
            job = {"CMDNAME": "sleep", "b": True, "h": True, "N": "x" * 300}
            assert conn.call("submit", {"job": job}).ok
    cells.stop(cell)


def job_ids(cell: RunningCell) -> list[int]:
    with Connection(cell.cell.socket) as conn:
        return sorted(r["job_id"] for r in conn.call("job_list", {"users": ["*"]}).data["jobs"])


def content(cell: RunningCell) -> object:
    """What the spool holds: its rows, or its bytes where SQLite cannot read it."""
    try:
        with sqlite3.connect(cell.cell.database) as db:
            return list(db.iterdump())
    except sqlite3.DatabaseError:
        return cell.cell.database.read_bytes()


def refused(cell: RunningCell, *args: str) -> str:
    before = content(cell)
    result = cell.run("qmaster", "start", "--timeout", "20", *args)
    assert result.returncode != 0, result.stdout
    assert content(cell) == before, "a refused start changed the spool"
    assert "Traceback" not in result.stderr
    return result.stderr


def sql(cell: RunningCell, statement: str) -> None:
    with sqlite3.connect(cell.cell.database) as db:
        db.execute(statement)


def test_rows_that_are_json_but_not_jobs_are_refused_then_left_out(
    stopped_cell: RunningCell,
) -> None:
    """Job rows that are valid JSON but no job stop the start with the row named, and
    --ignore-state-errors starts without those jobs (it used to raise TypeError/KeyError
    either way)."""
    cell = stopped_cell
    with_jobs(cell, 6)
    sql(cell, """UPDATE jobs SET row='{"job_id": 3, "owner": "root"}' WHERE job_id=3""")
    message = refused(cell)
    assert "the job row 3 is not what the table holds (ValueError" in message
    assert "--ignore-state-errors" in message
    sql(cell, """UPDATE jobs SET row='{"job_id": 2}' WHERE job_id=2""")
    assert "the job row 2 is not what the table holds (KeyError: 'owner')" in refused(cell)
    sql(cell, "UPDATE jobs SET row='[1, 2, 3]' WHERE job_id=1")
    assert "a job row is not what the table holds (TypeError" in refused(cell)
    cell.start("--ignore-state-errors")
    assert job_ids(cell) == [4, 5, 6]
    assert cell.run("qsub", "-terse", "-b", "y", "sleep", "1").stdout.strip() == "7"


def test_task_and_reservation_rows_that_are_not_objects_are_left_out(
    stopped_cell: RunningCell,
) -> None:
    """A task row and an AR row that decode but are no task or AR: refused, then left out."""
    cell = stopped_cell
    with_jobs(cell, 2)
    sql(cell, "INSERT INTO tasks VALUES (1, 1, '[1]')")
    sql(cell, "INSERT INTO ars VALUES (5, '{\"ar_id\": 5}')")
    assert "a task or advance reservation row is not what the table holds" in refused(cell)
    cell.start("--ignore-state-errors")
    assert job_ids(cell) == [1, 2]
    assert "no AR" not in cell.run("qrstat", "-u", "*").stdout


def test_a_missing_jobs_table_is_refused_not_started_empty(stopped_cell: RunningCell) -> None:
    """A spool without its jobs table used to start an empty cell (every job silently gone);
    now the start refuses, and --ignore-state-errors starts on what is left, saying so."""
    cell = stopped_cell
    with_jobs(cell, 3)
    sql(cell, "DROP TABLE jobs")
    assert 'has no "jobs" table: it is damaged' in refused(cell)
    result = cell.run("qmaster", "start", "--ignore-state-errors", "--timeout", "20")
    assert result.returncode == 0, result.stderr
    assert "salvaged the spool database" in result.stderr
    assert job_ids(cell) == []
    assert list(cell.cell.spool.glob("spool.db.damaged-*"))


def test_a_truncated_database_is_refused_then_salvaged(stopped_cell: RunningCell) -> None:
    """A database cut short: the start refuses with the reason; --ignore-state-errors keeps
    the rows that can still be read (the configuration and most jobs), moves the damaged
    file aside, and ids continue above the highest job kept."""
    cell = stopped_cell
    with_jobs(cell, 300)
    size = cell.cell.database.stat().st_size
    with open(cell.cell.database, "r+b") as fh:
        fh.truncate(size - 3 * 4096)
    message = refused(cell)
    assert "malformed" in message or "integrity" in message
    assert "--ignore-state-errors" in message
    result = cell.run("qmaster", "start", "--ignore-state-errors", "--timeout", "20")
    assert result.returncode == 0, result.stderr
    assert "salvaged the spool database: kept" in result.stderr
    kept = job_ids(cell)
    assert 200 <= len(kept) < 300
    assert set(kept) <= set(range(1, 301))
    assert int(cell.run("qsub", "-terse", "-b", "y", "sleep", "1").stdout) > max(kept)
    (damaged,) = cell.cell.spool.glob("spool.db.damaged-*[0-9]")
    assert damaged.stat().st_size == size - 3 * 4096


def test_a_damaged_page_of_a_cleanly_stopped_cell_is_refused_then_salvaged(
    stopped_cell: RunningCell,
) -> None:
    """A cleanly stopped spool is opened without reading every page first: a damaged page
    of its jobs still refuses the start with the reason (found as the recovery reads the
    rows), and --ignore-state-errors keeps the other jobs."""
    cell = stopped_cell
    with_jobs(cell, 300)
    with sqlite3.connect(cell.cell.database) as db:
        pages = [p for (p,) in db.execute("SELECT pageno FROM dbstat WHERE name='jobs'")]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(cell.cell.database, "r+b") as fh:
        fh.seek((pages[len(pages) // 2] - 1) * size)
        fh.write(b"\xff" * size)
    message = refused(cell)
    assert "is damaged (database disk image is malformed)" in message
    assert "--ignore-state-errors" in message
    result = cell.run("qmaster", "start", "--ignore-state-errors", "--timeout", "20")
    assert result.returncode == 0, result.stderr
    assert "salvaged the spool database: kept" in result.stderr
    assert 250 <= len(job_ids(cell)) < 300


def test_a_zero_byte_database_is_refused_with_what_to_do(stopped_cell: RunningCell) -> None:
    """A 0-byte spool.db used to say 'global:0: missing global'; it now says the file is
    empty and how to get a cell back, with or without --ignore-state-errors."""
    cell = stopped_cell
    cell.cell.database.write_bytes(b"")
    for args in ((), ("--ignore-state-errors",)):
        message = refused(cell, *args)
        assert "is empty (0 bytes)" in message
        assert "qmaster init" in message
        assert "missing global" not in message


def test_a_refused_start_shows_its_own_reason_not_an_earlier_one(
    stopped_cell: RunningCell,
) -> None:
    """'qmaster start' quotes the lines of this start, not those an earlier failed start
    left in qmaster.out."""
    cell = stopped_cell
    cell.cell.database.write_bytes(b"")
    refused(cell)
    with_jobs_db = cell.cell.database
    with_jobs_db.write_bytes(b"not a database at all, but not empty either" * 200)
    message = refused(cell)
    assert "0 bytes" not in message


@pytest.mark.parametrize("squatter", ["symlink", "file"])
def test_something_else_at_the_socket_path_is_refused_in_one_line(
    stopped_cell: RunningCell, squatter: str
) -> None:
    """A symlink or a plain file where the socket goes: the start refuses with one line
    naming the path (it used to print a 40-line traceback), and the squatter stays."""
    cell = stopped_cell
    path = cell.cell.socket
    path.parent.mkdir(parents=True, exist_ok=True)
    if squatter == "symlink":
        path.symlink_to(cell.cell.root / "elsewhere")
    else:
        path.write_text("mine")
    result = cell.run("qmaster", "start", "--timeout", "20")
    assert result.returncode != 0
    assert f'"{path}" exists and is not a socket; refusing to replace it' in result.stderr
    assert "Traceback" not in result.stderr
    out = (cell.cell.spool / "qmaster.out").read_text()
    assert "Traceback" not in out
    assert path.is_symlink() == (squatter == "symlink")
