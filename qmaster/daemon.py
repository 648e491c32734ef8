"""The qmaster daemon: the asyncio shell around the core (the composition root).

It owns the cell lock, the spool, the GDI socket, the event files and the
clock. Requests and timer ticks go through the core; each outcome's spool
rows are committed (several outcomes per transaction when they arrive
together) before the answers are sent; report records are then buffered for
the event files and published to ``qevent`` subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable

from pydantic import ValidationError

from qmaster import gcpolicy, logs
from qmaster.cell import Cell
from qmaster.clock import Clock, RealClock
from qmaster.complexes.values import parse_time
from qmaster.conf.settings import DaemonSettings
from qmaster.core import Core, CoreSettings, Identity, Outcome, Request
from qmaster.core.qstat_rows import ChunkedListing
from qmaster.events.clients import EVENT_CLIENT_OPS, event_client_request
from qmaster.events.subscribers import Subscribers
from qmaster.events.writer import EventFiles
from qmaster.gdi.answers import Status
from qmaster.gdi.messages import (
    ARGS,
    AlterArgs,
    Envelope,
    JsvVerdictArgs,
    SubmitArgs,
    SubscribeArgs,
)
from qmaster.gdi.server import GdiServer, Reply, Stream, error_reply
from qmaster.jsv.gate import JsvGate, job_of, refused_text
from qmaster.jsv.protocol import ResultState
from qmaster.jsv_requests import alter_verified, submit_verified
from qmaster.listing_stream import listing_stream
from qmaster.recovery import RecoveryFailed, recover_core
from qmaster.spool.committer import CommitFailed, Committer
from qmaster.spool.database import Spool, SpoolError
from qmaster.spool.lock import CellLock, LockHeld
from qmaster.ticker import SteadyClock, TickFailures

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
    ) -> None:
        self.cell = cell
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
        self._verifying: set[int] = set()
        self._flush_soon = False
        self._ticker_wakes_at = 0.0
        self._background: set[asyncio.Task[None]] = set()
        self._tasks: asyncio.TaskGroup  # owns every task of the running daemon
        self.jsv = JsvGate(settings.jsv_pool_size)
        self.lock = CellLock(cell.lock)
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
        self.core = self._recover()
        gcpolicy.install()
        self.committer = Committer(self.spool, self._reload, inline=self.settings.sync == "normal")
        self.events = EventFiles(self.cell.common, flush_interval=1.0)
        self._configure_events()

    def _configure_events(self) -> None:
        """Honour ``reporting_params``: which files, and how often they are flushed."""
        params = self.core.config.global_conf.reporting_params
        try:
            interval = parse_time(params.get("flush_time", "00:00:15"))
        except ValueError:
            interval = 15.0
        self.events.configure(
            flush_interval=interval,
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
        )

    def _recover(self) -> Core:
        try:
            return recover_core(
                self.spool,
                self._core_settings(),
                self.clock,
                ignore_errors=self.ignore_state_errors,
            )
        except RecoveryFailed as exc:
            raise StartupError(str(exc)) from exc

    def _reload(self) -> None:
        """After a failed commit, memory goes back to what the spool holds."""
        self.core = self._recover()

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
        self.server = GdiServer(
            self.socket_path,
            self.dispatch,
            host=self.host,
            max_frame=self.settings.max_frame_bytes,
            max_connections=self.settings.max_connections,
            request_timeout=self.settings.request_timeout,
        )
        try:
            await self.jsv.configure(self.core.config.global_conf)
            await self.server.start()
            self._write_common_files()
            log.info("qmaster_started", socket=str(self.socket_path), pid=os.getpid())
            if ready:
                ready()
            async with asyncio.TaskGroup() as tg:
                self._tasks = tg
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
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return error_reply(f"malformed request: {where}: {err['msg']}")
        if isinstance(args, SubscribeArgs):
            return self.subscribers.subscribe(args.kinds, who.host or "-")
        if env.op in EVENT_CLIENT_OPS:
            return event_client_request(env.op, args, who, self.subscribers, self.host, self.core)
        if self.jsv.active and isinstance(args, SubmitArgs):
            return await self._submit_verified(who, args)
        if self.jsv.active and isinstance(args, AlterArgs):
            return await self._alter_verified(who, args)
        reply = await self.run_request(Request(who, env.op, args))
        if isinstance(reply.data, ChunkedListing):
            return listing_stream(reply.answers, reply.data)
        return reply

    async def run_request(self, request: Request) -> Reply:
        """Hand a validated request to the core, commit its outcome, answer."""
        try:
            out = self.core.handle(request, self.steady.now())
        except Exception:
            log.exception("core_request_failed", op=request.op, user=request.identity.user)
            await self._recover_from_bug()
            return error_reply(
                "internal error in qmaster; see its messages file", Status.EUNKNOWN, close=False
            )
        try:
            await self.apply(out)
        except CommitFailed as exc:
            return error_reply(
                f"request was rejected because it couldn't be written: {exc}",
                Status.EDISK,
                close=False,
            )
        return Reply(out.answers, out.data)

    # -- the server JSV ----------------------------------------------------------

    async def _submit_verified(self, who: Identity, args: SubmitArgs) -> Reply:
        return await submit_verified(self.core, self.jsv, self.run_request, who, args)

    async def _alter_verified(self, who: Identity, args: AlterArgs) -> Reply:
        return await alter_verified(self.core, self.jsv, self.run_request, who, args)

    def _reverify_due(self) -> None:
        for job in self.core.due_verifications(self.steady.now()):
            if job.job_id not in self._verifying:
                self._verifying.add(job.job_id)
                task = self._tasks.create_task(
                    self._reverify(job.job_id), name=f"reverify-{job.job_id}"
                )
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    async def _reverify(self, job_id: int) -> None:
        try:
            job = self.core.jobs.get(job_id)
            if job is None:
                return
            verdict = await self.jsv.verify(job.owner, dict(job.spec), job_id)
            spec = job_of(verdict) if verdict.state is ResultState.CORRECT else None
            args = JsvVerdictArgs(
                job_id=job_id, state=verdict.state.value, job=spec, message=refused_text(verdict)
            )
            await self.run_request(Request(job.owner, "jsv_verdict", args))
        except Exception:
            log.exception("jsv_reverify_failed", job_id=job_id)
        finally:
            self._verifying.discard(job_id)
            self._wake.set()

    async def apply(self, out: Outcome) -> None:
        """Execute an outcome's effects: commit first, then reports, logs and events."""
        if out.spool:
            await self.committer.commit(out.spool)
        for record in out.reports:
            self.events.add(record)
            self.subscribers.publish(record)
        self.subscribers.publish_events(out.events)
        for event, fields in out.logs:
            log.info(event, **fields)
        if out.config_changed:
            self._configure_events()
            await self.jsv.configure(self.core.config.global_conf)
        if out.reports and self.events.flush_interval <= 0 and not self._flush_soon:
            self._flush_soon = True  # once per loop iteration, for all outcomes in it
            asyncio.get_running_loop().call_soon(self._flush_events)
        if out.shutdown:
            self.stop()
        self._nudge_ticker()

    def _nudge_ticker(self) -> None:
        """Wake the ticker only when the core now wants it earlier than it planned to wake."""
        deadline = self.core.next_deadline(self._verifying)
        if deadline is not None and deadline < self._ticker_wakes_at:
            self._wake.set()

    # -- time ------------------------------------------------------------------

    async def _ticker(self) -> None:
        while True:
            if self.jsv.active:
                self._reverify_due()
            deadline = self.core.next_deadline(self._verifying)
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
        self.events.flush()

    async def _flusher(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.events.due(self.clock.monotonic()):
                self.events.flush()

    # -- subscriptions -----------------------------------------------------------
