"""Logging: structlog events with stable names, as JSON lines in the spool's ``messages``.

Every event is one JSON object on one line, appended with a single
``write()`` to an ``O_APPEND`` descriptor. When the daemon runs in the
foreground the same events are also shown on stderr, readable
(``log_format = "console"``) or as JSON.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import structlog
from structlog.typing import EventDict, WrappedLogger

# events the daemon logs when it caught an exception nothing expected: each is a bug
INTERNAL_ERRORS = frozenset(
    {"core_request_failed", "core_tick_failed", "jsv_reverify_failed", "gdi_connection_failed"}
)


def is_internal_error(event: Mapping[str, Any]) -> bool:
    """A logged event that means a bug: a named internal error, or any logged traceback."""
    return (
        event.get("event") in INTERNAL_ERRORS
        or "exception" in event
        or bool(event.get("exc_info"))
        or event.get("level") == "critical"
    )


MAX_FIELD = 512
"""Characters kept of one logged value (a client's words are logged, bounded)."""
MAX_TRACEBACK = 16384
MAX_LOG_BYTES = 64 << 20
"""Size at which ``messages`` is moved to ``messages.1`` (the one older generation
kept) and a new one begun: the log takes at most twice this of the spool's disk."""


def _bound(value: Any, limit: int) -> Any:
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]}... ({len(value)} characters)"
    return value


def bound_fields(logger: WrappedLogger, name: str, event: EventDict) -> EventDict:
    """Cut every value to :data:`MAX_FIELD` characters (tracebacks to MAX_TRACEBACK)."""
    for key, value in event.items():
        if isinstance(value, str):
            event[key] = _bound(value, MAX_TRACEBACK if key == "exception" else MAX_FIELD)
        elif isinstance(value, list | tuple | dict | set | bytes):
            text = str(value)
            if len(text) > MAX_FIELD:
                event[key] = _bound(text, MAX_FIELD)
    return event


class _Sink:
    """The final processor: write JSON to the file, hand the console text on."""

    def __init__(self, path: Path | None, console: str | None, max_bytes: int) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.fd = self.written = 0
        self.fd_open = False
        if path is not None:
            self._open(path)
        self.console = console
        self._pretty = structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())

    def _open(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.fd_open = True
        self.written = os.fstat(self.fd).st_size

    def _rotate(self) -> None:
        assert self.path is not None
        os.close(self.fd)
        self.fd_open = False
        os.replace(self.path, self.path.with_name(self.path.name + ".1"))
        self._open(self.path)

    def __call__(self, logger: WrappedLogger, name: str, event: EventDict) -> str:
        line = json.dumps(event, default=str, separators=(",", ":"))
        if self.path is not None:
            data = (line + "\n").encode()
            # a full disk must not stop the daemon; stderr still has the event
            with contextlib.suppress(OSError):
                if self.written + len(data) > self.max_bytes and self.written:
                    self._rotate()
                if self.fd_open:
                    os.write(self.fd, data)
                    self.written += len(data)
        if self.console == "console":
            return str(self._pretty(logger, name, dict(event)))
        return line if self.console == "json" else ""


class _StderrLogger:
    def msg(self, text: str) -> None:
        if text:
            print(text, file=sys.stderr, flush=True)

    debug = info = warning = error = critical = exception = msg


def configure(
    messages: Path | None,
    console: str | None = None,
    level: int = logging.INFO,
    max_bytes: int = MAX_LOG_BYTES,
) -> None:
    """Send log events at ``level`` and above to ``messages`` and, with ``console``, to stderr."""
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            bound_fields,
            _Sink(messages, console, max_bytes),
        ],
        logger_factory=lambda *_: _StderrLogger(),
        cache_logger_on_first_use=True,
    )


def get(name: str, **bound: Any) -> structlog.typing.FilteringBoundLogger:
    """A logger bound to a component name."""
    logger: structlog.typing.FilteringBoundLogger = structlog.get_logger(name, **bound)
    return logger
