"""A qmaster daemon running in this process on a temporary cell, and raw-socket helpers.

The daemon runs on its own event loop in a background thread, so tests (and
hypothesis) can talk to it with plain blocking sockets, exactly as the client
commands do, while its objects (spool, core) stay reachable for inspection.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from qmaster.cell import Cell
from qmaster.cell_init import init_cell
from qmaster.clock import Clock
from qmaster.conf.settings import DaemonSettings
from qmaster.core.spool_image import SpoolImage
from qmaster.daemon import Daemon
from qmaster.gdi import client, unixpath
from qmaster.gdi.frames import HEADER, NEED_DATA, FrameDecoder
from qmaster.spool.database import Spool


@dataclass
class LiveDaemon:
    """A daemon served from a background thread; ``call`` speaks GDI to it."""

    cell: Cell
    daemon: Daemon
    thread: threading.Thread
    loop: asyncio.AbstractEventLoop | None = None
    error: list[BaseException] = field(default_factory=list)

    @property
    def socket_path(self) -> Path:
        return self.daemon.socket_path

    def call(self, op: str, args: dict[str, Any] | None = None) -> client.Reply:
        """One request over the real socket, as a client command sends it."""
        return client.call(op, args, path=self.socket_path)

    def alive(self) -> bool:
        """The daemon still answers a ping."""
        return self.thread.is_alive() and self.call("ping").ok

    def connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        unixpath.connect(sock, self.socket_path)
        return sock

    def validate_state(self) -> None:
        """In the daemon's loop: let the writes land, read the spool back and check the
        core's state against it (``Core.validate_state``)."""

        async def check() -> None:
            await self.daemon.committer.drain()
            spool = Spool(self.daemon.spool.path)
            try:
                snap = spool.load()
            finally:
                spool.close()
            image = SpoolImage.of_rows(
                snap.config, snap.jobs, snap.tasks, snap.counters, snap.ars, snap.story
            )
            self.daemon.core.validate_state(image)

        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(check(), self.loop).result(timeout=20)

    def stop(self, timeout: float = 15.0) -> None:
        if self.loop is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.daemon.stop)
        self.thread.join(timeout)


def start_daemon(
    root: Path,
    settings: DaemonSettings | None = None,
    clock: Clock | None = None,
    *,
    run: Callable[[Coroutine[Any, Any, None]], None] = asyncio.run,
    gc_policy: bool = False,
    conf: Path | None = None,
) -> LiveDaemon:
    """Create a cell under ``root`` and serve it from a thread; return once it is ready
    (``run``: the event loop's runner, e.g. ``uvloop.run`` as ``qmaster start`` uses;
    ``gc_policy``: freeze as a daemon process does, which freezes the test's objects too;
    ``conf``: the configuration to create it from, else the project's)."""
    cell = Cell(root, "default")
    init_cell(cell, conf)
    daemon = Daemon(cell, settings or DaemonSettings(), clock=clock, gc_policy=gc_policy)
    ready = threading.Event()
    live = LiveDaemon(cell, daemon, threading.Thread(target=lambda: None))

    def serve() -> None:
        async def main() -> None:
            live.loop = asyncio.get_running_loop()
            await daemon.run(ready=ready.set)

        try:
            run(main())
        except BaseException as exc:  # reported by the fixture
            live.error.append(exc)
            ready.set()

    live.thread = threading.Thread(target=serve, name="qmaster", daemon=True)
    live.thread.start()
    if not ready.wait(20) or live.error:
        raise RuntimeError(f"daemon did not start: {live.error}")
    return live


def exchange(sock: socket.socket, raw: bytes, *, shut: bool = False) -> list[dict[str, Any]]:
    """Send raw bytes, then read reply frames until the daemon closes the connection."""
    import json

    if raw:
        sock.sendall(raw)
    if shut:
        sock.shutdown(socket.SHUT_WR)
    decoder = FrameDecoder(max_frame=1 << 30)
    replies: list[dict[str, Any]] = []
    while True:
        body = decoder.next_frame()
        if body is None:
            return replies
        if body is NEED_DATA:
            try:
                chunk = sock.recv(1 << 16)
            except ConnectionResetError:
                chunk = b""
            decoder.receive_data(chunk)
            continue
        assert isinstance(body, bytes)
        replies.append(json.loads(body))


def frame(body: bytes) -> bytes:
    """A frame with an honest length header."""
    return HEADER.pack(len(body)) + body


def wait_for(
    probe: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05, what: str = ""
) -> Any:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or probe}")
        time.sleep(interval)


def job(*args: str, **spec: Any) -> dict[str, Any]:
    """A submit request for a binary job ``sleep ARGS`` with extra JobSpec keys."""
    return {"job": {"CMDNAME": "sleep", "CMDARGS": list(args), "b": True, **spec}}
