"""Fast ways to stop or crash a cell's daemon process.

A detached daemon's parent is init; where init reaps slowly, ``kill(pid, 0)``
keeps succeeding on the zombie for a second or more. The daemon's exit is
better seen on the cell itself: its pid file is gone and its lock is free.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

from qmaster.spool.lock import lock_holder
from qmaster.testing import RunningCell


def lock_is_free(cell: RunningCell) -> bool:
    """Nobody holds the cell lock (the daemon has exited or never ran)."""
    return lock_holder(cell.cell.lock) is None


def wait_lock_free(cell: RunningCell, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not lock_is_free(cell):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the qmaster of {cell.cell.path} did not exit")
        time.sleep(0.02)


def send(cell: RunningCell, sig: int) -> bool:
    """Signal the daemon named in the pid file; False when there is none."""
    try:
        pid = cell.pid()
        os.kill(pid, sig)
    except (OSError, ValueError):
        return False
    return True


def stop(cell: RunningCell) -> None:
    """SIGTERM the daemon (as ``qmaster stop`` does) and wait until it has let go of the cell."""
    if send(cell, signal.SIGTERM):
        wait_lock_free(cell)


def kill9(cell: RunningCell) -> None:
    """SIGKILL the daemon (a crash) and wait until the kernel has released its lock."""
    assert send(cell, signal.SIGKILL), "no daemon to kill"
    wait_lock_free(cell)


def stop_quietly(cell: RunningCell) -> None:
    with contextlib.suppress(TimeoutError):
        stop(cell)
