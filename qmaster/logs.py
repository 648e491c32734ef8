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


class _Sink:
    """The final processor: write JSON to the file, hand the console text on."""

    def __init__(self, path: Path | None, console: str | None) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if path else None
        self.console = console
        self._pretty = structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())

    def __call__(self, logger: WrappedLogger, name: str, event: EventDict) -> str:
        line = json.dumps(event, default=str, separators=(",", ":"))
        if self.fd is not None:
            # a full disk must not stop the daemon; stderr still has the event
            with contextlib.suppress(OSError):
                os.write(self.fd, (line + "\n").encode())
        if self.console == "console":
            return str(self._pretty(logger, name, dict(event)))
        return line if self.console == "json" else ""


class _StderrLogger:
    def msg(self, text: str) -> None:
        if text:
            print(text, file=sys.stderr, flush=True)

    debug = info = warning = error = critical = exception = msg


def configure(messages: Path | None, console: str | None = None, level: int = logging.INFO) -> None:
    """Send log events at ``level`` and above to ``messages`` and, with ``console``, to stderr."""
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            _Sink(messages, console),
        ],
        logger_factory=lambda *_: _StderrLogger(),
        cache_logger_on_first_use=True,
    )


def get(name: str, **bound: Any) -> structlog.typing.FilteringBoundLogger:
    """A logger bound to a component name."""
    logger: structlog.typing.FilteringBoundLogger = structlog.get_logger(name, **bound)
    return logger
