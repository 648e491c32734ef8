"""One daemon per cell: an exclusive ``flock`` on ``spool/qmaster/lock``. Standard library only.

The daemon holds the lock (its pid written inside) for as long as it runs; the
kernel releases it when the process exits, before any parent reaps it, so
:func:`lock_holder` is also the quickest way to see that a daemon has gone.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class LockHeld(Exception):
    """Another daemon holds the cell lock; ``str()`` says which."""


def lock_holder(path: Path) -> str | None:
    """The pid (as written) of the daemon holding the lock, or None when it is free."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return os.read(fd, 64).decode(errors="replace").strip() or "?"
    finally:
        os.close(fd)
    return None


class CellLock:
    """The lock a running daemon holds."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock and write our pid into it, or raise :class:`LockHeld`."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise LockHeld(
                f'a qmaster is already running on this cell (pid {holder}, lock "{self.path}")'
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
