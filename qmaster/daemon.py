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
import fcntl
import os
import socket
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from qmaster import logs
from qmaster.cell import Cell
from qmaster.clock import Clock, RealClock
from qmaster.conf.settings import DaemonSettings
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome, Request, SpoolDelta
from qmaster.events.records import record_to_event
from qmaster.events.writer import EventFiles
from qmaster.gdi.answers import Status
from qmaster.gdi.messages import ARGS, Envelope, SubscribeArgs
from qmaster.gdi.server import GdiServer, Reply, Stream, error_reply
from qmaster.spool.database import Spool, SpoolError

log = logs.get("qmaster")


class StartupError(Exception):
    """The daemon cannot start; the message says why."""


class CommitFailed(Exception):
    """A batch could not be written to the spool."""


class CellLock:
    """One daemon per cell: an exclusive ``flock`` on ``spool/qmaster/lock``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise StartupError(
                f'a qmaster is already running on this cell (pid {holder}, lock "{self.path}")'
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class Committer:
    """Group commit: outcomes that arrive while a transaction runs share the next one."""

    def __init__(self, spool: Spool, on_failure: Callable[[], None]) -> None:
        self.spool = spool
        self.on_failure = on_failure
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="spool")
        self._pending = SpoolDelta()
        self._future: asyncio.Future[None] | None = None
        self._kick = asyncio.Event()

    async def commit(self, delta: SpoolDelta) -> None:
        """Return once ``delta`` is in the database; raise :class:`CommitFailed` if it never will be."""
        self._pending.merge(delta)
        if self._future is None:
            self._future = asyncio.get_running_loop().create_future()
        fut = self._future
        self._kick.set()
        await asyncio.shield(fut)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._kick.wait()
            self._kick.clear()
            delta, fut = self._pending, self._future
            self._pending, self._future = SpoolDelta(), None
            if fut is None:
                continue
            try:
                await loop.run_in_executor(self._executor, self.spool.commit, delta)
            except SpoolError as exc:
                log.error("spool_commit_failed", reason=str(exc))
                failed = [fut]
                if self._future is not None:  # later outcomes were built on the lost state
                    failed.append(self._future)
                    self._pending, self._future = SpoolDelta(), None
                for f in failed:
                    f.set_exception(CommitFailed(str(exc)))
                self.on_failure()
                continue
            fut.set_result(None)

    async def drain(self) -> None:
        while self._future is not None:
            await asyncio.shield(self._future)

    def close(self) -> None:
        self._executor.shutdown(wait=True)


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
        self.ignore_state_errors = ignore_state_errors
        self.host = socket.gethostname().split(".")[0]
        self.socket_path = settings.socket or cell.socket
        self.stopping = asyncio.Event()
        self._wake = asyncio.Event()
        self._subscribers: set[asyncio.Queue[dict[str, Any] | None]] = set()
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
        self.lock.acquire()
        try:
            self.spool = Spool(spool_dir / "spool.db", sync=self.settings.sync)
        except SpoolError as exc:
            raise StartupError(str(exc)) from exc
        self.core = self._recover()
        self.committer = Committer(self.spool, self._reload)
        self.events = EventFiles(self.cell.common, flush_interval=1.0)

    def _core_settings(self) -> CoreSettings:
        import pwd

        me = pwd.getpwuid(os.getuid()).pw_name
        return CoreSettings(
            default_runtime=self.settings.default_runtime,
            admins=frozenset({"root", me}),
            qmaster_host=self.host,
        )

    def _recover(self) -> Core:
        started = self.clock.monotonic()
        try:
            snap = self.spool.load(ignore_errors=self.ignore_state_errors)
            config = ClusterConfig.from_rows(snap.config)
        except (SpoolError, ValueError) as exc:
            raise StartupError(f"cannot recover the spooled state: {exc}") from exc
        core = Core.recover(
            config,
            self._core_settings(),
            snap.jobs,
            snap.tasks,
            snap.counters,
            self.clock.now(),
            directory_exists=os.path.isdir,
        )
        log.info(
            "state_recovered",
            jobs=len(core.jobs),
            seconds=round(self.clock.monotonic() - started, 3),
        )
        return core

    def _reload(self) -> None:
        """After a failed commit, memory goes back to what the spool holds."""
        self.core = self._recover()

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
            await self.server.start()
            self._write_common_files()
            log.info("qmaster_started", socket=str(self.socket_path), pid=os.getpid())
            if ready:
                ready()
            async with asyncio.TaskGroup() as tg:
                background = [
                    tg.create_task(self.committer.run(), name="committer"),
                    tg.create_task(self._ticker(), name="ticker"),
                    tg.create_task(self._flusher(), name="event-flusher"),
                ]
                await self.stopping.wait()
                await self._shutdown()
                for task in background:
                    task.cancel()
        finally:
            self._close()

    async def _shutdown(self) -> None:
        log.info("qmaster_stopping")
        await self.server.close(grace=5.0)
        await self.committer.drain()
        for q in list(self._subscribers):
            q.put_nowait(None)

    def _close(self) -> None:
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
            return Stream(self._subscription(args))
        try:
            out = self.core.handle(Request(who, env.op, args), self.clock.now())
        except Exception:
            log.exception("core_request_failed", op=env.op, user=who.user)
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

    async def apply(self, out: Outcome) -> None:
        """Execute an outcome's effects: commit first, then reports, logs and events."""
        if out.spool:
            await self.committer.commit(out.spool)
        for record in out.reports:
            self.events.add(record)
            if self._subscribers:
                self._publish(record_to_event(record))
        for event, fields in out.logs:
            log.info(event, **fields)
        if out.shutdown:
            self.stop()
        self._wake.set()

    # -- time ------------------------------------------------------------------

    async def _ticker(self) -> None:
        while True:
            deadline = self.core.next_deadline()
            now = self.clock.now()
            if deadline is None or deadline > now:
                wait = 1.0 if deadline is None else min(deadline - now, 1.0)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
                continue
            try:
                out = self.core.tick(self.clock.now())
                await self.apply(out)
            except CommitFailed:
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("core_tick_failed")
                await asyncio.sleep(1.0)

    async def _flusher(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            if self.events.due(self.clock.monotonic()):
                self.events.flush()

    # -- subscriptions -----------------------------------------------------------

    def _publish(self, event: dict[str, Any]) -> None:
        for q in list(self._subscribers):
            try:
                q.put_nowait(event)
            except asyncio.QueueFull:
                self._subscribers.discard(q)
                q.get_nowait()
                q.put_nowait(None)  # ends that subscription
                log.warning("subscriber_dropped", reason="too slow")

    async def _subscription(self, args: SubscribeArgs) -> AsyncIterator[Reply]:
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=10_000)
        self._subscribers.add(q)
        kinds = set(args.kinds) if args.kinds else None
        try:
            yield Reply([], {"type": "subscribed"})
            while (event := await q.get()) is not None:
                if kinds is None or event.get("type") in kinds:
                    yield Reply([], event)
        finally:
            self._subscribers.discard(q)
