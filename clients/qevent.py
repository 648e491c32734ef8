"""``qevent`` — watch the qmaster's job and AR events (standard library only).

Usage::

    qevent -json [-kinds KIND[,KIND...]]

Subscribes to the qmaster (GDI op ``subscribe``, args ``{"kinds": [...] | null}``)
and prints each event as one JSON object per line — ``{"type": "job_log" |
"acct" | "new_job" | ..., **record fields}``, the mapping of
:func:`qmaster.events.records.record_to_event` — until the qmaster closes the
connection or standard output is closed. ``--json`` is accepted as well.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import Any

from clients.common.conventions import parse_command_line
from clients.common.errors import ClientError, invalid_argument, missing_argument
from qmaster.gdi.client import Connection, GdiError, Reply

USAGE = "usage: qevent -json [-kinds KIND[,KIND...]]"


UsageError = ClientError
"""The command line is wrong (reported as :func:`clients.common.conventions.report` does)."""


def parse_args(argv: list[str]) -> list[str] | None:
    """The event kinds asked for (``None``: all). Raises :class:`UsageError`."""
    json_mode = False
    kinds: list[str] | None = None
    args = iter(argv)
    for arg in args:
        if arg in ("-json", "--json"):
            json_mode = True
        elif arg in ("-kinds", "--kinds"):
            value = next(args, None)
            if not value:
                raise missing_argument(arg)
            kinds = [k for k in value.split(",") if k]
        else:
            raise invalid_argument(arg)
    if not json_mode:
        raise UsageError("qevent: only the -json output is supported", show_usage=True)
    return kinds


def print_events(replies: Iterable[Reply], fd: int = 1) -> int:
    """Write each reply's ``data`` as a JSON line; the exit status."""
    for reply in replies:
        if not reply.ok:
            for answer in reply.answers:
                if answer.is_error:
                    print(answer.text, file=sys.stderr)
            return 1
        if reply.data is None:
            continue
        if not _write(fd, reply.data):
            return 0
    return 0


def _write(fd: int, data: Any) -> bool:
    line = (json.dumps(data, separators=(",", ":")) + "\n").encode()
    view = memoryview(line)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError:  # EPIPE: the reader went away
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    kinds = parse_command_line("qevent", USAGE, args, parse_args)
    if isinstance(kinds, int):
        return kinds
    try:
        with Connection(timeout=None) as conn:
            conn.send("subscribe", {"kinds": kinds})
            return print_events(conn.stream())
    except GdiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
