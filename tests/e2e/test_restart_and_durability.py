"""Restarts: kill -9 mid-burst loses no acknowledged job; clean restarts keep jobs and ids."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from qmaster.gdi.client import Connection, GdiError
from qmaster.testing import RunningCell, make_cell_env
from tests.e2e import cells

pytestmark = pytest.mark.timeout(120)


def listed_ids(cell: RunningCell) -> list[int]:
    """Job ids the daemon lists for all users, one per job (array rows folded)."""
    with Connection(cell.cell.socket) as conn:
        rows = conn.call("job_list", {"users": ["*"]}).data["jobs"]
    return [r["job_id"] for r in rows if r["tasks"] is None or r["state"] != "r"]


def submit_burst(cell: RunningCell, acked: list[int], stop: threading.Event) -> None:
    """Submit over one connection until the daemon goes away; record acknowledged ids."""
    spec = {"job": {"CMDNAME": "sleep", "CMDARGS": ["1000"], "b": True}}
    try:
        with Connection(cell.cell.socket, timeout=10) as conn:
            while not stop.is_set():
                reply = conn.call("submit", spec)
                assert reply.ok, reply.answers
                acked.append(reply.data["job_id"])
    except GdiError:
        return


def test_kill9_during_a_submit_burst_loses_no_acknowledged_job(stopped_cell: RunningCell) -> None:
    """SIGKILL mid-burst, restart: every acknowledged id is back, once, and new ids go higher."""
    cell = stopped_cell
    cell.start()
    acked: list[int] = []
    stop = threading.Event()
    workers = [threading.Thread(target=submit_burst, args=(cell, acked, stop)) for _ in range(4)]
    for w in workers:
        w.start()
    deadline = time.monotonic() + 30
    while len(acked) < 300 and time.monotonic() < deadline:
        time.sleep(0.01)
    cells.kill9(cell)
    stop.set()
    for w in workers:
        w.join(15)
    assert len(acked) >= 300
    assert len(set(acked)) == len(acked), "an id was acknowledged twice"
    assert cell.cell.socket.exists(), "a killed daemon leaves its socket behind"

    cell.start()
    recovered = listed_ids(cell)
    assert len(recovered) == len(set(recovered)), "a job came back twice"
    assert set(acked) <= set(recovered)
    qstat = cell.run("qstat", "-u", "*")
    assert qstat.returncode == 0
    assert len([ln for ln in qstat.stdout.splitlines()[2:] if ln.strip()]) >= len(set(acked))
    new = cell.run("qsub", "-terse", "-b", "y", "sleep", "1000")
    assert new.returncode == 0, new.stderr
    assert int(new.stdout) > max(acked)


def test_clean_restart_keeps_every_job_and_the_id_counter(stopped_cell: RunningCell) -> None:
    """qmaster stop/start keeps pending, held and array jobs, and the next id continues."""
    cell = stopped_cell
    cell.start()
    assert cell.run("qsub", "-terse", "-b", "y", "sleep", "1000").stdout.strip() == "1"
    assert cell.run("qsub", "-terse", "-h", "-b", "y", "sleep", "1").stdout.strip() == "2"
    arr = cell.run("qsub", "-terse", "-t", "1-3", "-h", "-b", "y", "sleep", "1")
    assert arr.stdout.strip() == "3.1-3:1"
    assert cell.run("qdel", "2").returncode == 0
    before = cell.run("qstat", "-u", "*").stdout
    cells.stop(cell)
    cell.start()
    after = cell.run("qstat", "-u", "*").stdout
    assert [ln.split()[:2] + ln.split()[3:4] for ln in after.splitlines()[2:]] == [
        ln.split()[:2] + ln.split()[3:4] for ln in before.splitlines()[2:]
    ]
    assert sorted(set(listed_ids(cell))) == [1, 3]
    assert cell.run("qsub", "-terse", "-b", "y", "sleep", "1").stdout.strip() == "4"


def test_a_second_daemon_in_the_foreground_refuses_to_start(minige_cell: RunningCell) -> None:
    """'qmaster start --foreground' on a served cell exits 1 naming the running pid and lock."""
    result = minige_cell.run("qmaster", "start", "--foreground", timeout=30)
    assert result.returncode == 1
    assert "a qmaster is already running on this cell" in result.stderr
    assert f"pid {minige_cell.pid()}" in result.stderr
    assert minige_cell.run("qmaster", "status").returncode == 0


def test_a_second_detached_start_refuses_with_a_clear_message(served: RunningCell) -> None:
    """'qmaster start' on a served cell exits non-zero and says a qmaster is already running."""
    result = served.run("qmaster", "start", "--timeout", "10")
    assert result.returncode != 0
    assert "already running" in result.stderr


def test_stale_socket_and_lock_of_a_killed_daemon_are_taken_over(
    stopped_cell: RunningCell,
) -> None:
    """After kill -9 the leftover socket, lock and pid file do not stop a new daemon."""
    cell = stopped_cell
    cell.start()
    old_pid = cell.pid()
    cells.kill9(cell)
    assert cell.cell.socket.exists()
    assert cell.cell.lock.exists()
    assert cell.cell.pidfile.exists()
    status = cell.run("qmaster", "status")
    assert status.returncode == 1
    cell.start()
    assert cell.pid() != old_pid
    assert cell.run("qsub", "-terse", "-b", "y", "sleep", "1").stdout.strip() == "1"


def test_stop_after_a_crash_does_not_signal_the_process_named_in_a_stale_pidfile(
    stopped_cell: RunningCell,
) -> None:
    """'qmaster stop' with no daemon running leaves alone the process that now has the
    pid of the crashed one, and says that no qmaster is running."""
    cell = stopped_cell
    bystander = subprocess.Popen(["sleep", "60"])
    try:
        cell.cell.pidfile.parent.mkdir(parents=True, exist_ok=True)
        cell.cell.pidfile.write_text(f"{bystander.pid}\n")
        result = cell.run("qmaster", "stop", "--timeout", "2")
        assert result.returncode != 0
        assert "no qmaster is running" in result.stderr
        time.sleep(0.2)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def test_qmaster_init_creates_a_cell_once(tmp_path: Path) -> None:
    """'qmaster init' run as a command creates the cell a start then serves; a second init of
    the same cell, or one from a folder that is not a configuration, fails and changes nothing."""
    env = make_cell_env(tmp_path)

    def qmaster(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["qmaster", *argv], check=False, env=env, capture_output=True, text=True, timeout=30
        )

    missing = qmaster("init", "--from", str(tmp_path / "nowhere"))
    assert missing.returncode != 0
    assert not (tmp_path / "default").exists()
    created = qmaster("init")
    assert (created.returncode, created.stdout) == (0, f'created cell "{tmp_path / "default"}"\n')
    spool = (tmp_path / "default" / "spool").stat().st_mtime_ns
    again = qmaster("init")
    assert again.returncode == 1
    assert "already exists" in again.stderr
    assert (tmp_path / "default" / "spool").stat().st_mtime_ns == spool


def test_start_on_a_missing_cell_says_how_to_create_one(tmp_path: Path) -> None:
    """'qmaster start' with SGE_ROOT at an empty directory fails and points at 'qmaster init'."""
    root = tmp_path / "empty"
    root.mkdir()
    env = make_cell_env(root)
    result = subprocess.run(
        ["qmaster", "start"], check=False, env=env, capture_output=True, text=True, timeout=30
    )
    assert result.returncode != 0
    assert 'create it with "qmaster init"' in result.stderr
    assert str(root) in result.stderr
    assert not (root / "default" / "spool").exists()
