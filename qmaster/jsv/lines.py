"""Line framing of the JSV protocol, shared by both ends: lines, caps and NEED_DATA.

Standard library only; no I/O. Every command is one line ended by a new line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from qmaster.jsv.errors import JsvLimitError


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps on what one JSV may send: per line, and per verification."""

    max_line: int = 64 * 1024
    max_lines: int = 10_000
    max_bytes: int = 1024 * 1024


class _NeedData:
    def __repr__(self) -> str:
        return "NEED_DATA"


NEED_DATA: Final = _NeedData()


class LineBuffer:
    """Splits a byte stream into text lines, refusing lines over ``max_line`` bytes."""

    def __init__(self, max_line: int) -> None:
        self._buf = bytearray()
        self._max = max_line
        self.eof = False

    def feed(self, data: bytes) -> None:
        """Add bytes; ``b""`` marks the end of the stream."""
        if not data:
            self.eof = True
        self._buf += data

    def next_line(self) -> str | None:
        """The next whole line without its newline, or None."""
        end = self._buf.find(b"\n")
        if end < 0:
            if len(self._buf) > self._max:
                raise JsvLimitError(f"JSV sent a line longer than {self._max} bytes")
            return None
        if end > self._max:
            raise JsvLimitError(f"JSV sent a line longer than {self._max} bytes")
        raw = bytes(self._buf[:end]).rstrip(b"\r")
        del self._buf[: end + 1]
        return raw.decode("utf-8", "backslashreplace")


__all__ = ["NEED_DATA", "Limits", "LineBuffer", "_NeedData"]
