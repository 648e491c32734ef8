"""The server JSV pool: a few :class:`~qmaster.jsv.worker.JsvWorker` processes.

``verify`` takes an idle worker and gives it back afterwards: up to ``size``
verifications run in parallel, each with its own ``jsv_timeout`` (a worker that
times out is killed, restarted and tried once more, as Grid Engine does), and the
event loop never waits on a pipe. A worker that has not answered within
``hung_after`` seconds no longer counts as one of the ``size``: when all the
others are busy, a new worker is started for the next job instead of making it
wait out the hung one's timeouts (two hung scripts used to stall every
submission for 2 x ``jsv_timeout``). The pool never holds more than ``4 x size``
scripts, and shrinks back to ``size`` as the extra workers come free.
``reconfigure`` with a new URL starts a new generation of workers; old ones
finish their job and are then stopped.

Log events (structlog): ``jsv_started``, ``jsv_restarted`` (with ``reason``),
``jsv_timeout``, ``jsv_worker_added`` (in place of hung ones), ``jsv_slow`` (a verification over ``jsv_threshold``; a
threshold of 0 logs every job), ``jsv_log`` (a LOG line from the script),
``jsv_stopped``.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

import structlog

from qmaster.jsv.errors import JsvUrlError, msg_setting_changed
from qmaster.jsv.protocol import JsvContext, Limits, ResultState, Verdict
from qmaster.jsv.url import NO_JSV, JsvUrl, parse_jsv_url
from qmaster.jsv.worker import JsvWorker, WorkerStats


class JsvPool:
    """The qmaster's server JSVs (``jsv_url``, ``jsv_timeout``, ``jsv_threshold``)."""

    def __init__(
        self,
        url: str | None,
        size: int = 2,
        timeout: float = 10.0,
        threshold_ms: int = 5000,
        logger: Any = None,
        *,
        limits: Limits | None = None,
        quit_timeout: float = 5.0,
        hung_after: float | None = None,
    ) -> None:
        self.size = max(1, size)
        self.most = self.size * 4
        self.timeout = timeout
        self._hung_after = hung_after
        self.threshold_ms = threshold_ms
        self.limits = limits or Limits()
        self.quit_timeout = quit_timeout
        self._log = logger or structlog.get_logger("qmaster.jsv")
        self._url_text = url
        self._url = _parse(url)
        self._generation = 0
        self._workers: list[JsvWorker] = []
        self._idle: list[JsvWorker] = []
        self._busy: dict[JsvWorker, float] = {}  # since when (monotonic)
        self._waiters: deque[asyncio.Future[JsvWorker | None]] = deque()
        self._added = 0
        self._closing: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str | None:
        """The configured ``jsv_url`` (None when no server JSV is set)."""
        return self._url_text

    @property
    def pids(self) -> list[int]:
        """Process ids of the running scripts (for tests and ``qping``-like output)."""
        return [w.pid for w in self._workers if w.pid is not None]

    def stats(self) -> WorkerStats:
        """The summed time accounting of the current workers."""
        total = WorkerStats()
        for w in self._workers:
            total.jobs += w.stats.jobs
            total.codec_s += w.stats.codec_s
            total.wait_s += w.stats.wait_s
            total.restarts += w.stats.restarts
        return total

    async def start(self) -> None:
        """Start the scripts (a start failure is logged; jobs then get its message)."""
        self._new_generation()
        await asyncio.gather(*(self._start_one(w) for w in self._workers))

    def start_soon(self) -> None:
        """Start the scripts in the background (the daemon answers meanwhile; a job that
        comes first waits for its worker's script)."""
        self._new_generation()
        for worker in self._workers:
            worker.start_soon()

    async def _start_one(self, worker: JsvWorker) -> None:
        try:
            await worker.start()
        except Exception as exc:
            self._log.error("jsv_start_failed", path=worker.url.path, error=str(exc))

    @property
    def hung_after(self) -> float:
        """Seconds without an answer after which a worker no longer counts as available."""
        if self._hung_after is not None:
            return self._hung_after
        return min(1.0, self.timeout / 4)

    def _new_generation(self) -> None:
        self._generation += 1
        self._workers = []
        self._idle = []
        if self._url is not None:
            for _ in range(self.size):
                self._idle.append(self._new_worker())
        waiters, self._waiters = self._waiters, deque()
        for fut in waiters:  # they look again, at the new generation
            if not fut.done():
                fut.set_result(None)

    def _new_worker(self) -> JsvWorker:
        assert self._url is not None
        self._added += 1
        worker = JsvWorker(
            self._url,
            timeout=self.timeout,
            limits=self.limits,
            quit_timeout=self.quit_timeout,
            name=f"jsv-{self._generation}.{self._added}",
            logger=self._log,
        )
        self._workers.append(worker)
        return worker

    async def verify(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None = None
    ) -> Verdict:
        """Verify one job with an idle worker; ACCEPT at once when no JSV is configured."""
        while True:
            if self._url is None:
                return Verdict(ResultState.ACCEPT, dict(spec), dict(spec.get("v") or {}))
            worker = await self._acquire()
            if worker is not None:
                break
        generation = self._generation
        started = self._busy[worker] = time.monotonic()
        try:
            verdict = await worker.verify(spec, ctx, env)
        finally:
            self._give_back(worker, generation)
        self._log_slow(ctx, verdict, (time.monotonic() - started) * 1000.0)
        return verdict

    async def _acquire(self) -> JsvWorker | None:
        """An idle worker, a new one in place of hung ones, or None when the pool changed."""
        while True:
            if self._idle:
                return self._idle.pop()
            now = time.monotonic()
            hung = [w for w, since in self._busy.items() if now - since >= self.hung_after]
            if len(self._workers) - len(hung) < self.size and len(self._workers) < self.most:
                self._log.warning("jsv_worker_added", hung=len(hung), workers=len(self._workers))
                return self._new_worker()  # its script starts with its first job
            fut: asyncio.Future[JsvWorker | None] = asyncio.get_running_loop().create_future()
            self._waiters.append(fut)
            await asyncio.wait([fut], timeout=self._next_hang_in(now))
            if fut.done():
                return fut.result()
            fut.cancel()  # look again: a worker may count as hung by now
            self._waiters.remove(fut)

    def _next_hang_in(self, now: float) -> float | None:
        """Seconds until the next busy worker counts as hung (None: none will, or no room)."""
        pending = [since for since in self._busy.values() if now - since < self.hung_after]
        if not pending or len(self._workers) >= self.most:
            return None
        return min(pending) + self.hung_after - now + 0.001

    def _give_back(self, worker: JsvWorker, generation: int) -> None:
        self._busy.pop(worker, None)
        if generation != self._generation or worker not in self._workers:
            self._close_later(worker)
            return
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(worker)
                return
        if len(self._workers) > self.size:  # an extra one, come free: the pool shrinks back
            self._workers.remove(worker)
            self._close_later(worker)
            return
        self._idle.append(worker)

    def _log_slow(self, ctx: JsvContext, verdict: Verdict, elapsed_ms: float) -> None:
        if elapsed_ms > self.threshold_ms or self.threshold_ms == 0:
            self._log.info(
                "jsv_slow",
                job_id=ctx.job_id,
                user=ctx.user,
                elapsed_ms=round(elapsed_ms, 3),
                threshold_ms=self.threshold_ms,
                state=verdict.state.value,
            )

    async def reconfigure(
        self, url: str | None, timeout: float | None = None, threshold_ms: int | None = None
    ) -> None:
        """Apply new ``jsv_url``/``jsv_timeout``/``jsv_threshold``; restart on a URL change."""
        if timeout is not None:
            self.timeout = timeout
            for w in self._workers:
                w.timeout = timeout
        if threshold_ms is not None:
            self.threshold_ms = threshold_ms
        if url == self._url_text:
            return
        new_url = _parse(url)
        self._log.info(
            "jsv_restarted", reason=msg_setting_changed(url or "none"), old=self._url_text
        )
        old_idle = self._idle
        self._url_text, self._url = url, new_url
        self._new_generation()
        for worker in old_idle:
            self._close_later(worker)
        await asyncio.gather(*(self._start_one(w) for w in self._workers))

    def _close_later(self, worker: JsvWorker) -> None:
        task = asyncio.create_task(worker.close(), name=f"{worker.name}-close")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        """Stop every script (QUIT, then TERM, then KILL) and wait for them."""
        workers, self._workers = self._workers, []
        self._url = None
        await asyncio.gather(*(w.close() for w in workers), *self._closing)


def _parse(url: str | None) -> JsvUrl | None:
    if url is None or url.strip() in NO_JSV:
        return None
    try:
        return parse_jsv_url(url)
    except JsvUrlError as exc:  # the configuration check refuses it; an old spool may not have
        structlog.get_logger("qmaster.jsv").error("jsv_url_invalid", url=url, error=str(exc))
        return None
