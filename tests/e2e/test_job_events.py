"""Job state events end to end: the daemon's reporting file, seg following it live, qevent."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)

PENDING, ACTIVE, FAILED, DONE = 1, 2, 4, 8


class LineReader:
    """Lines of a child's stdout, read on a thread so the test can wait with a deadline."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: queue.Queue[str] = queue.Queue()
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def close(self) -> int:
        """Wait for the child to end, then release its pipe; return its exit status."""
        status = self.proc.wait(10)
        self.thread.join(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        return status

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, done, timeout: float = 20.0) -> list[str]:
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while not done(seen):
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"timed out; saw {seen}")
            try:
                seen.append(self.lines.get(timeout=left))
            except queue.Empty:
                continue
        return seen


@pytest.fixture
def seg(minige_cell: RunningCell) -> Iterator[LineReader]:
    proc = subprocess.Popen(
        ["seg", "-s", "minige", "-t", "0"],
        env=minige_cell.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    reader = LineReader(proc)
    try:
        yield reader
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # seg ends when its stdin closes
        assert reader.close() == 0


def submit(cell: RunningCell, *argv: str) -> str:
    result = cell.run("qsub", "-terse", *argv)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def events_of(lines: list[str], job: str) -> list[tuple[int, int]]:
    """(state, exit code) of one job's SEG lines, in order."""
    found = []
    for line in lines:
        proto, _ts, jid, state, code = line.split(";")[:5]
        assert proto == "001"
        if jid == job:
            found.append((int(state), int(code)))
    return found


def final(job: str):
    return lambda seen: any(e[0] in (DONE, FAILED) for e in events_of(seen, job))


def test_successful_job_is_pending_active_done(minige_cell: RunningCell, seg: LineReader) -> None:
    """A job that ends normally reads PENDING, ACTIVE, DONE with exit code 0."""
    job = submit(minige_cell, "-b", "y", "sleep", "0.2")
    lines = seg.until(final(job))
    assert events_of(lines, job) == [(PENDING, 0), (ACTIVE, 0), (DONE, 0)]


def test_job_exiting_non_zero_reports_its_exit_code(
    minige_cell: RunningCell, seg: LineReader
) -> None:
    """A job that exits with 3 reads DONE with exit code 3."""
    job = submit(minige_cell, "-b", "y", "-v", "MINIGE_EXIT_STATUS=3", "sleep", "0.2")
    lines = seg.until(final(job))
    assert events_of(lines, job)[-1] == (DONE, 3)


def test_job_killed_at_h_rt_fails(minige_cell: RunningCell, seg: LineReader) -> None:
    """A job killed by its h_rt reads FAILED with exit code 137."""
    job = submit(minige_cell, "-b", "y", "-l", "h_rt=1", "sleep", "60")
    lines = seg.until(final(job))
    assert events_of(lines, job) == [(PENDING, 0), (ACTIVE, 0), (FAILED, 137)]


def test_deleted_pending_job_fails(minige_cell: RunningCell, seg: LineReader) -> None:
    """A job deleted before it ran reads PENDING then FAILED."""
    job = submit(minige_cell, "-h", "-b", "y", "sleep", "1")
    assert minige_cell.run("qdel", job).returncode == 0
    lines = seg.until(final(job))
    assert events_of(lines, job) == [(PENDING, 0), (FAILED, 0)]


def test_timestamps_are_plausible(minige_cell: RunningCell, seg: LineReader) -> None:
    """SEG timestamps are the wall-clock seconds of the state changes, in order."""
    before = int(time.time())
    job = submit(minige_cell, "-b", "y", "sleep", "1")
    lines = seg.until(final(job))
    stamps = [int(line.split(";")[1]) for line in lines if line.split(";")[2] == job]
    assert stamps == sorted(stamps)
    assert before <= stamps[0]
    assert stamps[-1] <= int(time.time()) + 1
    assert stamps[-1] - stamps[1] >= 1  # it ran for its one second


def test_qevent_streams_job_events_as_json(minige_cell: RunningCell) -> None:
    """qevent -json prints one JSON object per event as the jobs change state."""
    proc = subprocess.Popen(
        ["qevent", "-json"], env=minige_cell.env, stdout=subprocess.PIPE, text=True
    )
    reader = LineReader(proc)
    try:
        time.sleep(0.3)  # let the subscription register
        job = int(submit(minige_cell, "-b", "y", "sleep", "0.1"))

        def finished(seen: list[str]) -> bool:
            return any(
                (e := json.loads(x)).get("type") == "acct" and e.get("job_number") == job
                for x in seen
            )

        events = [json.loads(x) for x in reader.until(finished)]
        kinds = [(e["type"], e.get("event")) for e in events if e.get("job_number") == job]
        assert ("new_job", None) in kinds
        assert ("job_log", "running") in kinds
        assert kinds[-1] == ("acct", None)
    finally:
        proc.terminate()
        reader.close()
