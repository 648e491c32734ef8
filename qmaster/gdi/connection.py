"""One GDI connection as an asyncio Protocol: bytes in, requests handled one at a time.

Theory of operation. ``data_received`` feeds the sans-I/O
:class:`~qmaster.gdi.frames.FrameDecoder`; ``pump`` takes whole frames out
and hands each to the server's ``handle_frame`` as a task, one at a time per
connection, so replies go back in request order; while a subscription streams,
frames go to the stream's ``control`` instead (``on_frame``). A frame over the cap is
answered with an error and the connection closed before its body is read; a
frame cut short by EOF closes the connection. Frames over :data:`LARGE_FRAME` (a big job
script) are read by at most :data:`LARGE_FRAMES` connections at once, so the bytes the daemon
holds for unfinished frames stay bounded with a generous cap; another is refused, and its
client told, until one of them is whole. A half-closed peer (EOF after
its last request) still gets its answers. Writing is flow-controlled:
``drain`` waits while the transport asks us to pause.

Deadlines (enforced by the server's once-a-second sweep): a frame begun must be
whole within ``request_timeout`` (``frame_started``), however slowly its bytes
drip in; a connection with no request for ``idle_timeout`` is closed
(``last_active`` moves with whole frames and answers, not with single bytes);
a peer that stops reading its answer for ``request_timeout`` is cut off and its
unsent bytes dropped, and so is one that asks again while leaving more than
:data:`UNREAD_MAX` bytes of answers unread (its next request is not worked on
before it reads). A closing connection counts against ``max_connections``
until its descriptor is really gone.
"""

from __future__ import annotations

import asyncio
import fcntl
import struct
import termios
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import structlog

from qmaster.gdi.client import BUSY_LARGE, TOO_MANY
from qmaster.gdi.frames import NEED_DATA, FrameDecoder, FrameError, FrameTooLarge
from qmaster.model import Identity

if TYPE_CHECKING:
    from qmaster.gdi.server import GdiServer, Reply

log = structlog.get_logger("gdi")


LARGE_FRAME = 1 << 20
"""Frames longer than this count against :data:`LARGE_FRAMES` while they are read."""
LARGE_FRAMES = 4
"""Connections that may be reading a large frame at the same time."""

UNREAD_MAX = 64 * 1024
"""Bytes of answers a client may leave unread in the socket before its next request waits."""
_UNREAD = struct.Struct("i")


