"""``python -m bench query`` — qstat, restart and memory with many pending jobs.

For each size (10k and 100k pending jobs by default) a cell is created from
``conf/`` (scheduler interval 10 minutes, so passes stay out of the way), one
job is submitted with ``qsub`` to get a real spool row, the daemon is stopped,
and the spool is filled directly with copies of that row (a fill through the
GDI takes minutes and is measured by ``bench.gdi_bench``; ``--fill gdi`` does
it anyway, so that the RSS before the restart is that of submitted jobs). Then:

* ``qmaster start`` wall time, and the recovery inside it (the daemon's
  ``state_recovered`` log line);
* ``qstat -u '*'`` as an installed process, end to end, best of three runs,
  with the size of its output; next to it the same qstat asking as it did
  before the listing was streamed (one reply of row dicts);
* the daemon's RSS;
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
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import Row, bench_conf, print_table
from qmaster.gdi.client import Connection
from qmaster.spool.jobrows import decode_job_row, job_text, spec_as_dict
from qmaster.testing import RunningCell, create_cell

SIZES = (10_000, 100_000)
GDI_JOB = {"CMDNAME": "sleep", "CMDARGS": ["100000"], "b": True}
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
    template = spec_as_dict(decode_job_row(text))
    rows = []
    for job_id in range(1, count + 1):
        template["job_id"] = job_id
        template["submit_time"] = float(template["submit_time"]) + 0.001
        rows.append((job_id, job_text(template)))
    with db:
        db.execute("DELETE FROM jobs")
        db.executemany("INSERT INTO jobs VALUES (?, ?)", rows)
        db.execute("INSERT OR REPLACE INTO counters VALUES ('job', ?)", (count + 1,))
    db.close()


#: qstat as it asked before the listing was streamed: one reply of row dicts
ONE_REPLY = (
    "import sys; from clients import qstat; from qmaster.gdi.client import call; "
    "sys.exit(qstat.main(['-u', '*'], transport=lambda op, args: call(op, args)))"
)


def best_qstat(cell: RunningCell, runs: int = 3, *, one_reply: bool = False) -> tuple[float, int]:
    """The fastest of ``runs`` ``qstat -u '*'``, and the bytes it printed."""
    argv = [sys.executable, "-c", ONE_REPLY] if one_reply else ["qstat", "-u", "*"]
    best, size = float("inf"), 0
    for _ in range(runs):
        seconds, out = timed(cell, *argv)
        best, size = min(best, seconds), len(out.encode())
    return best, size


def recovery_seconds(cell: RunningCell) -> float:
    """What the last ``state_recovered`` line of the daemon's log says."""
    seconds = float("nan")
    for line in cell.cell.messages.read_text().splitlines():
        if '"state_recovered"' in line:
            seconds = float(json.loads(line)["seconds"])
    return seconds


def fill_gdi(cell: RunningCell, count: int, clients: int = 4) -> None:
    """Submit ``count`` jobs through the GDI from ``clients`` connections."""

    def submit(n: int) -> None:
        with Connection(cell.cell.socket) as conn:
            for _ in range(n):
                reply = conn.call("submit", {"job": dict(GDI_JOB), "verify": "n"})
                if not reply.ok:
                    raise RuntimeError(f"submit refused: {reply.answers}")

    shares = [count // clients + (1 if i < count % clients else 0) for i in range(clients)]
    threads = [threading.Thread(target=submit, args=(n,)) for n in shares]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def measure(root: Path, count: int, fill: str) -> dict[str, float]:
    """Every figure for one cell of ``count`` pending jobs."""
    cell = create_cell(root / "sge", bench_conf(root / "conf"))
    cell.start(timeout=600)
    figures: dict[str, float] = {}
    try:
        cell.run("qsub", "-b", "y", "sleep", "100000", check=True)
        figures["qstat_one"], _ = best_qstat(cell)
        if fill == "gdi":
            fill_gdi(cell, count - 1)
            figures["start"] = figures["recovery"] = float("nan")
    finally:
        if fill != "gdi":
            cell.stop()
    if fill != "gdi":
        fill_spool(cell.cell.database, count)
        figures["start"], _ = timed(cell, "qmaster", "start", "--timeout", "600")
        figures["recovery"] = recovery_seconds(cell)
    try:
        figures["qstat"], size = best_qstat(cell)
        figures["qstat_mb"] = size / 1e6
        figures["qstat_one_reply"], _ = best_qstat(cell, 1, one_reply=True)
        figures["rss_before"] = rss_mib(cell.pid())
        figures["stop"], _ = timed(cell, "qmaster", "stop", "--timeout", "600")
        figures["restart"], _ = timed(cell, "qmaster", "start", "--timeout", "600")
        figures["recovery_again"] = recovery_seconds(cell)
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
            f"qstat -u '*' as one reply of row dicts ({k})",
            f["qstat_one_reply"] * 1000,
            "ms",
            f["qstat"] * 1000,
            "streamed",
        ),
        Row(f"qmaster start ({k} jobs)", f["start"] * 1000, "ms"),
        Row(
            f"recovery in it (state_recovered, {k} jobs)",
            f["recovery"] * 1000,
            "ms",
            target=f"<= {recovery_target * 1000:.0f} ms",
            met=f["recovery"] <= recovery_target,
        ),
        Row(f"qmaster start again ({k} jobs)", f["restart"] * 1000, "ms"),
        Row(
            f"recovery in it ({k} jobs)",
            f["recovery_again"] * 1000,
            "ms",
            target=f"<= {recovery_target * 1000:.0f} ms",
            met=f["recovery_again"] <= recovery_target,
        ),
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


def run(sizes: Sequence[int], fill: str) -> list[Row]:
    rows: list[Row] = []
    for count in sizes:
        with tempfile.TemporaryDirectory(prefix="minige-query-bench-") as tmp:
            try:
                rows.extend(rows_for(count, measure(Path(tmp), count, fill)))
            except subprocess.CalledProcessError as exc:
                raise RuntimeError(f"{exc.cmd} failed: {exc.stderr}") from None
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(prog="python -m bench query")
    parser.add_argument("--jobs", type=int, nargs="*", default=list(SIZES))
    parser.add_argument(
        "--fill",
        choices=("spool", "gdi"),
        default="spool",
        help="copy rows into the spool (fast) or submit through the GDI (RSS as submitted)",
    )
    args = parser.parse_args(argv)
    print_table(f"queries and recovery (filled via {args.fill})", run(args.jobs, args.fill))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
