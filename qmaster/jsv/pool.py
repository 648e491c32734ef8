"""The server JSV pool: a few :class:`~qmaster.jsv.worker.JsvWorker` processes.

``verify`` takes an idle worker from a queue and gives it back afterwards, so a
hung script holds only its own worker: other verifications go to the others,
and the event loop never waits on a pipe. ``reconfigure`` with a new URL starts
a new generation of workers; old ones finish their job and are then stopped.

Log events (structlog): ``jsv_started``, ``jsv_restarted`` (with ``reason``),
``jsv_timeout``, ``jsv_slow`` (a verification over ``jsv_threshold``; a
threshold of 0 logs every job), ``jsv_log`` (a LOG line from the script),
``jsv_stopped``.
"""

from __future__ import annotations

import asyncio
import time
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
    ) -> None:
        self.size = max(1, size)
        self.timeout = timeout
        self.threshold_ms = threshold_ms
        self.limits = limits or Limits()
        self.quit_timeout = quit_timeout
        self._log = logger or structlog.get_logger("qmaster.jsv")
        self._url_text = url
        self._url = _parse(url)
        self._generation = 0
        self._workers: list[JsvWorker] = []
        self._idle: asyncio.Queue[JsvWorker] = asyncio.Queue()
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

    async def _start_one(self, worker: JsvWorker) -> None:
        try:
            await worker.start()
        except Exception as exc:
            self._log.error("jsv_start_failed", path=worker.url.path, error=str(exc))

    def _new_generation(self) -> None:
        self._generation += 1
        self._workers = []
        self._idle = asyncio.Queue()
        if self._url is None:
            return
        for i in range(self.size):
            worker = JsvWorker(
                self._url,
                timeout=self.timeout,
                limits=self.limits,
                quit_timeout=self.quit_timeout,
                name=f"jsv-{self._generation}.{i}",
                logger=self._log,
            )
            self._workers.append(worker)
            self._idle.put_nowait(worker)

    async def verify(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None = None
    ) -> Verdict:
        """Verify one job with an idle worker; ACCEPT at once when no JSV is configured."""
        if self._url is None:
            return Verdict(ResultState.ACCEPT, dict(spec), dict(spec.get("v") or {}))
        generation, idle = self._generation, self._idle
        worker = await idle.get()
        started = time.monotonic()
        try:
            verdict = await worker.verify(spec, ctx, env)
        finally:
            self._give_back(worker, generation, idle)
        self._log_slow(ctx, verdict, (time.monotonic() - started) * 1000.0)
        return verdict

    def _give_back(
        self, worker: JsvWorker, generation: int, idle: asyncio.Queue[JsvWorker]
    ) -> None:
        if generation == self._generation:
            idle.put_nowait(worker)
        else:
            self._close_later(worker)

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
        while not old_idle.empty():
            self._close_later(old_idle.get_nowait())
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
