"""``python -m bench local`` — how fast a cell in local execution mode runs real jobs.

Starts a cell with ``execution = "local"`` (its qmaster a real process, jobs
real processes under their shepherds) and measures, next to the same work
done by a plain ``subprocess`` spawn in the same run:

* latency: from running ``qsub -b y /bin/true`` to the job's line in the
  accounting file, one job at a time (p50/p99); the baseline is
  ``subprocess.run(["/bin/true"])``;
* ``qsub -sync y`` of the same job, from its start to its exit;
* throughput: tasks started per second with ``--tasks`` short tasks queued
  (one ``qsub -t 1-N -b y /bin/true``), from the submission to the last
  accounting line; the baseline spawns ``/bin/true`` N times, as many at a
  time as the cell has slots.

Both run twice: with the scheduler configuration's defaults (``flush_submit_sec``
and ``flush_finish_sec`` 0: a pass every ``schedule_interval``) and with both
at 1, Grid Engine's setting for a pass as soon as a job is submitted or ends.
``BENCH_LOCAL_JOBS``/``BENCH_LOCAL_TASKS`` set the sizes for ``make bench``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.common import Row, bench_conf, print_table, set_conf_value
from qmaster.testing import RunningCell, create_cell

SLOTS = 16  # the default conf's four hosts of four slots


@contextmanager
def local_cell(root: Path, flush: int) -> Iterator[RunningCell]:
    """A fresh local-mode cell with ``flush_submit_sec``/``flush_finish_sec`` at ``flush``."""
    conf = bench_conf(root / "conf", None)
    for key in ("flush_submit_sec", "flush_finish_sec"):
        set_conf_value(conf / "sched_configuration", key, str(flush))
    cell = create_cell(root / "sge", conf)
    cell.env["MINIGE_EXECUTION"] = "local"
    cell.start()
    try:
        yield cell
    finally:
        cell.stop()


def accounted(cell: RunningCell) -> int:
    """How many accounting lines the cell has written."""
    path = cell.cell.common / "accounting"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    return sum(1 for line in data.splitlines() if line and not line.startswith(b"#"))


def wait_accounted(cell: RunningCell, count: int, timeout: float = 600.0) -> float:
    """Wait until the accounting file has ``count`` lines; the time it happened."""
    deadline = time.perf_counter() + timeout
    while accounted(cell) < count:
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{count} accounting lines not written in {timeout:.0f} s")
        time.sleep(0.001)
    return time.perf_counter()


def latencies(cell: RunningCell, jobs: int, workdir: Path) -> tuple[list[float], list[float]]:
    """Seconds from running qsub of a /bin/true job to its accounting line, one by one, and
    of these the seconds qsub itself ran."""
    times, qsubs = [], []
    for n in range(jobs):
        start = time.perf_counter()
        cell.run("qsub", "-b", "y", "-o", "/dev/null", "-j", "y", "/bin/true", cwd=workdir,
                 check=True)  # fmt: skip
        qsubs.append(time.perf_counter() - start)
        times.append(wait_accounted(cell, n + 1) - start)
    return times, qsubs


def sync_latencies(cell: RunningCell, jobs: int, workdir: Path) -> list[float]:
    """Seconds ``qsub -sync y`` of a /bin/true job takes, submission to its exit."""
    times = []
    for _ in range(jobs):
        start = time.perf_counter()
        cell.run("qsub", "-sync", "y", "-b", "y", "-o", "/dev/null", "-j", "y", "/bin/true",
                 cwd=workdir, check=True)  # fmt: skip
        times.append(time.perf_counter() - start)
    return times


def spawn_latencies(jobs: int) -> list[float]:
    """Seconds a plain subprocess.run of /bin/true takes."""
    times = []
    for _ in range(jobs):
        start = time.perf_counter()
        subprocess.run(["/bin/true"], check=True)
        times.append(time.perf_counter() - start)
    return times


def task_rate(cell: RunningCell, tasks: int, workdir: Path) -> float:
    """Tasks per second from submitting an array of ``tasks`` /bin/true to its last end."""
    before = accounted(cell)
    start = time.perf_counter()
    cell.run("qsub", "-t", f"1-{tasks}", "-b", "y", "-o", "/dev/null", "-j", "y", "/bin/true",
             cwd=workdir, check=True)  # fmt: skip
    return tasks / (wait_accounted(cell, before + tasks) - start)


def spawn_rate(tasks: int, width: int = SLOTS) -> float:
    """Tasks per second of spawning /bin/true ``tasks`` times, ``width`` at a time."""
    start = time.perf_counter()
    running: list[subprocess.Popen[bytes]] = []
    for _ in range(tasks):
        if len(running) >= width:
            running.pop(0).wait()
        running.append(subprocess.Popen(["/bin/true"]))
    for proc in running:
        proc.wait()
    return tasks / (time.perf_counter() - start)


def p99(times: list[float]) -> float:
    return (
        statistics.quantiles(times, n=100, method="inclusive")[98] if len(times) > 1 else times[0]
    )


def measure(flush: int, jobs: int, tasks: int) -> list[Row]:
    """The figures of one configuration, with their same-run baselines."""
    label = f"flush_*_sec {flush}"
    with tempfile.TemporaryDirectory(prefix="minige-local-bench-") as tmp:
        root = Path(tmp)
        (root / "work").mkdir()
        with local_cell(root, flush) as cell:
            lat, qsubs = latencies(cell, jobs, root / "work")
            synced = sync_latencies(cell, min(jobs, 10), root / "work")
            base = spawn_latencies(jobs)
            rate = task_rate(cell, tasks, root / "work")
            base_rate = spawn_rate(tasks)
    spawn = "subprocess.run"
    return [
        Row(f"qsub to accounting p50 ({label})", statistics.median(lat) * 1e3, "ms",
            statistics.median(base) * 1e3, spawn),
        Row(f"qsub to accounting p99 ({label})", p99(lat) * 1e3, "ms", p99(base) * 1e3, spawn),
        Row(f"  of which qsub's own run p50 ({label})", statistics.median(qsubs) * 1e3, "ms"),
        Row(f"qsub -sync y p50 ({label})", statistics.median(synced) * 1e3, "ms",
            statistics.median(base) * 1e3, spawn),
        Row(f"tasks started/s, {tasks} queued ({label})", rate, "tasks/s", base_rate,
            f"Popen x{SLOTS}"),
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.local_bench", description=__doc__)
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("BENCH_LOCAL_JOBS", "50")))
    parser.add_argument(
        "--tasks", type=int, default=int(os.environ.get("BENCH_LOCAL_TASKS", "1000"))
    )
    parser.add_argument("--flush", type=int, nargs="*", default=[0, 1])
    args = parser.parse_args(argv)
    rows = [row for flush in args.flush for row in measure(flush, args.jobs, args.tasks)]
    print_table(f"local execution: {args.jobs} jobs one by one, {args.tasks} tasks queued", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
