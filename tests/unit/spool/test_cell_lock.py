"""The cell lock: only the daemon's user can open it, and a squatter cannot keep a daemon out."""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path

import pytest

from qmaster.spool.lock import CellLock, LockHeld, lock_holder


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_lock_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """A new lock file, and one left with mode 0644 by an older daemon, end up 0600."""
    fresh = CellLock(tmp_path / "lock")
    fresh.acquire()
    assert _mode(tmp_path / "lock") == 0o600
    fresh.release()
    old = tmp_path / "old"
    old.write_text("")
    old.chmod(0o644)
    lock = CellLock(old)
    lock.acquire()
    assert _mode(old) == 0o600
    lock.release()


def test_a_shared_lock_held_by_someone_else_does_not_keep_the_daemon_out(tmp_path: Path) -> None:
    """A process holding a shared flock on the lock file (with a dead daemon's pid inside)
    is not a daemon: the next daemon starts and the cell shows it as the holder."""
    path = tmp_path / "lock"
    path.write_text("999999999")
    squatter = os.open(path, os.O_RDONLY)
    fcntl.flock(squatter, fcntl.LOCK_SH | fcntl.LOCK_NB)
    try:
        assert lock_holder(path) is None
        lock = CellLock(path)
        lock.acquire()
        assert lock_holder(path) == str(os.getpid())
        lock.release()
    finally:
        os.close(squatter)


def test_a_running_daemon_still_keeps_a_second_one_out(tmp_path: Path) -> None:
    """The exclusive lock of a live daemon refuses the next start, naming its pid."""
    first = CellLock(tmp_path / "lock")
    first.acquire()
    with pytest.raises(LockHeld, match=f"pid {os.getpid()}"):
        CellLock(tmp_path / "lock").acquire()
    first.release()
    assert lock_holder(tmp_path / "lock") is None
