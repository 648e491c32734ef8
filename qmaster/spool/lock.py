"""One daemon per cell: an exclusive ``flock`` on ``spool/qmaster/lock``. Standard library only.

The daemon holds the lock (its pid written inside) for as long as it runs; the
kernel releases it when the process exits, before any parent reaps it, so
:func:`lock_holder` is also the quickest way to see that a daemon has gone.

Only the daemon's user may open the lock file (mode 0600): another local user
who could open it could hold a shared lock on it and keep every daemon from
starting. A lock held by a process that is not the pid written inside (a
squatter from before the mode was tightened) is left to it: the daemon locks a
new file in its place.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from qmaster.digits import is_digits


class LockHeld(Exception):
    """Another daemon holds the cell lock; ``str()`` says which."""


def lock_holder(path: Path) -> str | None:
    """The pid (as written) of the daemon holding the lock, or None when it is free.

    A lock held by somebody other than the live pid written in it is free: that is
    not a daemon (a daemon writes its pid as soon as it has the lock).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except PermissionError:
        return "?"  # another user's lock: only its daemon may look
    try:
        return _daemon_holding(fd)
    finally:
        os.close(fd)


def _daemon_holding(fd: int) -> str | None:
    """The pid of the daemon holding the lock open on ``fd``, or None.

    A daemon holds the lock exclusively: when a shared lock can be had, only
    others (squatters) hold it. An exclusive holder is a daemon while the pid
    written in the file lives (empty: a daemon that has not written it yet).
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
        return holder or "?" if _alive(holder) else None
    fcntl.flock(fd, fcntl.LOCK_UN)
    return None


def _alive(pid: str) -> bool:
    """A process with this pid exists (it may belong to another user); "" counts."""
    if not pid:
        return True
    if not is_digits(pid) or int(pid) <= 0:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class CellLock:
    """The lock a running daemon holds."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock and write our pid into it, or raise :class:`LockHeld`."""
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _daemon_holding(fd)
            os.close(fd)
            if holder is not None:
                raise LockHeld(
                    f'a qmaster is already running on this cell (pid {holder}, lock "{self.path}")'
                ) from None
            fd = self._replace()  # held, but not by a daemon
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd

    def _open(self) -> int:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except PermissionError:
            raise LockHeld(f'cannot open the cell lock "{self.path}": permission denied') from None
        st = os.fstat(fd)
        if st.st_uid != os.geteuid():
            os.close(fd)
            return self._replace()
        if st.st_mode & 0o077:
            os.fchmod(fd, 0o600)
        return fd

    def _replace(self) -> int:
        """A new lock file in the old one's place (its holder keeps the old inode)."""
        fresh = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        fd = os.open(fresh, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        os.replace(fresh, self.path)
        return fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
