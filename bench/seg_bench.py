"""``python -m bench.seg_bench`` — how fast ``seg`` replays a reporting file.

Writes a 1,000,000-line reporting file (a realistic mix of ``new_job``,
``job_log`` and ``acct`` records, made by the real record classes) in a temp
directory, runs the real ``seg`` process over it with ``-t 0`` and reports
lines per second next to a baseline: a bare Python loop over the lines of the
same file, measured in the same run. The target is ≥ 200,000 lines/s.

:func:`live_latency` measures the other half — how long after a job is
submitted its first ``seg`` message appears — given a callable that submits a
job to a running daemon and returns its job id.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from qmaster.events.records import Acct, JobLog, NewJob, Record

BASE_TIME = 1_700_000_000


def _job_log(t: int, event: str, job: int) -> JobLog:
    return JobLog(
        t, t, event, job, 0, "NONE", "r", "qmaster", "master", 0, t - 5,
        "sleep", "alice", "staff", "NONE", "defaultdepartment", "sge", 0, "",
    )  # fmt: skip


def job_records(job: int, t: int) -> Iterator[Record]:
    """The records of one job's life: 5 lines."""
    yield NewJob(t, t, job, -1, "NONE", "sleep", "alice", "staff", "", "", "sge", 0)
    yield _job_log(t, "pending", job)
    yield _job_log(t + 1, "sent", job)
    yield _job_log(t + 1, "running", job)
    yield Acct(
        t + 9, "all.q", "node001", "staff", "alice", "sleep", job, "sge", 0,
        t, t + 1, t + 9, 0, 0, 8,
    )  # fmt: skip


def write_reporting(path: Path, lines: int) -> int:
    """A reporting file of about ``lines`` lines; returns the exact count."""
    count = 0
    with path.open("w") as fh:
        job = 0
        while count < lines:
            job += 1
            chunk = [r.reporting_line() for r in job_records(job, BASE_TIME + job // 10)]
            fh.write("\n".join(chunk) + "\n")
            count += len(chunk)
    return count


def seg_command(reporting: Path, *extra: str) -> list[str]:
    """The command line of the real ``seg``."""
    return [sys.executable, "-m", "clients.seg", "-s", "minige", "-r", str(reporting), *extra]


def replay_seconds(reporting: Path, lines: int) -> tuple[float, int]:
    """Wall time of ``seg -t 0`` until it has replayed the whole file, and messages read."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        seg_command(reporting, "-t", "0", "-c"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdin is not None
    expected = 3 * (lines // 5)  # pending, running, done per job
    messages = 0
    try:
        for _ in proc.stdout:
            messages += 1
            if messages >= expected:
                break
    finally:
        elapsed = time.perf_counter() - start
        proc.stdin.close()
        proc.wait(timeout=10)
    return elapsed, messages


def baseline_seconds(reporting: Path) -> float:
    """A bare Python loop that splits every line of the file once."""
    start = time.perf_counter()
    n = 0
    with reporting.open("rb") as fh:
        for line in fh:
            n += len(line.split(b":", 2))
    return time.perf_counter() - start


def live_latency(
    submit: Callable[[], str], reporting: Path, timeout: float = 30.0, poll: str | None = "0.02"
) -> float:
    """Seconds from ``submit()`` to the first ``seg`` message for the job it returns.

    ``poll`` is seg's ``-p`` (None: seg's default).
    """
    extra = ("-p", poll) if poll else ()
    proc = subprocess.Popen(
        seg_command(reporting, *extra), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stdin is not None
    try:
        time.sleep(0.3)  # let seg reach the end of the file
        start = time.perf_counter()
        job = submit()
        fd = proc.stdout.fileno()
        buf = b""
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                buf += os.read(fd, 65536)
                for line in buf.decode().splitlines():
                    if line.split(";")[2:3] == [job]:
                        return time.perf_counter() - start
        raise TimeoutError(f"no seg message for job {job} within {timeout}s")
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()


def daemon_latencies(samples: int = 20) -> list[float]:
    """Seconds from a submission to its line on a live ``seg`` (default poll), ``samples`` times.

    A real qmaster runs on a temporary cell of the default configuration
    (reporting on, ``flush_time`` 0); the clock starts before the submit request
    is sent, so the figure includes the request's own round trip.
    """
    from bench.common import running_cell
    from qmaster.gdi.client import call

    with (
        tempfile.TemporaryDirectory(prefix="minige-segbench-") as tmp,
        running_cell(Path(tmp), schedule_interval=None) as cell,
    ):
        reporting = cell.cell.common / "reporting"
        path = cell.cell.socket

        def submit() -> str:
            reply = call(
                "submit", {"job": {"CMDNAME": "sleep", "CMDARGS": ["0"], "b": True}}, path=path
            )
            return str(reply.data["job_id"])

        submit()  # the reporting file exists from here on
        return [live_latency(submit, reporting, poll=None) for _ in range(samples)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="seg_bench")
    parser.add_argument("--lines", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        reporting = Path(tmp) / "reporting"
        lines = write_reporting(reporting, args.lines)
        base = baseline_seconds(reporting)
        seconds, messages = replay_seconds(reporting, lines)
    rate, base_rate = lines / seconds, lines / base
    print(f"lines:          {lines}")
    print(f"seg messages:   {messages}")
    print(f"seg replay:     {rate:,.0f} lines/s ({seconds:.2f} s, process start included)")
    print(f"baseline loop:  {base_rate:,.0f} lines/s ({base:.2f} s)")
    print(f"ratio:          {rate / base_rate:.2f} of the bare loop")
    print(f"target:         200,000 lines/s — {'met' if rate >= 200_000 else 'NOT met'}")
    latencies = sorted(daemon_latencies())
    median = statistics.median(latencies) * 1000
    print(
        f"live latency:   median {median:.1f} ms, max {latencies[-1] * 1000:.1f} ms "
        f"over {len(latencies)} submissions (submit to the job's line on seg's stdout, "
        f"seg's default 0.1 s poll) — target 100 ms {'met' if median <= 100 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
