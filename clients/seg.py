"""``seg`` — the Scheduler Event Generator for minige (standard library only).

Usage::

    seg -s minige [-t TIMESTAMP | -t T.K] [-c] [-r REPORTING_FILE] [-p SECONDS]

Reads ``$SGE_ROOT/$SGE_CELL/common/reporting`` (or ``-r``, or the
``MINIGE_SEG_REPORTING`` environment variable), writes one
``001;TIMESTAMP;JOBID;STATE;EXIT_CODE`` line per job state change on standard
output, replaying from TIMESTAMP (default: now) and then following the file
live. It ends when its standard input is closed or writing to standard output
fails (EPIPE), as the SEG protocol asks.

Exact resume (an addition to the protocol): ``-c`` appends each message's
cursor ``T.K`` as a sixth field, and ``-t T.K`` resumes right after that
message's record, so nothing is lost or repeated at a second boundary. Plain
consumers, which neither pass ``-c`` nor a cursor, see the classic five
fields. See :mod:`qmaster.events.seg` for the mapping and the numbering.

Rotation: when the path names another file (renamed and recreated) or
vanishes, ``seg`` reads the old file to its end, then continues with the new
file from its start. A file that shrinks (copy-truncate) is read again from
its start.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import time
from pathlib import Path
from typing import NoReturn

from clients.common.conventions import parse_command_line
from clients.common.errors import bad_value, invalid_argument, missing_argument
from clients.common.pipes import closes_quietly
from qmaster.events.seg import Cursor, CursorError, Scanner

SCHEDULERS = ("minige", "sge")
ENV_REPORTING = "MINIGE_SEG_REPORTING"
CHUNK = 1 << 20


class Stop(Exception):
    """Standard input closed or standard output broken: the SEG ends."""


class Output:
    """Standard output as raw bytes; a failed write means :class:`Stop`."""

    def __init__(self, fd: int = 1) -> None:
        self.fd = fd

    def write(self, lines: list[bytes]) -> None:
        data = b"".join(lines)
        view = memoryview(data)
        try:
            while view:
                n = os.write(self.fd, view)
                view = view[n:]
        except OSError as exc:  # EPIPE and friends
            raise Stop from exc


def stdin_closed(fd: int = 0, timeout: float = 0.0) -> bool:
    """Wait up to ``timeout`` for standard input; ``True`` when it reached EOF."""
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return False
        return os.read(fd, 4096) == b""
    except (OSError, ValueError):
        return True


class Follower:
    """Reads complete lines of a file that may grow, be rotated or be truncated."""

    def __init__(self, path: Path, scanner: Scanner) -> None:
        self.path = path
        self.scanner = scanner
        self._file: int | None = None
        self._ident: tuple[int, int] | None = None
        self._pos = 0
        self._rest = b""
        self._switch = False

    def _open(self) -> bool:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return False
        st = os.fstat(fd)
        if self._ident is not None:
            self.scanner.rotated()
        self._file, self._ident, self._pos, self._rest = fd, (st.st_dev, st.st_ino), 0, b""
        return True

    def read_chunk(self) -> list[bytes] | None:
        """The complete lines of the next chunk, or ``None`` at the end of the file."""
        if self._file is None and not self._open():
            return None
        assert self._file is not None
        data = os.read(self._file, CHUNK)
        if not data:
            return self._next_file() if self._switch else None
        self._pos += len(data)
        lines = (self._rest + data).split(b"\n")
        self._rest = lines.pop()
        return lines

    def _next_file(self) -> list[bytes] | None:
        """The old file is read to its end: continue with the one the path names now."""
        assert self._file is not None
        os.close(self._file)
        self._file, self._switch = None, False
        tail = [self._rest] if self._rest else []
        if not self._open():
            return tail or None
        return tail

    def check_rotation(self) -> bool:
        """At the end of the file: switch to a new file if the path changed. ``True`` if so."""
        if self._file is None:
            return self._open()
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return False
        if (st.st_dev, st.st_ino) != self._ident:
            self._switch = True  # drain what was appended before the rename first
            return True
        if st.st_size < self._pos:
            os.lseek(self._file, 0, os.SEEK_SET)
            self._pos, self._rest = 0, b""
            self.scanner.rotated()
            return True
        return False


def run(follower: Follower, out: Output, poll: float, stdin_fd: int | None) -> None:
    """Replay, then follow until :class:`Stop`."""
    while True:
        lines = follower.read_chunk()
        if lines is not None:
            msgs = follower.scanner.feed(lines)
            if msgs:
                out.write(msgs)
            if stdin_fd is not None and stdin_closed(stdin_fd):
                raise Stop
            continue
        if follower.check_rotation():
            continue
        if stdin_fd is None:
            time.sleep(poll)
        elif stdin_closed(stdin_fd, poll):
            raise Stop


SEG_USAGE = "usage: seg -s minige [-t TIMESTAMP | -t T.K] [-c] [-r REPORTING_FILE] [-p SECONDS]"


class _Parser(argparse.ArgumentParser):
    """argparse with Grid Engine's complaints instead of its own texts and exit 2."""

    def error(self, message: str) -> NoReturn:
        words = message.split()
        if "expected one argument" in message:
            raise missing_argument(words[1].rstrip(":"))
        if message.startswith("unrecognized arguments:"):
            raise invalid_argument(words[2])
        if "required" in message:
            raise missing_argument(words[-1])
        raise bad_value(f"ERROR! {message}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="seg", prefix_chars="-", add_help=False)
    parser.add_argument("-s", dest="scheduler", required=True, help="scheduler module (minige)")
    parser.add_argument("-t", dest="timestamp", help="replay from TIMESTAMP or cursor T.K")
    parser.add_argument("-c", dest="cursor", action="store_true", help="append the cursor field")
    parser.add_argument("-r", dest="reporting", help="reporting file to read")
    parser.add_argument("-p", dest="poll", type=float, default=0.1, help="poll interval (s)")
    return parser.parse_args(argv)


def reporting_path(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    if os.environ.get(ENV_REPORTING):
        return Path(os.environ[ENV_REPORTING])
    from qmaster.cell import Cell

    return Cell.from_env().common / "reporting"


@closes_quietly
def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = parse_command_line("seg", SEG_USAGE, words, parse_args)
    if isinstance(args, int):
        return args
    if args.scheduler not in SCHEDULERS:
        print(f'seg: unknown scheduler module "{args.scheduler}"', file=sys.stderr)
        return 1
    try:
        start = Cursor.parse(args.timestamp) if args.timestamp else Cursor(int(time.time()))
    except CursorError as exc:
        print(f"seg: {exc}", file=sys.stderr)
        return 1
    follower = Follower(reporting_path(args.reporting), Scanner(start, with_cursor=args.cursor))
    try:
        run(follower, Output(), args.poll, 0)
    except Stop:
        pass
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
