"""The GDI socket server: frames in, replies out, identity from the kernel.

Each connection is read with the sans-I/O :class:`FrameDecoder`. A frame over
the cap is refused before its body is read; a frame that is not valid JSON, or
not a valid request, gets an error reply and the connection is closed. The
caller's identity comes from ``SO_PEERCRED`` only; a ``user`` field in the
request is ignored (and logged when it disagrees). Nothing a client sends can
raise out of a connection handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import json
import pwd
import socket
import stat
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import structlog
from pydantic import ValidationError

from qmaster.gdi.answers import Answer, Quality, Status
from qmaster.gdi.connection import GdiProtocol
from qmaster.gdi.frames import encode_frame
from qmaster.gdi.listener import Listener
from qmaster.gdi.messages import Envelope
from qmaster.model import Identity
from qmaster.sharedstrings import SharedStrings

log = structlog.get_logger("gdi")
_PEERCRED = struct.Struct("3i")
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode  # answers (tuples) become arrays


@dataclass(slots=True)
class Reply:
    """What the daemon answers to one request."""

    answers: list[Answer]
    data: Any = None
    close: bool = False

    def encode(self) -> bytes:
        body = {"v": 1, "answers": self.answers, "data": self.data}
        return encode_frame(_ENCODE(body).encode())


@dataclass(slots=True)
class Stream:
    """A subscription: replies keep coming until the iterator ends.

    ``stop`` is called when the subscriber goes away (EOF or a closed
    connection); it must make the iterator end. ``control`` receives each
    request frame the client sends while the stream runs (a subscription
    change); without it such frames wait until the stream ends.
    """

    replies: AsyncIterator[Reply]
    stop: Callable[[], None] | None = None
    control: Callable[[bytes], None] | None = None


Dispatch = Callable[[Identity, Envelope], Awaitable[Reply | Stream]]


class Limits(Protocol):
    """The daemon settings a server takes its limits from."""

    @property
    def max_frame_bytes(self) -> int: ...
    @property
    def max_connections(self) -> int: ...
    @property
    def request_timeout(self) -> float: ...


def error_reply(text: str, status: Status = Status.ESYNTAX, *, close: bool = True) -> Reply:
    """A reply carrying one error; by default the connection is closed after it."""
    return Reply([Answer(int(status), Quality.ERROR, text)], close=close)


@lru_cache(maxsize=256)
def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


@lru_cache(maxsize=256)
def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def peer_identity(sock: Any, host: str) -> Identity | None:
    """Who is on the other end of a Unix socket, as the kernel says."""
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
    except OSError:
        return None
    pid, uid, gid = _PEERCRED.unpack(raw)
    if pid <= 0 or uid < 0:
        return None
    return Identity(uid, gid, _user_name(uid), _group_name(gid), host)


def prepare_socket_path(path: Path) -> None:
    """Refuse a path that is a symlink or not a socket; remove a stale socket.

    Call only while holding the cell lock: then no live daemon owns the socket.
    """
    try:
        st = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISSOCK(st.st_mode):
        raise OSError(f'"{path}" exists and is not a socket; refusing to replace it')
    path.unlink()


class GdiServer:
    """Serve GDI requests on a Unix socket (one :class:`GdiProtocol` per connection)."""

    def __init__(
        self,
        path: Path,
        dispatch: Dispatch,
        *,
        host: str = "localhost",
        max_frame: int = 1 << 20,
        max_connections: int = 512,
        request_timeout: float = 10.0,
    ) -> None:
        self.path = path
        self.dispatch = dispatch
        self.host = host
        self.max_frame = max_frame
        self.large_frames = 0
        """Connections reading a frame over ``connection.LARGE_FRAME`` now."""
        self.max_connections = max_connections
        self.request_timeout = request_timeout
        self.idle_timeout = request_timeout * 6
        self.connections: set[GdiProtocol] = set()
        self._listener = Listener(path, lambda: GdiProtocol(self), max_connections)

    def listen(self) -> None:
        """Bind the socket: clients queue in its backlog until the loop serves them."""
        prepare_socket_path(self.path)
        self._listener.open()

    def stop_listening(self) -> None:
        """Close the socket and remove its file, if :meth:`listen` bound it."""
        if self._listener.close():
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    @classmethod
    def limited(cls, path: Path, dispatch: Dispatch, host: str, limits: Limits) -> GdiServer:
        """A server with the daemon's limits (``qmaster.toml``)."""
        return cls(
            path,
            dispatch,
            host=host,
            max_frame=limits.max_frame_bytes,
            max_connections=limits.max_connections,
            request_timeout=limits.request_timeout,
        )

    async def sweep(self) -> None:
        """Close connections idle (or stuck inside a frame) for longer than the idle timeout.

        One sweep a second instead of a timer per read keeps the request path lean. It
        runs until cancelled, as a task of the daemon's TaskGroup.
        """
        loop = asyncio.get_running_loop()
        while True:
            planned = loop.time() + 1.0
            await asyncio.sleep(1.0)
            now = loop.time()
            if now - planned > 0.25:  # something held the loop: say so, for the soak's sake
                log.warning("loop_stalled", seconds=round(now - planned, 3))
            for conn in list(self.connections):
                if conn.busy or conn.closed:
                    continue
                started = conn.frame_started
                if started is not None and started < now - self.request_timeout:
                    log.info("gdi_slow_frame_closed")
                    conn.abort()
                elif conn.last_active < now - self.idle_timeout:
                    log.info("gdi_idle_connection_closed")
                    conn.close()

    async def close(self, grace: float = 5.0) -> None:
        """Stop accepting, give open requests ``grace`` seconds, then close every connection."""
        self.stop_listening()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while any(c.busy for c in self.connections) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        for conn in list(self.connections):
            conn.close()

    async def handle_frame(self, body: bytes, conn: GdiProtocol, who: Identity) -> bool:
        """Answer one request frame; whether the connection stays open."""
        try:
            env = parse_envelope(body)
        except ValidationError as exc:
            log.warning("gdi_bad_request", user=who.user, reason=exc.errors()[0]["msg"])
            conn.send(error_reply(f"malformed request: {_first_error(exc)}"))
            return False
        if env.user is not None and env.user != who.user:
            log.warning("gdi_identity_mismatch", claimed=env.user, peer=who.user, uid=who.uid)
        result = await self.dispatch(who, env)
        if isinstance(result, Stream):
            conn.on_gone = result.stop
            conn.on_frame = result.control
            conn.pump()
            async for reply in result.replies:
                if conn.closed:
                    break
                conn.send(reply)
                await conn.drain(self.request_timeout)
            return False
        conn.send(result)
        await conn.drain(self.request_timeout)
        return not result.close


_ENVELOPE_KEYS = frozenset({"v", "op", "args", "user"})
#: Requests share their strings with earlier ones: a million jobs submitted with the
#: same names, paths and requests hold one copy of each (see qmaster.sharedstrings).
_DECODE = SharedStrings(limit=1 << 16).decode


def parse_envelope(body: bytes) -> Envelope:
    """Decode a request frame; well-formed ones skip a second validation pass.

    Anything unusual goes through the pydantic model, whose errors say what is wrong.
    """
    try:
        raw = _DECODE(body.decode())
    except (ValueError, RecursionError):  # not UTF-8, not JSON; pydantic bounds the depth
        raw = None
    if (
        isinstance(raw, dict)
        and raw.keys() <= _ENVELOPE_KEYS
        and type(raw.get("v")) is int
        and raw["v"] == 1
        and type(raw.get("op")) is str
        and type(raw.get("args", {})) is dict
        and (raw.get("user") is None or type(raw.get("user")) is str)
    ):
        return Envelope.model_construct(
            v=1, op=raw["op"], args=raw.get("args", {}), user=raw.get("user")
        )
    return Envelope.model_validate_json(body)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else str(err["msg"])
