"""The qmaster daemon: the asyncio shell around the core (the composition root).

It owns the cell lock, the spool, the GDI socket, the event files, the server
JSV and the clock. Requests become stimuli at the boundary
(:mod:`qmaster.stimuli_wire`) and go through the core, as do timer ticks and
the JSV's verdicts; :meth:`Daemon.apply` executes each outcome's typed
effects: spool rows are committed first (several outcomes per transaction
when they arrive together), report records are buffered for the event files
and published to ``qevent`` subscribers, jobs are verified by the JSV pool, and
the reply goes last (a request handed to the JSV: when its verdict's does).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable, Coroutine
from typing import Any

from pydantic import ValidationError

from qmaster import gcpolicy, logs
from qmaster.cell import Cell
from qmaster.clock import Clock, RealClock
from qmaster.conf.settings import DaemonSettings
from qmaster.core import Core, CoreSettings, Identity, Outcome
from qmaster.core import effects as fx
from qmaster.core.qstat_rows import ChunkedListing
from qmaster.core.stimuli import Asked
from qmaster.events.clients import EVENT_CLIENT_OPS, event_client_request
from qmaster.events.subscribers import Subscribers
from qmaster.events.writer import EventFiles, flush_intervals
from qmaster.execd.executor import LocalExecutor
from qmaster.gdi.answers import Status
from qmaster.gdi.messages import ARGS, Envelope, SubscribeArgs
from qmaster.gdi.server import GdiServer, Reply, Stream, error_reply
from qmaster.jsv.gate import JsvGate
from qmaster.jsv_driver import JsvDriver
from qmaster.listing_stream import listing_stream
from qmaster.procage import process_age
from qmaster.recovery import RecoveryFailed, recover_core
from qmaster.spool.committer import CommitFailed, Committer
from qmaster.spool.database import Spool, SpoolError
from qmaster.spool.lock import CellLock, LockHeld
from qmaster.stimuli_wire import malformed, stimulus_of
from qmaster.ticker import SteadyClock, TickFailures, build_pending_index

log = logs.get("qmaster")


class StartupError(Exception):
    """The daemon cannot start; the message says why."""


class Daemon:
    """One running qmaster."""

    def __init__(
        self,
        cell: Cell,
        settings: DaemonSettings,
        *,
        clock: Clock | None = None,
        ignore_state_errors: bool = False,
        gc_policy: bool = True,
    ) -> None:
        self.cell = cell
        self.gc_policy = gc_policy  # off inside another program: it would freeze theirs too
        self.settings = settings
        self.clock = clock or RealClock()
        self.steady = SteadyClock(self.clock, lambda: self.core.now if hasattr(self, "core") else 0)
        self.tick_failures = TickFailures()
        self.ignore_state_errors = ignore_state_errors
        self.host = socket.gethostname().split(".")[0]
        self.socket_path = settings.socket or cell.socket
        self.stopping = asyncio.Event()
        self._wake = asyncio.Event()
        self.subscribers = Subscribers()
        self._flush_soon = False
        self._ticker_wakes_at = 0.0
        self._background: set[asyncio.Task[None]] = set()
        self._tasks: asyncio.TaskGroup  # owns every task of the running daemon
        self.jsv = JsvGate(settings.jsv_pool_size)
        self.verifier = JsvDriver(self.jsv, self._spawn, self.handle)
        self.lock = CellLock(cell.lock)
        # every cell has one: a host's load_values may make it local (qmaster.core.execmode)
        self.execd = LocalExecutor(cell, lambda: self.core, self.handle, self._spawn)
        self.core: Core
        self.spool: Spool
        self.committer: Committer
        self.events: EventFiles
        self.server: GdiServer

    # -- start and stop ------------------------------------------------------

    def _open(self) -> None:
        spool_dir = self.settings.spool or self.cell.spool
        if not (spool_dir / "spool.db").exists():
            raise StartupError(
                f'cell "{self.cell.path}" has no spool; create it with "qmaster init"'
            )
        try:
            self.lock.acquire()
        except LockHeld as exc:
            raise StartupError(str(exc)) from None
        try:
            self.spool = Spool(spool_dir / "spool.db", sync=self.settings.sync)
        except SpoolError as exc:
            raise StartupError(str(exc)) from exc
        self.server = GdiServer.limited(self.socket_path, self.dispatch, self.host, self.settings)
        try:  # listening first: a client connecting during the recovery waits in the backlog
            self.server.listen()  # and is answered once the state is whole, not refused
            self.core = self._recover()
        except BaseException:
            self.server.stop_listening()
            self.lock.release()
            raise
        if self.gc_policy:
            gcpolicy.install()
        self.committer = Committer(self.spool, self._reload, inline=self.settings.sync == "normal")
        self.events = EventFiles(self.cell.common, flush_interval=1.0)
        self._configure_events()

    def _configure_events(self) -> None:
        """Honour ``reporting_params``: which files, and how often they are flushed."""
        params = self.core.config.global_conf.reporting_params
        interval, accounting_interval = flush_intervals(params)
        self.events.configure(
            flush_interval=interval,
            accounting_interval=accounting_interval,
            reporting=params.get("reporting", "false").lower() == "true",
            accounting=params.get("accounting", "true").lower() != "false",
        )

    def _core_settings(self) -> CoreSettings:
        import pwd

        me = pwd.getpwuid(os.getuid()).pw_name
        return CoreSettings(
            default_runtime=self.settings.default_runtime,
            admins=frozenset({"root", me}),
            qmaster_host=self.host,
            local_execution=self.settings.execution == "local",
        )

    def _recover(self) -> Core:
        try:
            return recover_core(
                self.spool,
                self._core_settings(),
                self.clock,
                ignore_errors=self.ignore_state_errors,
                freeze=self.gc_policy,
            )
        except RecoveryFailed as exc:
            raise StartupError(str(exc)) from exc

    def _reload(self) -> None:
        """After a failed commit, memory goes back to what the spool holds. Requests
        waiting for the server JSV are forgotten with the core that kept them: their
        clients are told (nothing of theirs was acknowledged)."""
        self.core = self._recover()
        self.verifier.forget()

    async def _recover_from_bug(self) -> None:
        """A handler or timer raised: whatever it half-changed is thrown away.

        Outcomes not yet written are failed (their clients get an error, nothing
        acknowledged is lost), a transaction in flight is let finish, and the
        core is rebuilt from the spool, timers included.
        """
        self.committer.abandon("qmaster recovered from an internal error")
        await self.committer.drain()
        self._reload()

    async def run(self, ready: Callable[[], None] | None = None) -> None:
        """Serve until stopped (``qconf -km``, ``qmaster stop``, SIGTERM)."""
        self._open()
        try:
            await self.jsv.configure(self.core.config.global_conf)
            self._write_common_files()
            log.info(
                "qmaster_started", socket=str(self.socket_path), pid=os.getpid(), age=process_age()
            )
            if ready:
                ready()
            async with asyncio.TaskGroup() as tg:
                self._tasks = tg
                self.execd.adopt()  # the tasks that ran on while no qmaster was up
                background = [
                    tg.create_task(self.server.sweep(), name="gdi-idle-sweeper"),
                    tg.create_task(self.committer.run(), name="committer"),
                    tg.create_task(self._ticker(), name="ticker"),
                    tg.create_task(self._flusher(), name="event-flusher"),
                ]
                await self.stopping.wait()
                await self._shutdown()
                for task in [*background, *self._background]:
                    task.cancel()
        finally:
            self._close()

    async def _shutdown(self) -> None:
        log.info("qmaster_stopping")
        # event clients first: their streams end with qmaster_goes_down, so no
        # connection stays busy through the server's grace period
        self.subscribers.close()
        await self.server.close(grace=5.0)
        await self.committer.drain()
        await self.jsv.close()

    def _close(self) -> None:
        gcpolicy.uninstall()
        with contextlib.suppress(Exception):
            self.events.close()
        with contextlib.suppress(Exception):
            self.committer.close()
        with contextlib.suppress(Exception):
            self.spool.close()
        with contextlib.suppress(FileNotFoundError):
            self.cell.pidfile.unlink()
        self.lock.release()
        log.info("qmaster_stopped")

    def stop(self) -> None:
        self.stopping.set()

    def _write_common_files(self) -> None:
        self.cell.common.mkdir(parents=True, exist_ok=True)
        (self.cell.common / "act_qmaster").write_text(self.host + "\n")
        self.cell.pidfile.write_text(f"{os.getpid()}\n")

    # -- requests ------------------------------------------------------------

    async def dispatch(self, who: Identity, env: Envelope) -> Reply | Stream:
        """Validate one request, run it through the core, commit, answer."""
        model = ARGS.get(env.op)
        if model is None:
            return error_reply(f'unknown operation "{env.op}"', Status.ENOIMP, close=False)
        try:
            args = model.model_validate(env.args)
        except ValidationError as exc:
            return error_reply(malformed(exc))
        if isinstance(args, SubscribeArgs):
            return self.subscribers.subscribe(args.kinds, who.host or "-")
        if env.op in EVENT_CLIENT_OPS:
            return event_client_request(env.op, args, who, self.subscribers, self.host, self.core)
        reply = await self.handle(stimulus_of(who, env.op, args))
        if env.op == "job_detail" and isinstance(reply.data, dict) and reply.data.get("missing"):
            self.events.flush()  # a gone job's ending is read at once (qsub -sync), not later
        if isinstance(reply.data, ChunkedListing):
            return listing_stream(reply.answers, reply.data)
        return reply

    async def handle(self, stimulus: Asked) -> Reply:
        """Hand a stimulus to the core, execute its effects, answer (once the JSV has)."""
        try:
            out = self.core.handle(stimulus, self.steady.now())
        except Exception:
            log.exception(
                "core_request_failed", op=type(stimulus).__name__, user=stimulus.identity.user
            )
            await self._recover_from_bug()
            return error_reply(
                "internal error in qmaster; see its messages file", Status.EUNKNOWN, close=False
            )
        try:
            answer = await self.apply(out)
        except CommitFailed as exc:
            return _unwritten(exc)
        if isinstance(answer, asyncio.Future):
            return await answer
        return answer or Reply([])

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` in the daemon's task group (dropped once the group is closing)."""
        try:
            task = self._tasks.create_task(work, name=name)
        except RuntimeError:  # finished or shutting down: a local task's end seen now is
            work.close()  # found again on the next start (LocalExecutor.adopt)
        else:
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def apply(self, out: Outcome) -> Reply | asyncio.Future[Reply] | None:
        """Execute an outcome's effects in order: the spool first, the reply last.

        Returns the reply to the stimulus's caller, or the future of that reply
        when the server JSV verifies the request first.
        """
        caller: Reply | asyncio.Future[Reply] | None = None
        try:
            for effect in out.effects():
                found = await self._perform(effect)
                if found is not None:
                    caller = found
        except CommitFailed as exc:
            if out.request is not None:
                self.verifier.answer(out.request, _unwritten(exc))
            raise
        if out.reports and self.events.immediate and not self._flush_soon:
            self._flush_soon = True  # once per loop iteration, for all outcomes in it
            asyncio.get_running_loop().call_soon(self._flush_events)
        self._nudge_ticker()
        return caller

    async def _perform(self, effect: fx.Effect) -> Reply | asyncio.Future[Reply] | None:
        match effect:
            case fx.SpoolWrite(delta):
                await self.committer.commit(delta)
            case fx.ReportRecord(record):
                self.events.add(record)
                self.subscribers.publish(record)
            case fx.Event(event):
                self.subscribers.publish_events([event])
            case fx.LogLine(name, fields):
                log.info(name, **fields)
            case fx.VerifyJob():
                return self.verifier.verify(effect)
            case fx.StartTask() | fx.KillTask() | fx.SignalTask():
                self.execd.perform(effect)  # a simulated host's part the core plays itself
            case fx.RunLog(at, lines):
                self.events.runlog(at, lines)
            case fx.ConfigChanged():
                self._configure_events()
                await self.jsv.configure(self.core.config.global_conf)
            case fx.StopQmaster():
                self.stop()
            case fx.Reply(answers, data, None):
                return Reply(answers, data)
            case fx.Reply(answers, data, request) if request is not None:
                self.verifier.answer(request, Reply(answers, data))
        return None

    def _nudge_ticker(self) -> None:
        """Wake the ticker only when the core now wants it earlier than it planned to wake."""
        deadline = self.core.next_deadline()
        if deadline is not None and deadline < self._ticker_wakes_at:
            self._wake.set()

    # -- time ------------------------------------------------------------------

    async def _ticker(self) -> None:
        while True:
            deadline = self.core.next_deadline()
            now = self.steady.now()
            if deadline is None or deadline > now:
                wait = 1.0 if deadline is None else min(deadline - now, 1.0)
                self._ticker_wakes_at = now + wait
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
                continue
            try:
                await build_pending_index(lambda: self.core)  # requests get in between slices
                out = self.core.tick(self.steady.now())
                await self.apply(out)
                # a tick that wrote nothing awaited nothing: let requests in before the next
                # one, or passes longer than schedule_interval would starve the loop
                await asyncio.sleep(0)
            except CommitFailed:
                await asyncio.sleep(1.0)
            except Exception as exc:
                await self._tick_failed(exc)

    async def _tick_failed(self, exc: Exception) -> None:
        """Throw the failed tick away; the second failure on a job or task puts it into
        error state (see :mod:`qmaster.ticker`), else try again a second later."""
        working_on = self.core.working_on
        log.exception("core_tick_failed", working_on=working_on)
        await self._recover_from_bug()
        blamed = self.tick_failures.failed(working_on)
        if blamed is None:
            await asyncio.sleep(1.0)
            return
        with contextlib.suppress(CommitFailed):
            out = self.tick_failures.quarantine(self.core, blamed, exc, self.steady.now())
            await self.apply(out)

    def _flush_events(self) -> None:
        self._flush_soon = False
        self.events.flush_due(self.clock.monotonic())

    async def _flusher(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            self.events.flush_due(self.clock.monotonic())


def _unwritten(exc: CommitFailed) -> Reply:
    return error_reply(
        f"request was rejected because it couldn't be written: {exc}", Status.EDISK, close=False
    )
