"""Group commit of the spool: every caller is told when its rows are on disk.

:class:`Committer` gathers outcomes that arrive together into one SQLite
transaction (on the event loop, or in a worker thread with ``sync = "full"``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import structlog

from qmaster.model import SpoolDelta
from qmaster.spool.database import Spool, SpoolError

log = structlog.get_logger("qmaster.spool")


class CommitFailed(Exception):
    """A batch could not be written to the spool."""


class Committer:
    """Group commit: outcomes that arrive together share one transaction.

    With ``inline`` (``sync = "normal"``: a commit writes the WAL without
    fsync, a few tens of microseconds) the transaction runs on the event loop
    at most once per loop iteration, one iteration after the first outcome
    that needs it; otherwise (``sync = "full"``) it runs in a worker
    thread while further outcomes gather for the next one.
    """

    def __init__(
        self, spool: Spool, on_failure: Callable[[], None], *, inline: bool = False
    ) -> None:
        self.spool = spool
        self.on_failure = on_failure
        self.inline = inline
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="spool")
        self._pending = SpoolDelta()
        self._future: asyncio.Future[None] | None = None
        self._kick = asyncio.Event()

    async def commit(self, delta: SpoolDelta) -> None:
        """Return once ``delta`` is in the database; raise :class:`CommitFailed` if it never will be."""
        self._pending.merge(delta)
        if self._future is None:
            loop = asyncio.get_running_loop()
            self._future = loop.create_future()
            if self.inline:
                # commit one loop iteration later, so that requests arriving in
                # the next poll join the same transaction (bigger batches)
                loop.call_soon(loop.call_soon, self._commit_inline)
        fut = self._future
        if not self.inline:
            self._kick.set()
        await asyncio.shield(fut)

    def _take(self) -> tuple[SpoolDelta, asyncio.Future[None] | None]:
        delta, fut = self._pending, self._future
        self._pending, self._future = SpoolDelta(), None
        return delta, fut

    def _failed(self, fut: asyncio.Future[None], exc: SpoolError) -> None:
        log.error("spool_commit_failed", reason=str(exc))
        failed = [fut]
        if self._future is not None:  # later outcomes were built on the lost state
            failed.append(self._future)
            self._pending, self._future = SpoolDelta(), None
        for f in failed:
            f.set_exception(CommitFailed(str(exc)))
        self.on_failure()

    def _commit_inline(self) -> None:
        delta, fut = self._take()
        if fut is None:
            return
        try:
            self.spool.commit(delta)
        except Exception as exc:  # a callback must resolve its future whatever happens
            self._failed(fut, exc if isinstance(exc, SpoolError) else SpoolError(repr(exc)))
            return
        fut.set_result(None)

    def abandon(self, reason: str) -> None:
        """Fail the outcomes not yet written (their state is being thrown away)."""
        delta, fut = self._take()
        del delta
        if fut is not None:
            fut.set_exception(CommitFailed(reason))

    async def run(self) -> None:
        """Commit in the worker thread (not needed with ``inline``)."""
        if self.inline:
            return
        loop = asyncio.get_running_loop()
        while True:
            await self._kick.wait()
            self._kick.clear()
            delta, fut = self._take()
            if fut is None:
                continue
            try:
                await loop.run_in_executor(self._executor, self.spool.commit, delta)
            except Exception as exc:  # never let a failed commit take the daemon down
                self._failed(fut, exc if isinstance(exc, SpoolError) else SpoolError(repr(exc)))
                continue
            fut.set_result(None)

    async def drain(self) -> None:
        while self._future is not None:
            await asyncio.shield(self._future)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
