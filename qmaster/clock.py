"""Time for the drivers: the one place that reads the clock.

Wall time decides job runtimes and reservation windows; monotonic time
decides timeouts. The core never reads either: the drivers pass ``now`` in.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """What a driver needs of time."""

    def now(self) -> float:
        """Wall-clock seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never jumps."""
        ...


class RealClock:
    """The system's clocks."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()


class VirtualClock:
    """A clock that moves only when told to (tests and the simulator)."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:
        self._now = start
        self._mono = 0.0

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float) -> None:
        """Move both clocks forward."""
        self._now += seconds
        self._mono += seconds

    def set(self, wall: float) -> None:
        """Jump the wall clock (forwards or backwards), as an administrator might."""
        self._now = wall