def _unread(transport: asyncio.Transport | None) -> int:
    """Bytes written to the peer that it has not read yet (``SIOCOUTQ``; 0 if unknown)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return 0
    try:
        raw = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, bytes(_UNREAD.size))
    except (OSError, ValueError):  # closed meanwhile (its descriptor is -1)
        return 0
    return int(_UNREAD.unpack(raw)[0])


class GdiProtocol(asyncio.Protocol):
    """The server side of one client connection."""

    def __init__(self, server: GdiServer) -> None:
        self.server = server
        self.loop = asyncio.get_running_loop()
        self.decoder = FrameDecoder(server.max_frame)
        self.transport: asyncio.Transport | None = None
        self.who: Identity | None = None
        self.busy = False
        self.closed = False
        self.lost = False
        self.last_active = self.loop.time()
        self.frame_started: float | None = None
        """When the bytes of the frame not yet whole began to arrive."""
        self._resume: asyncio.Future[None] | None = None
        self.on_gone: Callable[[], None] | None = None  # ends a subscription stream
        self.on_frame: Callable[[bytes], None] | None = None  # frames sent into a stream
        self.task: asyncio.Task[None] | None = None
        self.large = False
        """This connection is reading a large frame (it holds one of the server's places)."""

    # -- asyncio callbacks -----------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        from qmaster.gdi.answers import Status
        from qmaster.gdi.server import error_reply, peer_identity

        # uvloop's transports implement the interface without subclassing it
        self.transport = cast(asyncio.Transport, transport)
        if len(self.server.connections) >= self.server.max_connections:
            self.reply_and_close(error_reply(TOO_MANY, Status.NOTOK_DOAGAIN))
            return
        self.who = peer_identity(transport.get_extra_info("socket"), self.server.host)
        if self.who is None:
            self.reply_and_close(error_reply("cannot determine peer credentials", Status.EDENIED))
            return
        self.server.connections.add(self)

    def data_received(self, data: bytes) -> None:
        if self.frame_started is None:
            self.frame_started = self.loop.time()
        self.decoder.receive_data(data)
        self.pump()

    def eof_received(self) -> bool:
        self.decoder.receive_data(b"")
        self._gone()
        self.pump()
        return True  # stay half-open until the last answer is written

    def _gone(self) -> None:
        self.on_frame = None
        stop, self.on_gone = self.on_gone, None
        if stop is not None:
            stop()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = self.lost = True
        self._free_large()
        self.server.connections.discard(self)  # counted until its descriptor is gone
        self._gone()
        if self._resume is not None and not self._resume.done():
            self._resume.set_result(None)

    def pause_writing(self) -> None:
        self._resume = self.loop.create_future()

    def resume_writing(self) -> None:
        if self._resume is not None and not self._resume.done():
            self._resume.set_result(None)
        self._resume = None

    # -- requests ----------------------------------------------------------------

    def _take_large(self) -> bool:
        """Hold one of the server's places for reading a large frame (kept if held)."""
        if not self.large and self.server.large_frames < LARGE_FRAMES:
            self.server.large_frames += 1
            self.large = True
        return self.large

    def _free_large(self) -> None:
        if self.large:
            self.server.large_frames -= 1
            self.large = False

    def pump(self) -> None:
        """Take whole frames out of the decoder: requests one at a time, or into a stream."""
        from qmaster.gdi.answers import Status
        from qmaster.gdi.server import error_reply

        while (not self.busy or self.on_frame) and not self.closed and self.who is not None:
            try:
                body = self.decoder.next_frame()
            except FrameTooLarge as exc:
                log.warning("gdi_frame_too_large", user=self.who.user, reason=str(exc))
                self.reply_and_close(error_reply(f"request refused: {exc}"))
                return
            except FrameError as exc:
                log.warning("gdi_bad_frame", user=self.who.user, reason=str(exc))
                self.close()
                return
            if body is NEED_DATA:
                if self.decoder.announced > LARGE_FRAME and not self._take_large():
                    log.warning("gdi_large_frames_busy", user=self.who.user)
                    self.reply_and_close(error_reply(BUSY_LARGE, Status.NOTOK_DOAGAIN))
                return
            self._free_large()
            if body is None:
                self.close()
                return
            assert isinstance(body, bytes)
            self.last_active = self.loop.time()
            self.frame_started = self.last_active if self.decoder.partial else None
            if self.on_frame is not None:
                self.on_frame(body)
                continue
            self.busy = True
            self.task = self.loop.create_task(self._handle(body))  # kept: tasks are weakly held

    async def _handle(self, body: bytes) -> None:
        assert self.who is not None
        keep = False
        try:
            if await self._read_by_peer():
                keep = await self.server.handle_frame(body, self, self.who)
        except (ConnectionError, TimeoutError):
            pass
        except Exception:  # a bug must never take the daemon down
            log.exception("gdi_connection_failed")
        self.busy = False
        self.last_active = self.loop.time()
        self.on_frame = None
        if keep:
            self.pump()
        else:
            self.close()

    async def _read_by_peer(self) -> bool:
        """Wait until the peer has read all but :data:`UNREAD_MAX` bytes of our answers; False
        (the connection dropped) when it has not within ``request_timeout``.

        A client that asks again without reading what it was answered gets nothing more
        worked out for it: one unread answer is all it costs (requests sent ahead, never
        read, made the daemon build a second full listing for each such connection).
        """
        if _unread(self.transport) <= UNREAD_MAX:
            return True
        deadline = self.loop.time() + self.server.request_timeout
        while self.loop.time() < deadline and not self.closed:
            await asyncio.sleep(0.05)
            if _unread(self.transport) <= UNREAD_MAX:
                return True
        self.abort()
        return False

    # -- writing -------------------------------------------------------------------

    def send(self, reply: Reply) -> None:
        if not self.closed and self.transport is not None:
            self.transport.write(reply.encode())

    async def drain(self, timeout: float) -> None:
        """Wait while the peer is not reading; give up (and close) after ``timeout``."""
        if self._resume is None:
            return
        try:
            async with asyncio.timeout(timeout):
                await asyncio.shield(self._resume)
        except TimeoutError:
            self.abort()
            raise

    def reply_and_close(self, reply: Reply) -> None:
        self.send(reply)
        self.close()

    def close(self) -> None:
        """Close after the buffered answers are written: within ``request_timeout``, or
        they are dropped (a peer that does not read must not keep its descriptor)."""
        if not self.closed and self.transport is not None:
            self.closed = True
            self.transport.close()
            if self.transport.get_write_buffer_size():
                self.loop.call_later(self.server.request_timeout, self.abort)

    def abort(self) -> None:
        """Drop the connection and whatever it has not sent yet."""
        self.closed = True
        if self.transport is not None and not self.lost:
            self.transport.abort()

    def __repr__(self) -> str:
        who: Any = self.who.user if self.who else "?"
        return f"<GdiProtocol {who} busy={self.busy}>"
