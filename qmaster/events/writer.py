"""The daemon's writer of the cell's ``reporting`` and ``accounting`` files (and of
``schedd_runlog``, the scheduler run a ``qconf -tsm`` asked about, appended at once).

Theory of operation. Records are buffered by :meth:`EventFiles.add` and
written by :meth:`EventFiles.flush`, which the daemon calls when
:meth:`EventFiles.due` says the flush interval (Grid Engine's ``flush_time`` /
``accounting_flush_time``) has passed. Each flush appends all buffered lines
of one file with a single ``os.write`` on an ``O_APPEND`` descriptor, so a
reader sees whole lines or nothing of the batch.

A failed write (``ENOSPC``, ``EIO``, a short write) is never raised into the
caller: the file is truncated back to the size it had before the write, so no
reader ever sees half a record; the lines stay buffered and the next flush
tries again; the failure is reported through the ``on_error`` callback (by
default a structlog ``event_file_write_failed`` event). Unlike Grid Engine,
which drops the buffer after a failed write, nothing is lost while the
daemon runs.

Rotation is safe while running: before each write the path is compared with
the open descriptor (device and inode); when the file was renamed or removed
the descriptor is closed and the path reopened (created if needed). A newly
created file starts with Grid Engine's comment header.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from qmaster.complexes.values import parse_time
from qmaster.events.records import Acct, Record

VERSION = "minige 0.1.0"
HEADER = f"# Version: {VERSION}\n# \n# DO NOT MODIFY THIS FILE MANUALLY!\n# \n"

ErrorReporter = Callable[[Path, str], None]


def _log_error(path: Path, reason: str) -> None:
    import structlog

    structlog.get_logger("minige.events").error(
        "event_file_write_failed", path=str(path), reason=reason
    )


def flush_intervals(params: Mapping[str, str]) -> tuple[float, float | None]:
    """``reporting_params``' ``flush_time`` (15 s when not given or bad) and
    ``accounting_flush_time`` (None when not given or bad: ``flush_time`` then)."""
    return _seconds(params.get("flush_time"), 15.0) or 0.0, _seconds(
        params.get("accounting_flush_time"), None
    )


def _seconds(text: str | None, unset: float | None) -> float | None:
    try:
        return unset if text is None else parse_time(text)
    except ValueError:
        return unset


class WriteFailedError(OSError):
    """A batch could not be appended whole."""


@dataclass(slots=True)
class AppendFile:
    """One append-only file that survives rotation and never keeps a partial batch."""

    path: Path
    header: str = HEADER
    pending: list[str] = field(default_factory=list)
    _fd: int | None = None

    def _reopen_if_rotated(self) -> None:
        if self._fd is not None:
            try:
                st = os.stat(self.path)
                cur = os.fstat(self._fd)
                if (st.st_dev, st.st_ino) == (cur.st_dev, cur.st_ino):
                    return
            except FileNotFoundError:
                pass
            self.close()
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(self.path, flags, 0o644)

    def write_pending(self) -> None:
        """Append every pending line with one write; raise :class:`OSError` on failure."""
        if not self.pending:
            return
        self._reopen_if_rotated()
        assert self._fd is not None
        before = os.fstat(self._fd).st_size
        text = "".join(self.pending)
        if before == 0 and self.header:
            text = self.header + text
        data = text.encode()
        try:
            written = os.write(self._fd, data)
        except OSError:
            self._truncate(before)
            raise
        if written != len(data):
            self._truncate(before)
            raise WriteFailedError(errno.ENOSPC, f"short write ({written} of {len(data)} bytes)")
        self.pending.clear()

    def _truncate(self, size: int) -> None:
        assert self._fd is not None
        with contextlib.suppress(OSError):  # e.g. a character device: nothing to take back
            os.ftruncate(self._fd, size)

    def close(self) -> None:
        """Close the descriptor (buffered lines are kept)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class EventFiles:
    """Buffers records and appends them to ``reporting`` and ``accounting`` in ``common_dir``."""

    def __init__(
        self,
        common_dir: Path,
        flush_interval: float,
        *,
        reporting: bool = True,
        accounting: bool = True,
        on_error: ErrorReporter | None = None,
    ) -> None:
        self.flush_interval = flush_interval
        self.accounting_interval = flush_interval
        self.reporting = AppendFile(Path(common_dir) / "reporting")
        self.accounting = AppendFile(Path(common_dir) / "accounting")
        self.runlog_path = Path(common_dir) / "schedd_runlog"
        self._do_reporting = reporting
        self._do_accounting = accounting
        self._on_error = on_error or _log_error
        self._due_at: dict[str, float] = {}

    def configure(
        self,
        *,
        flush_interval: float,
        reporting: bool,
        accounting: bool,
        accounting_interval: float | None = None,
    ) -> None:
        """Take changed ``reporting_params`` into use: ``flush_time`` for the reporting
        file, ``accounting_flush_time`` for the accounting file (``flush_time`` when it is
        not set; 0 writes each record at once), as sge_conf(5) has them."""
        self.flush_interval = flush_interval
        self.accounting_interval = (
            flush_interval if accounting_interval is None else accounting_interval
        )
        self._do_reporting = reporting
        self._do_accounting = accounting

    def add(self, record: Record) -> None:
        """Buffer one record for the next flush."""
        if not isinstance(record, Acct):
            if self._do_reporting:
                self.reporting.pending.append(record.reporting_line() + "\n")
            return
        if not (self._do_reporting or self._do_accounting):
            return
        line = record.accounting_line()  # made once for both files
        if self._do_reporting:
            self.reporting.pending.append(record.acct_line(line) + "\n")
        if self._do_accounting:
            self.accounting.pending.append(line + "\n")

    def runlog(self, at: float, lines: Iterable[str]) -> None:
        """Append a monitored scheduler run's lines to ``schedd_runlog``, each after the
        run's time as ``ctime()`` prints it and a ``|``, as Grid Engine's schedd_log()."""
        stamp = time.ctime(at)
        try:
            with open(self.runlog_path, "a", encoding="utf-8") as f:
                f.write("".join(f"{stamp}|{line}\n" for line in lines))
        except OSError as exc:
            self._on_error(self.runlog_path, exc.strerror or str(exc))

    @property
    def pending(self) -> int:
        """How many lines wait to be written."""
        return len(self.reporting.pending) + len(self.accounting.pending)

    @property
    def immediate(self) -> bool:
        """Some file is written as soon as it has lines (an interval of 00:00:00)."""
        return self.flush_interval <= 0 or self.accounting_interval <= 0

    def _targets(self) -> tuple[tuple[AppendFile, float], ...]:
        return ((self.accounting, self.accounting_interval), (self.reporting, self.flush_interval))

    def _is_due(self, target: AppendFile, interval: float, now: float) -> bool:
        """Lines wait in ``target`` and its interval since they started waiting passed."""
        if not target.pending:
            self._due_at.pop(target.path.name, None)
            return False
        return now >= self._due_at.setdefault(target.path.name, now + interval)

    def due(self, now_monotonic: float) -> bool:
        """Whether a flush of some file is due."""
        found = [self._is_due(t, i, now_monotonic) for t, i in self._targets()]  # clocks start
        return any(found)

    def flush_due(self, now_monotonic: float) -> bool:
        """Write the files whose interval passed; ``False`` when one could not be written."""
        ok = True
        for target, interval in self._targets():
            if self._is_due(target, interval, now_monotonic):
                ok = self._write(target) and ok
                self._due_at.pop(target.path.name, None)
        return ok

    def flush(self) -> bool:
        """Write what is buffered; ``False`` (and a report) when a file could not be written."""
        written = [self._write(target) for target, _ in self._targets()]  # each tried
        self._due_at.clear()
        return all(written)

    def _write(self, target: AppendFile) -> bool:
        try:
            target.write_pending()
        except OSError as exc:
            self._on_error(target.path, exc.strerror or str(exc))
            return False
        return True

    def close(self) -> None:
        """Flush what can be flushed and close both files."""
        self.flush()
        self.reporting.close()
        self.accounting.close()
