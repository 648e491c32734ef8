"""The SQLite spool: what is committed comes back; what fails leaves nothing behind."""

from __future__ import annotations

import json
import sqlite3

import pytest

from qmaster.core import Core, CoreSettings
from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool, SpoolError, SpoolFull
from tests.unit.core.helpers import ALICE, T0, make_core, run_until, states, submit


def _spooled_core(tmp_path, core: Core, outs) -> Core:
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(config={(k, n): t for k, n, t in core.config.to_rows()}))
    for out in outs:
        spool.commit(out.spool)
    snap = spool.load()
    spool.close()
    from qmaster.conf.store import ClusterConfig

    return Core.recover(
        ClusterConfig.from_rows(snap.config),
        CoreSettings(admins=frozenset({"root"})),
        snap.jobs,
        snap.tasks,
        snap.counters,
        T0 + 1,
    )


def test_recovery_restores_jobs_tasks_and_counter(tmp_path):
    """Jobs, their running tasks and the next id survive a restart from the spool."""
    core = make_core()
    outs = [submit(core, CMDARGS=["100"], t_min=1, t_max=3), submit(core, ALICE, h=True)]
    outs += run_until(core, T0)
    before = states(core)
    again = _spooled_core(tmp_path, core, outs)
    assert states(again, T0 + 1) == before
    assert again.next_job_id == 3
    assert submit(again, h=True).data["job_id"] == 3


def test_recovered_running_job_still_ends_on_time(tmp_path):
    """A job running at the restart ends when its runtime is over."""
    core = make_core()
    outs = [submit(core, CMDARGS=["50"]), *run_until(core, T0)]
    again = _spooled_core(tmp_path, core, outs)
    run_until(again, T0 + 49, start=T0 + 1)
    assert states(again, T0 + 49) == {"1": "r"}
    run_until(again, T0 + 51, start=T0 + 49)
    assert states(again, T0 + 51) == {}


def test_finished_job_is_deleted_from_the_spool(tmp_path):
    """A job that ended leaves no rows behind."""
    core = make_core()
    outs = [submit(core, CMDARGS=["1"]), *run_until(core, T0 + 5)]
    again = _spooled_core(tmp_path, core, outs)
    assert again.jobs == {}


def test_full_database_rolls_back_the_whole_commit(tmp_path):
    """When the database is full nothing of the transaction is written."""
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(jobs={1: {"x": 1}}))
    spool.set_max_pages(spool._db.execute("PRAGMA page_count").fetchone()[0])
    big = SpoolDelta(jobs={i: {"pad": "x" * 4000} for i in range(2, 50)}, counters={"job": 50})
    with pytest.raises(SpoolFull):
        spool.commit(big)
    snap = spool.load()
    assert list(snap.jobs) == [{"x": 1}]
    assert snap.counters == {}


def test_damaged_database_is_refused(tmp_path):
    """A file that is not a database stops the start with a clear message."""
    path = tmp_path / "spool.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(SpoolError, match="unreadable"):
        Spool(path)


def test_newer_schema_is_refused(tmp_path):
    """A spool written by another schema version is not read."""
    path = tmp_path / "spool.db"
    Spool(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(SpoolError, match="schema version 99"):
        Spool(path)


def test_damaged_row_is_an_error_unless_ignored(tmp_path):
    """A row that does not decode refuses the load, or is skipped on request."""
    path = tmp_path / "spool.db"
    spool = Spool(path)
    spool.commit(SpoolDelta(jobs={1: {"ok": True}}))
    spool._db.execute("INSERT INTO jobs VALUES (2, '{broken')")
    with pytest.raises(SpoolError, match="damaged row"):
        spool.load()
    assert spool.load(ignore_errors=True).jobs == [{"ok": True}]


def test_a_version_1_spool_is_read_and_marked_version_2(tmp_path):
    """A spool of the previous row format opens, keeps its rows, and is then refused by name
    by a qmaster that reads only version 1 (it would misread the rows written since)."""
    path = tmp_path / "spool.db"
    Spool(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='1' WHERE key='schema'")
    row = {"job_id": 4, "owner": [0, 0, "root", "root", "localhost"], "spec": {"N": "old"}}
    db.execute("INSERT INTO jobs VALUES (4, ?)", (json.dumps(row),))
    db.commit()
    db.close()
    spool = Spool(path)
    assert [job["spec"]["N"] for job in spool.load().jobs] == ["old"]
    spool.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
    db.close()
