"""EventFiles: whole-line appends, rotation, and write failures that lose nothing."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from qmaster.events import writer as writer_mod
from qmaster.events.parse import parse_reporting_line
from qmaster.events.testing import acct, job_log, new_job
from qmaster.events.writer import HEADER, EventFiles


def records(path: Path) -> list[str]:
    """The non-comment lines of a file."""
    return [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]


@pytest.fixture
def errors() -> list[tuple[Path, str]]:
    """Failures the writer reported."""
    return []


@pytest.fixture
def files(tmp_path: Path, errors: list[tuple[Path, str]]) -> EventFiles:
    """An EventFiles on a temp common dir that records its failures."""
    return EventFiles(tmp_path, 15.0, on_error=lambda p, r: errors.append((p, r)))


def test_nothing_is_written_before_flush(files: EventFiles, tmp_path: Path) -> None:
    """Records are buffered until flush, then appended as whole lines."""
    files.add(new_job(1, 1))
    assert not (tmp_path / "reporting").exists()
    assert files.flush()
    assert records(tmp_path / "reporting") == [new_job(1, 1).reporting_line()]


def test_acct_goes_to_both_files_and_others_only_to_reporting(
    files: EventFiles, tmp_path: Path
) -> None:
    """An Acct record lands in accounting and reporting; job_log only in reporting."""
    files.add(job_log(1, "running", 3))
    files.add(acct(9, 3, exit_status=2))
    files.flush()
    assert records(tmp_path / "accounting") == [acct(9, 3, exit_status=2).accounting_line()]
    assert [parse_reporting_line(ln) for ln in records(tmp_path / "reporting")] == [
        job_log(1, "running", 3),
        acct(9, 3, exit_status=2),
    ]


def test_new_file_starts_with_ge_header_once(files: EventFiles, tmp_path: Path) -> None:
    """A new file begins with GE's comment header, written only once."""
    for t in (1, 2):
        files.add(acct(t, t))
        files.flush()
    text = (tmp_path / "accounting").read_text()
    assert text.startswith(HEADER)
    assert text.count("DO NOT MODIFY THIS FILE MANUALLY!") == 1


def test_rotation_by_rename_reopens_the_path(files: EventFiles, tmp_path: Path) -> None:
    """After the file is renamed away, the next flush writes to a new file at the path."""
    files.add(new_job(1, 1))
    files.flush()
    (tmp_path / "reporting").rename(tmp_path / "reporting.1")
    files.add(new_job(2, 2))
    files.flush()
    assert records(tmp_path / "reporting.1") == [new_job(1, 1).reporting_line()]
    assert records(tmp_path / "reporting") == [new_job(2, 2).reporting_line()]


def test_removed_file_is_recreated(files: EventFiles, tmp_path: Path) -> None:
    """A deleted reporting file is created again on the next flush."""
    files.add(new_job(1, 1))
    files.flush()
    (tmp_path / "reporting").unlink()
    files.add(new_job(2, 2))
    files.flush()
    assert records(tmp_path / "reporting") == [new_job(2, 2).reporting_line()]


def test_enospc_keeps_lines_and_file_intact(
    files: EventFiles, tmp_path: Path, errors: list[tuple[Path, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """On ENOSPC nothing half-written stays, the failure is reported, the next flush succeeds."""
    files.add(new_job(1, 1))
    files.flush()
    before = (tmp_path / "reporting").read_bytes()
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        real_write(fd, bytes(data)[:7])  # a partial record reaches the disk
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer_mod.os, "write", full)
    files.add(new_job(2, 2))
    assert files.flush() is False
    assert (tmp_path / "reporting").read_bytes() == before
    assert errors == [(tmp_path / "reporting", "No space left on device")]
    assert files.pending == 1
    monkeypatch.setattr(writer_mod.os, "write", real_write)
    assert files.flush() is True
    assert records(tmp_path / "reporting")[-1] == new_job(2, 2).reporting_line()


def test_short_write_is_rolled_back(
    files: EventFiles, tmp_path: Path, errors: list[tuple[Path, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A short write is truncated away and retried whole next time."""
    real_write = os.write
    monkeypatch.setattr(writer_mod.os, "write", lambda fd, data: real_write(fd, data[:10]))
    files.add(new_job(1, 1))
    assert files.flush() is False
    assert (tmp_path / "reporting").read_bytes() == b""
    assert "short write" in errors[0][1]
    monkeypatch.setattr(writer_mod.os, "write", real_write)
    assert files.flush() is True
    assert records(tmp_path / "reporting") == [new_job(1, 1).reporting_line()]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_dev_full_is_reported_not_raised(tmp_path: Path, errors: list[tuple[Path, str]]) -> None:
    """Writing to a full device reports ENOSPC and keeps the lines."""
    (tmp_path / "reporting").symlink_to("/dev/full")
    files = EventFiles(tmp_path, 0, accounting=False, on_error=lambda p, r: errors.append((p, r)))
    files.add(job_log(1, "pending", 1))
    assert files.flush() is False
    assert errors[0][1] == os.strerror(errno.ENOSPC)
    assert files.pending == 1


def test_due_after_the_flush_interval(tmp_path: Path) -> None:
    """due() is false with nothing buffered and true once the interval passed since buffering."""
    files = EventFiles(tmp_path, 15.0)
    assert not files.due(100.0)
    files.add(new_job(1, 1))
    assert not files.due(100.0)
    assert not files.due(114.9)
    assert files.due(115.0)
    files.flush()
    assert not files.due(200.0)


def test_disabled_outputs_write_nothing(tmp_path: Path) -> None:
    """With reporting off only accounting is written, and vice versa."""
    files = EventFiles(tmp_path, 0, reporting=False)
    files.add(acct(1, 1))
    files.add(job_log(1, "running", 1))
    files.flush()
    assert not (tmp_path / "reporting").exists()
    assert records(tmp_path / "accounting") == [acct(1, 1).accounting_line()]


@pytest.mark.parametrize(
    ("params", "written_at"),
    [
        # the reporting check's three cases: accounting_flush_time, 0, and unset
        ("flush_time=00:00:15 accounting_flush_time=00:00:07", 107.0),
        ("flush_time=00:00:15 accounting_flush_time=00:00:00", 100.0),
        ("flush_time=00:00:07", 107.0),
    ],
)
def test_accounting_has_its_own_flush_time(tmp_path: Path, params: str, written_at: float) -> None:
    """reporting_params accounting_flush_time flushes the accounting file on its own
    interval (0: at once), flush_time when it is not set; the reporting file keeps
    flush_time (qmaster/reporting check.60)."""
    pairs = dict(p.split("=") for p in params.split())
    interval, accounting = writer_mod.flush_intervals(pairs)
    files = EventFiles(tmp_path, 1.0)
    files.configure(flush_interval=interval, reporting=True, accounting=True,
                    accounting_interval=accounting)  # fmt: skip
    files.add(acct(1, 1))

    def written(name: str) -> int:
        return len(records(tmp_path / name)) if (tmp_path / name).exists() else 0

    files.flush_due(100.0)  # the record waits from here
    files.flush_due(written_at - 0.1)
    assert written("accounting") == (1 if written_at == 100.0 else 0)
    files.flush_due(written_at)
    assert written("accounting") == 1
    assert written("reporting") == (1 if written_at >= 100.0 + interval else 0)
