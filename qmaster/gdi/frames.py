"""Sans-I/O frame codec: a 4-byte big-endian length, then that many bytes of JSON.

Theory of operation: feed bytes with :meth:`FrameDecoder.receive_data` (``b""``
means EOF), then call :meth:`FrameDecoder.next_frame` until it returns
``NEED_DATA``. A header announcing more than the cap raises
:class:`FrameTooLarge` before any body byte is buffered; EOF inside a frame
raises :class:`TruncatedFrame`. Standard library only.
"""

from __future__ import annotations

import struct
from typing import Final

HEADER: Final = struct.Struct(">I")
DEFAULT_MAX_FRAME: Final = 1 << 20


class FrameError(Exception):
    """A frame that cannot be decoded."""


class FrameTooLarge(FrameError):
    """The frame announces more bytes than the cap allows."""


class TruncatedFrame(FrameError):
    """The peer closed the stream in the middle of a frame."""


class _NeedData:
    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = _NeedData()


def encode_frame(body: bytes) -> bytes:
    """Prefix ``body`` with its length."""
    return HEADER.pack(len(body)) + body


class FrameDecoder:
    """Incremental decoder; see the module docstring."""

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._want: int | None = None
        self.eof = False

    def receive_data(self, data: bytes) -> None:
        """Add bytes read from the peer; empty bytes mean end of stream."""
        if not data:
            self.eof = True
            return
        self._buf += data

    @property
    def announced(self) -> int:
        """The length the frame being read announced (0 between frames)."""
        return self._want or 0

    @property
    def partial(self) -> bool:
        """Bytes of a frame not yet whole are waiting (a header or a body begun)."""
        return self._want is not None or bool(self._buf)

    def next_frame(self) -> bytes | _NeedData | None:
        """Return the next whole body, ``NEED_DATA``, or ``None`` at a clean EOF."""
        if self._want is None:
            if len(self._buf) < HEADER.size:
                return self._at_eof(bool(self._buf))
            (self._want,) = HEADER.unpack_from(self._buf)
            del self._buf[: HEADER.size]
            if self._want > self.max_frame:
                raise FrameTooLarge(
                    f"frame of {self._want} bytes exceeds the cap of {self.max_frame}"
                )
        if len(self._buf) < self._want:
            return self._at_eof(True)
        body = bytes(self._buf[: self._want])
        del self._buf[: self._want]
        self._want = None
        return body

    def _at_eof(self, partial: bool) -> _NeedData | None:
        if not self.eof:
            return NEED_DATA
        if partial:
            raise TruncatedFrame("connection closed inside a frame")
        return None
