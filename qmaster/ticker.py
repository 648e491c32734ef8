"""The daemon's time and its recovery from bugs in the core's ticks.

:class:`SteadyClock` reads the wall clock for the core and never hands it a
time before one it has seen: a clock stepped back (by an administrator, or
NTP) would make the core refuse the time (``ClockWentBackwards``), so until
the clock has caught up the core keeps its own time, and the step is logged
once.

:func:`build_pending_index` lets requests in while the first pass's index is built.

:class:`TickFailures` escalates instead of retrying forever: a tick that
raises is thrown away and the core reloaded from the spool, which arms the
same timer again; the second failure on the same job or task (named by
:attr:`Core.working_on`) puts it into error state (``Eqw`` with the reason
``qstat -j`` shows), and scheduling goes on.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

from qmaster import logs
from qmaster.clock import Clock
from qmaster.core import Core, Outcome
from qmaster.core.pendingindex import IndexBuild
from qmaster.core.quarantine import culprit, put_in_error

log = logs.get("qmaster")

FAILURES_BEFORE_ERROR = 2
INDEX_SLICE = 5_000
"""Jobs filed into the pending index between two turns of the event loop."""


class SteadyClock:
    """Wall time for the core: the clock's, or the core's own time while the clock is behind."""

    def __init__(self, clock: Clock, seen: Callable[[], float]) -> None:
        self.clock = clock
        self.seen = seen
        self.behind = False

    def now(self) -> float:
        now = self.clock.now()
        seen = self.seen()
        if now >= seen:
            self.behind = False
            return now
        if not self.behind:
            log.warning("clock_stepped_back", seconds=round(seen - now, 3))
            self.behind = True
        return seen


class TickFailures:
    """How often a tick failed on each job or task; the second time it goes into error."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[int, int | None]] = Counter()

    def failed(self, working_on: tuple[str, int, int] | None) -> tuple[int, int | None] | None:
        """Count a failure; the job and task to put into error state, when it is time."""
        blamed = culprit(working_on)
        if blamed is None:
            return None
        self.counts[blamed] += 1
        if self.counts[blamed] < FAILURES_BEFORE_ERROR:
            return None
        del self.counts[blamed]
        return blamed

    @staticmethod
    def quarantine(
        core: Core, blamed: tuple[int, int | None], exc: BaseException, now: float
    ) -> Outcome:
        """Put the job or task into error state with the bug as its reason."""
        reason = f"internal error in qmaster: {type(exc).__name__}: {exc}"[:500]
        return put_in_error(core, blamed[0], blamed[1], reason, now)


async def build_pending_index(current: Callable[[], Core]) -> None:
    """Before a pass that would build the pending index at once (the first after a start
    or a reload: seconds at a million jobs), build it :data:`INDEX_SLICE` jobs at a time,
    so that requests (those that waited through the recovery first) are answered between
    slices instead of after the whole build. Stops when the core is replaced meanwhile."""
    core = current()
    build = IndexBuild.wanted(core)
    while build is not None and current() is core and not build.step(core, INDEX_SLICE):
        await asyncio.sleep(0)
