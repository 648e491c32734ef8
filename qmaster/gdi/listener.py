"""The listening socket: every waiting connection accepted at once, not one an iteration.

uvloop's own server (libuv) accepts one connection per loop iteration. Under load an
iteration is long (it answers every busy client once), so a burst of 200 new
connections took 200 iterations to be let in, and a client that connected after
them waited seconds before the daemon even saw it (``python -m bench.soak --only
clients``: a ping of 3 s at the first burst). Here the socket is read with
``add_reader`` and drained up to :data:`ACCEPT_BURST` connections a time, each
handed to the loop's ``connect_accepted_socket``: a burst is let in within a few
iterations, whatever their length.

Running out of descriptors (``EMFILE``, ``ENFILE``) leaves the listening socket
readable: accepting pauses for :data:`FULL_PAUSE` seconds instead of spinning, and
the waiting clients stay in the backlog (the commands wait for a busy qmaster).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
from collections.abc import Callable
from pathlib import Path

import structlog

from qmaster.gdi import unixpath

log = structlog.get_logger("gdi")

ACCEPT_BURST = 128
"""Connections accepted per readiness callback (the rest at the next iteration)."""
FULL_PAUSE = 0.1
"""Seconds without accepting after the process or system ran out of descriptors."""
_OUT_OF_DESCRIPTORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


class Listener:
    """A Unix stream socket bound at ``path`` whose connections get ``protocol()``."""

    def __init__(self, path: Path, protocol: Callable[[], asyncio.Protocol], backlog: int) -> None:
        self.path = path
        self.protocol = protocol
        self.backlog = backlog
        self._sock: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._attaching: set[asyncio.Task[object]] = set()

    def open(self) -> None:
        """Bind (mode 0666: the kernel's peer credentials authenticate) and listen.

        The socket is bound under a temporary name and renamed into place once it
        listens: a client that finds the path never meets a socket that refuses it.
        """
        self._loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        staged = self.path.with_name(f".{os.getpid():x}")
        if len(staged.name) > len(self.path.name):  # a name that short: no room to stage
            staged = self.path
        old = os.umask(0o111)
        try:
            with contextlib.suppress(FileNotFoundError):
                if staged != self.path:
                    staged.unlink()
            unixpath.bind(sock, staged)
            sock.listen(self.backlog)
            if staged != self.path:
                os.rename(staged, self.path)
        except OSError:
            sock.close()
            with contextlib.suppress(OSError):
                if staged != self.path:
                    staged.unlink()
            raise
        finally:
            os.umask(old)
        sock.setblocking(False)
        self._sock = sock
        self._loop.add_reader(sock.fileno(), self._accept)

    def _accept(self) -> None:
        sock, loop = self._sock, self._loop
        assert sock is not None
        assert loop is not None
        for _ in range(ACCEPT_BURST):
            try:
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno not in _OUT_OF_DESCRIPTORS:
                    continue  # that one connection failed (aborted by its peer)
                log.warning("gdi_accept_paused", reason=os.strerror(exc.errno or 0))
                loop.remove_reader(sock.fileno())
                loop.call_later(FULL_PAUSE, self._resume)
                return
            conn.setblocking(False)  # whichever loop takes it: a send must never block it
            task = loop.create_task(self._attach(conn))
            self._attaching.add(task)
            task.add_done_callback(self._attaching.discard)

    async def _attach(self, conn: socket.socket) -> object:
        assert self._loop is not None
        try:
            return await self._loop.connect_accepted_socket(self.protocol, conn)
        except OSError:  # the peer went away meanwhile
            conn.close()
            return None

    def _resume(self) -> None:
        if self._sock is not None and self._loop is not None:
            self._loop.add_reader(self._sock.fileno(), self._accept)

    def close(self) -> bool:
        """Stop accepting; whether the socket was open (its file is the caller's to remove)."""
        sock, self._sock = self._sock, None
        if sock is None:
            return False
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(sock.fileno())
        sock.close()
        return True
