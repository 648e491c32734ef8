"""kill -9 at random moments under mixed load, kill -9 during recovery, SIGTERM under load:
nothing acknowledged is lost, no id comes back twice, new ids go above every acknowledged one."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import time

import pytest

from bench.attacks import Ledger, audit, end_load, mixed_load, wait_for_acks
from qmaster.gdi.client import Connection
from qmaster.testing import RunningCell
from tests.e2e import cells

pytestmark = pytest.mark.timeout(150)


def integrity(cell: RunningCell) -> str:
    with sqlite3.connect(cell.cell.database) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def test_kill9_at_random_moments_under_mixed_load_loses_nothing(roomy_cell: RunningCell) -> None:
    """Three crashes at random moments while 4 clients submit, qdel, qalter, qrsub and qrdel:
    after each restart every acknowledged job, change, deletion and AR is as answered."""
    cell = roomy_cell
    rng = random.Random(1402)
    ledger = Ledger()
    cell.start()
    for trial in range(3):
        stop, threads = mixed_load(cell.cell.socket, ledger, clients=4, seed=trial)
        wait_for_acks(ledger, ledger.acks + 20)
        time.sleep(rng.uniform(0.05, 0.6))
        cells.kill9(cell)
        end_load(stop, threads)
        assert integrity(cell) == "ok"
        cell.start()
        result = audit(cell.cell.socket, ledger)
        assert result.ok, result
        assert result.recovered == result.expected
    assert ledger.deleted
    assert ledger.ars
    assert any(name != "sleep" for name in ledger.names.values()), "no qalter was answered"


def _prefill(cell: RunningCell, jobs: int) -> None:
    """``jobs`` held jobs written straight into the spool (as a long-lived cell holds them)."""
    cell.start()
    with Connection(cell.cell.socket) as conn:
        assert conn.call("submit", {"job": {"CMDNAME": "sleep", "b": True, "h": True}}).ok
    cells.stop(cell)
    with sqlite3.connect(cell.cell.database) as db:
        (row,) = db.execute("SELECT row FROM jobs WHERE job_id=1").fetchone()
        db.executemany(
            "INSERT INTO jobs VALUES (?, ?)",
            ((i, row.replace('"job_id": 1,', f'"job_id": {i},')) for i in range(2, jobs + 1)),
        )
        db.execute("INSERT OR REPLACE INTO counters VALUES ('job', ?)", (jobs + 1,))


def test_kill9_during_recovery_leaves_a_cell_that_recovers(stopped_cell: RunningCell) -> None:
    """A daemon killed while it reads back 30,000 jobs leaves the spool whole: the next
    start recovers every job and the next id follows them."""
    cell = stopped_cell
    _prefill(cell, 30_000)
    for delay in (0.05, 0.3):
        proc = subprocess.Popen(
            ["qmaster", "start", "--foreground"],
            env=cell.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        cells.wait_lock_free(cell)
    assert integrity(cell) == "ok"
    cell.start(timeout=60)
    with Connection(cell.cell.socket) as conn:
        rows = conn.call("job_list", {"users": ["*"]}).data["jobs"]
        assert sorted(r["job_id"] for r in rows) == list(range(1, 30_001))
        new = conn.call("submit", {"job": {"CMDNAME": "sleep", "b": True, "h": True}})
    assert new.data["job_id"] == 30_001


def test_a_client_connecting_during_recovery_waits_for_the_whole_state(
    stopped_cell: RunningCell,
) -> None:
    """The socket is open while 30,000 jobs are read back: a qstat then is not refused, it
    waits and is answered with every job once the recovery is over."""
    cell = stopped_cell
    _prefill(cell, 30_000)
    logged = cell.cell.messages.stat().st_size
    proc = subprocess.Popen(
        ["qmaster", "start", "--foreground"],
        env=cell.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not cell.cell.socket.exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        with Connection(cell.cell.socket, timeout=60) as conn:
            with cell.cell.messages.open("rb") as fh:
                fh.seek(logged)
                assert b"state_recovered" not in fh.read(), "the socket opened after recovery"
            rows = conn.call("job_list", {"users": ["*"]}).data["jobs"]
        assert len(rows) == 30_000
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


def test_sigterm_under_load_exits_0_and_keeps_everything_acknowledged(
    roomy_cell: RunningCell,
) -> None:
    """SIGTERM while 4 clients write: the daemon exits 0 and the restarted one has every
    acknowledged job, change, deletion and AR."""
    cell = roomy_cell
    proc = subprocess.Popen(
        ["qmaster", "start", "--foreground"],
        env=cell.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while not cell.cell.socket.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        ledger = Ledger()
        stop, threads = mixed_load(cell.cell.socket, ledger, clients=4, seed=7)
        wait_for_acks(ledger, 200)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0, proc.stderr.read() if proc.stderr else ""
        end_load(stop, threads)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stderr:
            proc.stderr.close()
    assert ledger.acks >= 200
    cell.start()
    result = audit(cell.cell.socket, ledger)
    assert result.ok, result
