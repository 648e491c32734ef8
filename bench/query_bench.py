"""``python -m bench query`` — qstat, restart and memory with many pending jobs.

For each size (10k and 100k pending jobs by default) a cell is created from
``conf/`` (scheduler interval 10 minutes, so passes stay out of the way), one
job is submitted with ``qsub`` to get a real spool row, the daemon is stopped,
and the spool is filled directly with copies of that row (a fill through the
GDI would take minutes and is measured by ``bench.gdi_bench``). Then:

* ``qmaster start`` wall time (recovery of every job), and the daemon's RSS;
* ``qstat -u '*'`` as an installed process, end to end, best of three runs,
  with the size of its output;
* ``qmaster stop`` wall time;
* ``qmaster start`` again and the RSS after the restart (a restart must not
  grow the daemon's memory: both are taken after the same ``qstat``).

Baseline: the same ``qstat -u '*'`` on the same cell with one job. Targets
(issue 11, 2-core machine): ``qstat -u '*'`` of 100k jobs ≤ 1.5 s; recovery
≤ 1.5 s per 100k jobs (15 s for 1M).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import Row, bench_conf, print_table
from qmaster.testing import RunningCell, create_cell

SIZES = (10_000, 100_000)
QSTAT_TARGET_S_PER_100K = 1.5
RECOVERY_TARGET_S_PER_100K = 1.5


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def timed(cell: RunningCell, *argv: str) -> tuple[float, str]:
    """Wall seconds of one command run against ``cell``, and its stdout."""
    start = time.perf_counter()
    proc = cell.run(*argv, timeout=600)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()}")
    return seconds, proc.stdout


def fill_spool(database: Path, count: int) -> None:
    """Copy the spool's one job row to job ids 1..count (the daemon is stopped)."""
    db = sqlite3.connect(database)
    (text,) = db.execute("SELECT row FROM jobs ORDER BY job_id LIMIT 1").fetchone()
    template = json.loads(text)
    rows = []
    for job_id in range(1, count + 1):
        template["job_id"] = job_id
        template["submit_time"] = float(template["submit_time"]) + 0.001
        rows.append((job_id, json.dumps(template)))
    with db:
        db.execute("DELETE FROM jobs")
        db.executemany("INSERT INTO jobs VALUES (?, ?)", rows)
        db.execute("INSERT OR REPLACE INTO counters VALUES ('job', ?)", (count + 1,))
    db.close()


def best_qstat(cell: RunningCell, runs: int = 3) -> tuple[float, int]:
    """The fastest of ``runs`` ``qstat -u '*'``, and the bytes it printed."""
    best, size = float("inf"), 0
    for _ in range(runs):
        seconds, out = timed(cell, "qstat", "-u", "*")
        best, size = min(best, seconds), len(out.encode())
    return best, size


def measure(root: Path, count: int) -> dict[str, float]:
    """Every figure for one cell of ``count`` pending jobs."""
    cell = create_cell(root / "sge", bench_conf(root / "conf"))
    cell.start(timeout=600)
    try:
        cell.run("qsub", "-b", "y", "sleep", "100000", check=True)
        one, _ = best_qstat(cell)
    finally:
        cell.stop()
    fill_spool(cell.cell.database, count)
    figures: dict[str, float] = {"qstat_one": one}
    figures["start"], _ = timed(cell, "qmaster", "start", "--timeout", "600")
    try:
        figures["qstat"], size = best_qstat(cell)
        figures["qstat_mb"] = size / 1e6
        figures["rss_before"] = rss_mib(cell.pid())
        figures["stop"], _ = timed(cell, "qmaster", "stop", "--timeout", "600")
        figures["restart"], _ = timed(cell, "qmaster", "start", "--timeout", "600")
        best_qstat(cell, 1)
        figures["rss_after"] = rss_mib(cell.pid())
    finally:
        cell.stop()
    return figures


def rows_for(count: int, f: dict[str, float]) -> list[Row]:
    """The table rows of one size."""
    per = count / 100_000
    qstat_target = QSTAT_TARGET_S_PER_100K * max(per, 1.0)
    recovery_target = RECOVERY_TARGET_S_PER_100K * max(per, 1.0)
    k = f"{count // 1000}k"
    return [
        Row(
            f"qstat -u '*' ({k} jobs, {f['qstat_mb']:.1f} MB)",
            f["qstat"] * 1000,
            "ms",
            f["qstat_one"] * 1000,
            "1 job",
            f"<= {qstat_target * 1000:.0f} ms",
            f["qstat"] <= qstat_target,
        ),
        Row(
            f"qmaster start ({k} jobs)",
            f["start"] * 1000,
            "ms",
            target=f"<= {recovery_target * 1000:.0f} ms",
            met=f["start"] <= recovery_target,
        ),
        Row(f"qmaster start again ({k} jobs)", f["restart"] * 1000, "ms"),
        Row(f"qmaster stop ({k} jobs)", f["stop"] * 1000, "ms"),
        Row(f"daemon RSS ({k} jobs)", f["rss_before"], "MiB"),
        Row(
            f"daemon RSS after restart ({k} jobs)",
            f["rss_after"],
            "MiB",
            f["rss_before"],
            "before",
            "unchanged (<= 1.05x)",
            f["rss_after"] <= f["rss_before"] * 1.05,
        ),
    ]


def run(sizes: Sequence[int]) -> list[Row]:
    rows: list[Row] = []
    for count in sizes:
        with tempfile.TemporaryDirectory(prefix="minige-query-bench-") as tmp:
            try:
                rows.extend(rows_for(count, measure(Path(tmp), count)))
            except subprocess.CalledProcessError as exc:
                raise RuntimeError(f"{exc.cmd} failed: {exc.stderr}") from None
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(prog="python -m bench query")
    parser.add_argument("--jobs", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args(argv)
    print_table("queries and recovery", run(args.jobs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
