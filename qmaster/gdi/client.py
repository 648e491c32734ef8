"""The GDI client used by every command. Standard library only, so a ``qsub``
process starts in tens of milliseconds.

``call(op, args)`` opens the cell's socket, sends one request frame and reads
one reply. A :class:`Connection` keeps the socket for several requests or for
a subscription stream.

A busy qmaster is waited for, as Grid Engine's clients wait for theirs: a
connection the kernel refuses for a full listen backlog (``EAGAIN``), and one the
qmaster turns away with "too many connections", are tried again with a growing
pause (10 ms doubling to 0.5 s) until the connection's timeout has passed. A
qmaster that is not running (no socket, nobody listening) fails at once.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qmaster.cell import Cell
from qmaster.gdi import unixpath
from qmaster.gdi.answers import Answer
from qmaster.gdi.frames import NEED_DATA, FrameDecoder, encode_frame

PROTOCOL_VERSION = 1
FAKE_USER_ENV = "MINIGE_DEBUG_FAKE_USER"


class GdiError(Exception):
    """The qmaster could not be reached or answered with garbage."""


@dataclass(slots=True)
class Reply:
    """A decoded reply: an answer list and an op-specific payload."""

    answers: list[Answer] = field(default_factory=list)
    data: Any = None

    @property
    def ok(self) -> bool:
        return not any(a.is_error for a in self.answers)

    @property
    def worst_status(self) -> int:
        bad = [a.status for a in self.answers if a.is_error]
        return bad[0] if bad else 1


def _decode(body: bytes) -> Reply:
    try:
        raw = json.loads(body)
        answers = [Answer(int(s), str(q), str(t)) for s, q, t in raw.get("answers", [])]
        return Reply(answers, raw.get("data"))
    except (ValueError, TypeError, AttributeError) as exc:
        raise GdiError(f"malformed reply from qmaster: {exc}") from exc


_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


def request_body(op: str, args: dict[str, Any], fake_user: str | None = None) -> bytes:
    """The JSON body of a request frame (``fake_user``: the debugging claim, see below)."""
    msg: dict[str, Any] = {"v": PROTOCOL_VERSION, "op": op, "args": args}
    if fake_user:
        msg["user"] = fake_user
    return _ENCODE(msg).encode()


_FIRST_PAUSE, _LAST_PAUSE = 0.01, 0.5
TOO_MANY = "too many connections"
BUSY_LARGE = "request refused: the qmaster is reading other large requests"
_TURNED_AWAY = frozenset({TOO_MANY, BUSY_LARGE})


def _turned_away(reply: Reply | None) -> bool:
    """The qmaster had no room for this connection or request (it worked on none)."""
    return reply is not None and len(reply.answers) == 1 and reply.answers[0].text in _TURNED_AWAY


class Connection:
    """One connection to the qmaster."""

    def __init__(self, path: Path | None = None, timeout: float | None = 60.0) -> None:
        self.path = path or Cell.from_env().socket
        self._timeout = timeout
        self._deadline = time.monotonic() + (timeout if timeout is not None else 60.0)
        self._pause = _FIRST_PAUSE
        self._decoder = FrameDecoder(max_frame=1 << 30)
        # a name to claim (tests of the daemon's identity checks); the daemon ignores it
        self._fake_user = os.environ.get(FAKE_USER_ENV)
        self._sock = self._connect()

    def _connect(self) -> socket.socket:
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self._timeout)
            try:
                unixpath.connect(sock, self.path)
                return sock
            except OSError as exc:
                sock.close()
                if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK) and self._wait():
                    continue
                reason = exc.strerror or str(exc)
                raise GdiError(
                    f'unable to contact qmaster using socket "{self.path}": {reason}'
                ) from exc

    def _wait(self) -> bool:
        """Pause before trying a busy qmaster again; False once the timeout has passed."""
        if time.monotonic() + self._pause > self._deadline:
            return False
        time.sleep(self._pause)
        self._pause = min(self._pause * 2, _LAST_PAUSE)
        return True

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sock.close()

    def send(self, op: str, args: dict[str, Any]) -> None:
        try:
            self._sock.sendall(encode_frame(request_body(op, args, self._fake_user)))
        except OSError as exc:
            raise GdiError(f"unable to send message to qmaster: {exc.strerror or exc}") from exc

    def receive(self, wait: float | None = None) -> Reply | None:
        """The next reply frame, or ``None`` when the qmaster closed the connection.

        With ``wait``, raise :class:`TimeoutError` when no frame came within that many seconds.
        """
        if wait is not None:
            previous = self._sock.gettimeout()
            self._sock.settimeout(wait)
            try:
                return self._receive(timeouts=True)
            finally:
                self._sock.settimeout(previous)
        return self._receive(timeouts=False)

    def _receive(self, *, timeouts: bool) -> Reply | None:
        while True:
            body = self._decoder.next_frame()
            if body is None:
                return None
            if body is not NEED_DATA:
                assert isinstance(body, bytes)
                return _decode(body)
            try:
                chunk = self._sock.recv(1 << 16)
            except TimeoutError:
                if timeouts:
                    raise
                raise GdiError("error reading from qmaster: timed out") from None
            except OSError as exc:
                raise GdiError(f"error reading from qmaster: {exc.strerror or exc}") from exc
            self._decoder.receive_data(chunk)

    def call(self, op: str, args: dict[str, Any] | None = None) -> Reply:
        while True:
            try:
                self.send(op, args or {})
            except GdiError:
                # the qmaster stopped reading before the request was all out (turned away,
                # or a request over its frame cap): its answer may be waiting
                answer = self._receive_quietly()
                if answer is not None and not _turned_away(answer):
                    return answer
                if answer is None or not self._wait():
                    raise
            else:
                reply = self.receive()
                if reply is None:
                    raise GdiError("qmaster closed the connection without answering")
                if not _turned_away(reply) or not self._wait():
                    return reply
            self._sock.close()
            self._decoder = FrameDecoder(max_frame=1 << 30)
            self._sock = self._connect()

    def _receive_quietly(self) -> Reply | None:
        try:
            return self.receive()
        except GdiError:
            return None

    def stream(self) -> Iterator[Reply]:
        """Replies until the qmaster closes the connection (subscriptions)."""
        while (reply := self.receive()) is not None:
            yield reply


def call(
    op: str,
    args: dict[str, Any] | None = None,
    *,
    path: Path | None = None,
    timeout: float | None = 60.0,
) -> Reply:
    """Send one request and return its reply (``timeout``: per socket operation)."""
    with Connection(path, timeout) as conn:
        return conn.call(op, args)
