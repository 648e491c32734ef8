"""One server JSV process on pipes, driven by the sans-I/O codec (asyncio).

A :class:`JsvWorker` owns one script process in its own session (so a kill
reaches the whole process group) and verifies one job at a time. The process
is replaced before a verification when it has exited, when the script's mtime
changed, or after anything that leaves it in doubt: ``ERROR``, a protocol
violation, a breached cap, stderr output. A verification that times out kills
the process, starts a new one and tries the job once more; a second timeout
rejects with Grid Engine's ``got no response from JSV script "<path>"``. A
process that vanishes mid-job gets the same single retry.

stderr goes to a pipe the worker drains with ``loop.add_reader``; it is
drained once more after each ``RESULT`` (the script wrote it before its
result, so it is already in the pipe), which makes "stderr rejects the job"
deterministic.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import pwd
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import structlog

from qmaster.jsv.errors import (
    JsvClosed,
    JsvError,
    JsvProtocolError,
    JsvStartError,
    JsvValueError,
    last_said,
    msg_mtime_changed,
    msg_no_response,
    msg_stderr,
)
from qmaster.jsv.protocol import (
    NEED_DATA,
    Finished,
    JsvContext,
    Limits,
    Logged,
    Started,
    SubmitterConnection,
    Verdict,
)
from qmaster.jsv.runas import as_user_argv
from qmaster.jsv.url import JsvUrl, check_script

_STDERR_KEEP = 4096
_READ_CHUNK = 64 * 1024


_LOG_METHOD = {"INFO": "debug", "WARNING": "warning", "ERROR": "error"}


@dataclass(slots=True)
class WorkerStats:
    """Where a worker's time went: in the codec, or waiting on the pipes."""

    jobs: int = 0
    codec_s: float = 0.0
    wait_s: float = 0.0
    restarts: int = 0


