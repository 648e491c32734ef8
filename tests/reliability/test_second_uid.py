"""A second, unprivileged uid (``nobody``) attacks the cell: it cannot keep the qmaster from
starting, fill the spool's disk through the log, or touch another user's jobs."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable

import pytest

from bench.attacks import ping_seconds
from qmaster.gdi.client import Connection, request_body
from qmaster.gdi.frames import encode_frame
from qmaster.spool.lock import lock_holder
from qmaster.testing import RunningCell
from tests.e2e import cells
from tests.e2e.other_user import nobody_ids, run_as

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as user nobody"),
]


def as_nobody(action: Callable[[], int]) -> int:
    """Run ``action`` in a forked child that is user nobody; its exit code."""
    uid, gid = nobody_ids()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 99
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            code = action()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_nobody_squatting_the_lock_cannot_stop_a_start(world_readable_cell: RunningCell) -> None:
    """A lock file left world-readable (as older versions made it) and held shared by nobody:
    the next start still succeeds, and nobody cannot open the daemon's new lock."""
    cell = world_readable_cell
    cells.stop(cell)
    cell.cell.lock.chmod(0o644)
    uid, gid = nobody_ids()
    squatter = subprocess.Popen(
        ["flock", "-s", str(cell.cell.lock), "sleep", "60"], user=uid, group=gid, extra_groups=[]
    )
    try:
        time.sleep(0.5)
        assert squatter.poll() is None, "the squatter could not take its lock"
        cell.start()
        assert lock_holder(cell.cell.lock) == str(cell.pid())
        assert oct(cell.cell.lock.stat().st_mode & 0o777) == "0o600"
        again = subprocess.run(
            ["flock", "-n", "-s", str(cell.cell.lock), "true"],
            user=uid, group=gid, extra_groups=[], capture_output=True, check=False,
        )  # fmt: skip
        assert again.returncode != 0
    finally:
        squatter.kill()
        squatter.wait()


def test_nobody_cannot_fill_the_disk_through_the_log(world_readable_cell: RunningCell) -> None:
    """300 pings from nobody, each claiming a 900 KiB user name: the log grows by a few
    hundred short lines, not 270 MB, and root's qsub still works."""
    cell = world_readable_cell
    before = cell.cell.messages.stat().st_size
    claim = "n" * (900 * 1024)

    def flood() -> int:
        frame = encode_frame(request_body("ping", {}, fake_user=claim))
        with Connection(cell.cell.socket, timeout=30) as conn:
            for _ in range(300):
                conn._sock.sendall(frame)
                conn.receive()
        return 0

    assert as_nobody(flood) == 0
    grown = cell.cell.messages.stat().st_size - before
    assert grown < 300 * 2048, grown
    assert cell.run("qsub", "-b", "y", "-h", "sleep", "1").returncode == 0
    assert ping_seconds(cell.cell.socket) < 1.0


def test_nobody_cannot_delete_alter_or_hold_another_users_job(
    world_readable_cell: RunningCell,
) -> None:
    """qdel, qalter and qdel -u of root's jobs by nobody are refused; the job is unchanged."""
    cell = world_readable_cell
    assert cell.run("qsub", "-h", "-N", "mine", "-b", "y", "sleep", "1000").returncode == 0
    uid, gid = nobody_ids()
    for argv in (("qdel", "1"), ("qalter", "-N", "stolen", "1"), ("qdel", "-u", "root")):
        result = run_as(cell, uid, gid, *argv)
        assert result.returncode != 0 or "privileges" in result.stdout + result.stderr, argv
    detail = cell.run("qstat", "-j", "1")
    assert detail.returncode == 0
    assert "job_name:                   mine" in detail.stdout
