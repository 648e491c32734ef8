"""The real ``seg`` process over real reporting files written by EventFiles."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.events.seg import ACTIVE, DONE, FAILED, PENDING
from qmaster.events.testing import acct, job_log, new_job
from tests.integration.events.files import seg_command, write

Seg = subprocess.Popen[bytes]


@pytest.fixture
def seg_procs() -> Iterator[list[Seg]]:
    """seg processes started by a test, stopped afterwards."""
    procs: list[Seg] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()


def start_seg(procs: list[Seg], reporting: Path, *args: str) -> Seg:
    """Start the real seg command on a reporting file."""
    proc = subprocess.Popen(
        seg_command(reporting, *args), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    procs.append(proc)
    return proc


def read_lines(proc: Seg, count: int, timeout: float = 10.0) -> list[str]:
    """Exactly ``count`` lines from seg's stdout, or fail after ``timeout``."""
    assert proc.stdout is not None
    fd, buf, deadline = proc.stdout.fileno(), b"", time.monotonic() + timeout
    while buf.count(b"\n") < count:
        left = deadline - time.monotonic()
        assert left > 0, f"seg gave only {buf!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"seg ended after {buf!r}"
            buf += chunk
    return buf.decode().splitlines()


def no_more_output(proc: Seg, wait: float = 0.4) -> bool:
    """Whether seg stays silent for ``wait`` seconds."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout.fileno()], [], [], wait)
    return not ready


def test_replays_from_the_timestamp(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """seg -t T prints the events of second T and later, then waits for more."""
    write(
        tmp_path, job_log(100, "pending", 1), job_log(200, "pending", 2), job_log(300, "running", 2)
    )
    proc = start_seg(seg_procs, tmp_path / "reporting", "-t", "200")
    assert read_lines(proc, 2) == [f"001;200;2;{PENDING};0", f"001;300;2;{ACTIVE};0"]
    assert no_more_output(proc)


def test_follows_new_records_live(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """Records flushed after seg started reach its output."""
    write(tmp_path, new_job(100, 1))
    proc = start_seg(seg_procs, tmp_path / "reporting", "-t", "0")
    assert no_more_output(proc)
    write(tmp_path, job_log(101, "running", 1), acct(105, 1, exit_status=4))
    assert read_lines(proc, 2) == [f"001;101;1;{ACTIVE};0", f"001;105;1;{DONE};4"]


def test_waits_for_a_reporting_file_that_does_not_exist_yet(
    tmp_path: Path, seg_procs: list[Seg]
) -> None:
    """seg started before the first flush picks up the file when it appears."""
    proc = start_seg(seg_procs, tmp_path / "reporting", "-t", "0")
    time.sleep(0.2)
    write(tmp_path, job_log(101, "running", 1))
    assert read_lines(proc, 1) == [f"001;101;1;{ACTIVE};0"]


def test_jobs_ending_in_every_way(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """Success, exit != 0, an h_rt kill and a deletion map to DONE 0, DONE 3, FAILED, FAILED."""
    write(
        tmp_path,
        acct(10, 1),
        acct(11, 2, exit_status=3),
        acct(12, 3, failed=100, exit_status=137),
        job_log(13, "deleted", 4),
        acct(14, 4, failed=100, exit_status=137),
    )
    proc = start_seg(seg_procs, tmp_path / "reporting", "-t", "0")
    assert read_lines(proc, 4) == [
        f"001;10;1;{DONE};0",
        f"001;11;2;{DONE};3",
        f"001;12;3;{FAILED};137",
        f"001;13;4;{FAILED};0",
    ]
    assert no_more_output(proc)


def test_exits_when_stdin_closes(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """Closing seg's standard input ends it with status 0."""
    write(tmp_path, new_job(1, 1))
    proc = start_seg(seg_procs, tmp_path / "reporting")
    time.sleep(0.2)
    assert proc.poll() is None
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=5) == 0


def test_exits_when_stdout_breaks(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """When nobody reads seg's output any more (EPIPE), seg ends by itself."""
    proc = start_seg(seg_procs, tmp_path / "reporting", "-t", "0")
    assert proc.stdout is not None
    proc.stdout.close()
    write(tmp_path, job_log(1, "running", 1))
    assert proc.wait(timeout=5) == 0


def test_rotation_finishes_the_old_file_then_reads_the_new(
    tmp_path: Path, seg_procs: list[Seg]
) -> None:
    """After a rename, late lines of the old file come first, then the new file's."""
    reporting = tmp_path / "reporting"
    write(tmp_path, job_log(1, "running", 1))
    proc = start_seg(seg_procs, reporting, "-t", "0")
    assert read_lines(proc, 1) == [f"001;1;1;{ACTIVE};0"]
    old = os.open(reporting, os.O_WRONLY | os.O_APPEND)
    reporting.rename(tmp_path / "reporting.1")
    os.write(old, (job_log(2, "running", 2).reporting_line() + "\n").encode())
    os.close(old)
    write(tmp_path, job_log(3, "running", 3))
    assert read_lines(proc, 2) == [f"001;2;2;{ACTIVE};0", f"001;3;3;{ACTIVE};0"]


def test_resuming_at_a_printed_cursor_repeats_nothing(tmp_path: Path, seg_procs: list[Seg]) -> None:
    """seg -t with the cursor of a message replays exactly the messages after it."""
    write(tmp_path, *(job_log(50, "running", j) for j in range(1, 6)))
    first = read_lines(start_seg(seg_procs, tmp_path / "reporting", "-t", "0", "-c"), 5)
    cursor = first[1].split(";")[5]
    again = read_lines(start_seg(seg_procs, tmp_path / "reporting", "-t", cursor, "-c"), 3)
    assert again == first[2:]


def test_bad_arguments_exit_1(tmp_path: Path) -> None:
    """An unknown scheduler module or a bad timestamp is an error, exit 1."""
    base = [sys.executable, "-m", "clients.seg", "-r", str(tmp_path / "reporting")]
    bad_module = subprocess.run([*base, "-s", "pbs"], capture_output=True, check=False)
    assert bad_module.returncode == 1
    assert b'unknown scheduler module "pbs"' in bad_module.stderr
    bad_time = subprocess.run([*base, "-s", "minige", "-t", "x"], capture_output=True, check=False)
    assert bad_time.returncode == 1
    assert b'invalid timestamp "x"' in bad_time.stderr