class JsvWorker:
    """One JSV script process and the codec talking to it."""

    def __init__(
        self,
        url: JsvUrl,
        *,
        timeout: float = 10.0,
        limits: Limits | None = None,
        quit_timeout: float = 5.0,
        name: str = "jsv-0",
        logger: Any = None,
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.limits = limits or Limits()
        self.quit_timeout = quit_timeout
        self.name = name
        self.stats = WorkerStats()
        self._log = logger or structlog.get_logger("qmaster.jsv")
        self._proc: asyncio.subprocess.Process | None = None
        self._conn = SubmitterConnection(self.limits)
        self._mtime = 0.0
        self._stderr_fd: int | None = None
        self._stderr = bytearray()
        self._stderr_reading = False
        self._spawning: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        """The script's process id while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.returncode is None else None

    async def start(self) -> None:
        """Start the script now (instead of at the first verification)."""
        await self._ensure()

    def start_soon(self) -> None:
        """Start the script in the background; a verification meanwhile waits for it."""
        if self._proc is None and self._spawning is None:
            self._spawning = self._spawn_task()

    def _spawn_task(self) -> asyncio.Task[None]:
        task = asyncio.create_task(self._spawn(), name=f"{self.name}-spawn")
        task.add_done_callback(self._spawned)
        return task

    def _spawned(self, task: asyncio.Task[None]) -> None:
        """Log a start that failed (the next verification gets its message)."""
        if not task.cancelled() and task.exception() is not None:
            self._log.error("jsv_start_failed", path=self.url.path, error=str(task.exception()))

    async def verify(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None = None
    ) -> Verdict:
        """Verify one job; never raises for anything the script does."""
        for attempt in (1, 2):
            try:
                await self._ensure()
                return await self._verify_once(spec, ctx, env)
            except TimeoutError:
                self._log.warning("jsv_timeout", path=self.url.path, attempt=attempt)
                await self._restart("timeout")
            except JsvClosed as exc:
                said = self._stderr_said()
                if said is not None:  # it died saying why: that is the answer
                    await self._restart(said)
                    return Verdict.reject(spec, said, restart=said)
                await self._restart(str(exc))
                if attempt == 2:
                    return Verdict.reject(spec, f'JSV "{self.url.path}" exited during verification')
            except JsvStartError as exc:
                self._log.error("jsv_start_failed", path=self.url.path, error=str(exc))
                return Verdict.reject(spec, str(exc))
            except JsvValueError as exc:
                return Verdict.reject(spec, str(exc))
            except JsvProtocolError as exc:
                await self._restart(str(exc))
                return Verdict.reject(spec, str(exc), restart=str(exc))
        return Verdict.reject(spec, msg_no_response(self.url.path))

    async def _verify_once(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None
    ) -> Verdict:
        async with asyncio.timeout(self.timeout):
            verdict = await self._exchange(spec, ctx, env)
        self.stats.jobs += 1
        text = self._stderr_said()
        if text is not None:
            await self._restart(text)
            return Verdict.reject(spec, text, restart=text)
        if verdict.restart:
            await self._restart(verdict.restart)
        return verdict

    async def _exchange(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None
    ) -> Verdict:
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise JsvClosed("JSV is not running")
        conn, stats, clock = self._conn, self.stats, time.perf_counter
        t0 = clock()
        await self._write(proc.stdin, conn.start(spec, ctx, env))
        while True:
            t1 = clock()
            event = conn.next_event()
            stats.codec_s += clock() - t1
            if event is NEED_DATA:
                data = await proc.stdout.read(_READ_CHUNK)
                t2 = clock()
                conn.receive_data(data)
                stats.codec_s += clock() - t2
            elif isinstance(event, Started):
                await self._write(proc.stdin, event.reply)
            elif isinstance(event, Logged):
                # Grid Engine's default loglevel (log_warning) keeps a JSV's INFO lines out
                # of the messages file; here they are debug events
                emit = getattr(self._log, _LOG_METHOD.get(event.line.level, "info"))
                emit("jsv_log", level=event.line.level, message=event.line.message)
            elif isinstance(event, Finished):
                stats.wait_s += clock() - t0
                return event.verdict

    @staticmethod
    async def _write(stdin: asyncio.StreamWriter, data: bytes) -> None:
        try:
            stdin.write(data)
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise JsvClosed("JSV closed its input") from None

    async def _ensure(self) -> None:
        if self._spawning is not None:
            task, self._spawning = self._spawning, None
            await task
        if self._proc is None:
            await self._spawn()
            return
        reason = None
        if self._proc.returncode is not None:
            reason = f"JSV exited with status {self._proc.returncode}"
        if reason is None and self._script_changed():
            reason = msg_mtime_changed(self.url.path)
        if reason is None and self._stderr:
            reason = msg_stderr(self._stderr.decode("utf-8", "backslashreplace")[:200])
        if reason is not None:
            await self._restart(reason)
            await self._ensure()

    def _script_changed(self) -> bool:
        try:
            return os.stat(self.url.path).st_mtime != self._mtime
        except OSError:
            return True

    async def _restart(self, reason: str) -> None:
        """Kill the process now and start the next one in the background."""
        self._log.info("jsv_restarted", path=self.url.path, reason=reason, old_pid=self.pid)
        self.stats.restarts += 1
        await self._kill()
        if self._spawning is None:
            self._spawning = self._spawn_task()

    async def _spawn(self) -> None:
        self._mtime = check_script(self.url.path)
        read_fd, write_fd = os.pipe()
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *_command(self.url),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=write_fd,
                start_new_session=True,
                limit=self.limits.max_line,
            )
        except OSError as exc:
            os.close(read_fd)
            raise JsvStartError(f'JSV file "{self.url.path}" can\'t be started: {exc}') from None
        finally:
            os.close(write_fd)
        os.set_blocking(read_fd, False)
        self._stderr_fd = read_fd
        self._stderr.clear()
        asyncio.get_running_loop().add_reader(read_fd, self._drain_stderr)
        self._stderr_reading = True
        self._conn = SubmitterConnection(self.limits)
        self._log.info("jsv_started", path=self.url.path, pid=self._proc.pid, worker=self.name)

    def _stderr_said(self) -> str | None:
        """Grid Engine's rejection text for what the script wrote to stderr, if anything."""
        self._drain_stderr()
        line = last_said(self._stderr.decode("utf-8", "backslashreplace"))
        return None if line is None else msg_stderr(line)

    def _drain_stderr(self) -> None:
        """Keep up to 4 KiB of what the script wrote to stderr, then stop reading: a
        script that floods its stderr blocks on its own pipe instead of keeping the
        daemon busy (its next verification rejects the job and restarts it)."""
        fd = self._stderr_fd
        while fd is not None and len(self._stderr) < _STDERR_KEEP:
            try:
                data = os.read(fd, _STDERR_KEEP - len(self._stderr))
            except BlockingIOError:
                return
            if not data:
                self._close_stderr()
                return
            self._stderr += data
        if fd is not None and self._stderr_reading:
            asyncio.get_running_loop().remove_reader(fd)
            self._stderr_reading = False

    def _close_stderr(self) -> None:
        fd, self._stderr_fd = self._stderr_fd, None
        if fd is not None:
            if self._stderr_reading:
                asyncio.get_running_loop().remove_reader(fd)
            self._stderr_reading = False
            os.close(fd)

    async def _kill(self) -> None:
        proc, self._proc = self._proc, None
        self._close_stderr()
        if proc is None:
            return
        _killpg(proc.pid, signal.SIGKILL)
        if proc.stdin is not None:
            proc.stdin.close()
        # A reader paused by a flood (over its limit) never sees EOF, and the
        # process may then never be reported as done: bound the wait, and close
        # the transport ourselves so no pipe is left for the garbage collector.
        await _wait(proc, 5.0)
        transport = getattr(proc, "_transport", None)
        if transport is not None:
            transport.close()

    async def close(self) -> None:
        """QUIT, then SIGTERM, then SIGKILL after ``quit_timeout``: the whole group."""
        if self._spawning is not None:
            task, self._spawning = self._spawning, None
            with contextlib.suppress(JsvError):
                await task
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None and proc.stdin is not None:
            with contextlib.suppress(OSError, JsvError):
                await self._write(proc.stdin, b"QUIT\n")
            await _wait(proc, self.quit_timeout)
            if proc.returncode is None:
                _killpg(proc.pid, signal.SIGTERM)
                await _wait(proc, 0.5)
        await self._kill()
        self._log.info("jsv_stopped", path=self.url.path, pid=proc.pid, worker=self.name)


async def _wait(proc: asyncio.subprocess.Process, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await proc.wait()


def _killpg(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def _command(url: JsvUrl) -> list[str]:
    """The script's command line: through :mod:`qmaster.jsv.runas` when it names another user."""
    user = url.user
    if user is None or user == getpass.getuser():
        return [url.path]
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise JsvStartError(f'user "{user}" specified in JSV URL does not exist') from None
    if os.geteuid() != 0:
        raise JsvStartError(
            "process has not the necessary permission to start JSV as different user"
        )
    return as_user_argv(url.path, entry)
