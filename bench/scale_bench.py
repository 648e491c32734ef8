"""``python -m bench scale`` — a real qmaster with 1,000 hosts and 10k … 1M pending jobs.

The cell (:mod:`bench.scale_cell`): 1,000 simulated hosts × 8 slots,
``schedule_interval 0:0:1``. Its 8,000 slots are first filled with runners;
then pending jobs (~50 categories of ``-l``/``-q``/``-pe``/``-P`` requests, one
in 100 an array of 20 tasks) are submitted from 4 GDI connections until the
cell holds each size in turn (``--sizes``, default 10k, 100k, 1M; the
environment variable ``BENCH_SCALE_SIZES`` sets the default, so ``make bench``
can run smaller ones). Per size it prints, beside issue 11's targets:

* submissions/s over the first and the last 10 % of the fill, against the
  rate into the empty cell: the first ``BASELINE_JOBS`` pending jobs of the same
  mix, submitted before any job was pending (they stay, and count);
* the daemon's CPU while idle (``/proc/<pid>/stat`` over 5 s);
* ``qdel -f`` of a running job → the next pending job dispatched (daemon,
  includes the wait for the next pass);
* ``qsub`` round trip p50/p99 (installed ``qsub`` processes), ``qstat -u '*'``;
* ``qmaster stop`` and ``start`` (and the recovery time the daemon logs), RSS
  before and after the restart and RSS per pending job;
* ``core.tick`` end to end in this process on an equivalent core
  (:mod:`bench.scale_core`), measured after the daemon has stopped.

A size whose fill does not finish within ``--budget`` seconds, or during
which the daemon leaves a submission unanswered for ``--stall`` seconds, is
measured at the count it reached, reported as such, and larger sizes are
skipped; every command has a ``--timeout``, so nothing waits forever.
``--json FILE`` writes every figure as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench import scale_daemon as d
from bench.common import cpu_count
from bench.scale_cell import CATEGORIES, HOSTS, SLOTS, tasks_of, write_conf
from bench.scale_core import CoreFiller
from bench.scale_report import print_size
from qmaster.gdi.client import GdiError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from qmaster.testing import RunningCell

DEFAULT_SIZES = "10000,100000,1000000"
SIZES_ENV = "BENCH_SCALE_SIZES"
VICTIMS_PER_SIZE = 3
RUNS = 30
#: Pending jobs submitted into the empty cell (every slot busy, nothing pending): the
#: rate every fill is held against, measured on the same mix of jobs.
BASELINE_JOBS = 5_000


@dataclass(slots=True)
class SizeResult:
    """Every figure measured at one size (``None``: not measured, timed out or failed)."""

    size: int
    pending_jobs: int = 0
    pending_tasks: int = 0
    over_budget: bool = False
    stalled: bool = False
    fill_seconds: float = 0.0
    refused: int = 0
    rate_first: float | None = None
    rate_last: float | None = None
    rate_empty: float | None = None
    cpu_first_s: float | None = None
    cpu_last_s: float | None = None
    cpu_empty_s: float | None = None
    idle_cpu_pct: float | None = None
    dispatch_after_delete_s: list[float | None] = field(default_factory=list)
    qsub_s: list[float] = field(default_factory=list)
    qsub_p50_s: float | None = None
    qsub_p99_s: float | None = None
    qstat_s: float | None = None
    qstat_bytes: int = 0
    stop_s: float | None = None
    start_s: float | None = None
    recovery_logged_s: float | None = None
    rss_bytes: int = 0
    rss_empty_bytes: int = 0
    rss_after_restart_bytes: int = 0
    tick_idle_s: float | None = None
    tick_after_finish_s: float | None = None
    core_pending_jobs: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Baseline:
    """The cell with every slot busy and nothing pending: where each size starts from."""

    runners: list[int]
    rss_bytes: int
    rate: float | None
    pending: int = 0
    cpu_per_job: float | None = None


@contextmanager
def scale_cell(root: Path, conf: Path) -> Iterator[RunningCell]:
    """A cell made from ``conf`` with its qmaster running; stopped on exit."""
    from qmaster.testing import create_cell

    cell = create_cell(root, conf)
    cell.start(timeout=120)
    try:
        yield cell
    finally:
        stopped = d.timed(cell, ["qmaster", "stop", "--timeout", "30"], 40)
        if stopped.seconds is None and cell.cell.pidfile.exists() and d.pid_alive(cell.pid()):
            cell.kill9()


def _budget_note(result: SizeResult, what: str, budget: float) -> None:
    result.over_budget = True
    result.notes.append(f"{what} did not finish within the budget of {budget:g} s")


def start_runners(cell: RunningCell, args: argparse.Namespace) -> Baseline:
    """Fill every slot with a runner and wait until all of them run; then time the first
    pending jobs into the cell, the baseline of every fill."""
    slots = HOSTS * SLOTS
    deadline = time.monotonic() + args.budget
    got = d.fill(cell.cell.socket, 0, slots, runners=True, deadline=deadline, stall=args.stall)
    if len(got.job_ids) < slots or got.errors:
        raise RuntimeError(f"only {len(got.job_ids)} of {slots} runners accepted: {got.errors[:2]}")
    running = d.wait_running(cell.cell.socket, slots, deadline)
    if running < slots:
        raise RuntimeError(f"only {running} of {slots} runners running after the budget")
    print(f"{slots:,} runners running", flush=True)
    rss = d.rss_bytes(cell.pid())
    first = min(BASELINE_JOBS, min(args.size_list) // 2)
    empty = d.fill(
        cell.cell.socket, 0, first, runners=False, deadline=deadline, stall=args.stall,
        pid=cell.pid(),
    )  # fmt: skip
    if len(empty.job_ids) < first or empty.errors:
        raise RuntimeError(f"only {len(empty.job_ids)} of {first} pending jobs accepted")
    rate = empty.overall()
    print(f"{first:,} pending jobs into the empty cell: {rate or 0:,.0f}/s", flush=True)
    return Baseline(got.job_ids, rss, rate, first, empty.cpu_per_job(first=True, share=1.0))


def measure_daemon(
    cell: RunningCell, result: SizeResult, victims: list[int], timeout: float
) -> None:
    """Everything but the fill, on the daemon holding ``result.pending_jobs`` pending jobs."""
    time.sleep(d.SETTLE_SECONDS)
    pid = cell.pid()
    result.rss_bytes = d.rss_bytes(pid)
    result.idle_cpu_pct = d.idle_cpu_percent(pid)
    qstat = d.timed(cell, ["qstat", "-u", "*"], timeout)
    result.qstat_s, result.qstat_bytes = qstat.seconds, qstat.out_bytes
    if qstat.error:
        result.notes.append(f"qstat -u '*': {qstat.error}")
    try:
        result.dispatch_after_delete_s = d.pass_latencies(cell, victims, timeout)
    except (GdiError, OSError) as exc:
        result.notes.append(f"qdel -f → next job sent: {exc}")
    result.qsub_s, errors = d.qsub_samples(cell, RUNS, timeout)
    result.qsub_p50_s = d.percentile(result.qsub_s, 50)
    result.qsub_p99_s = d.percentile(result.qsub_s, 99)
    if errors:
        result.notes.append(f"{len(errors)} qsub runs failed: {errors[0]}")
    restart(cell, result, timeout)


def restart(cell: RunningCell, result: SizeResult, timeout: float) -> None:
    """Time ``qmaster stop`` and ``qmaster start``; RSS once the restarted daemon settled."""
    stop = d.timed(cell, ["qmaster", "stop", "--timeout", str(timeout)], timeout + 10)
    result.stop_s = stop.seconds
    if stop.seconds is None and d.pid_alive(cell.pid()):
        cell.kill9()
        result.notes.append("qmaster stop failed; the daemon was killed (SIGKILL) instead")
    start = d.timed(cell, ["qmaster", "start", "--timeout", str(timeout)], timeout + 10)
    result.start_s = start.seconds
    for what, t in (("qmaster stop", stop), ("qmaster start", start)):
        if t.error:
            result.notes.append(f"{what}: {t.error}")
    if start.seconds is None:
        raise RuntimeError(f"the daemon did not come back: {start.error}")
    result.recovery_logged_s = d.recovery_seconds(cell)
    time.sleep(d.SETTLE_SECONDS)
    result.rss_after_restart_bytes = d.rss_bytes(cell.pid())


def fill_size(
    cell: RunningCell, base: Baseline, pending: int, size: int, args: argparse.Namespace
) -> SizeResult:
    """Submit pending jobs from ``pending`` up to ``size`` within the budget."""
    result = SizeResult(size, rate_empty=base.rate, rss_empty_bytes=base.rss_bytes,
                        cpu_empty_s=base.cpu_per_job)  # fmt: skip
    started, budget = time.monotonic(), args.budget
    got = d.fill(
        cell.cell.socket, pending, size, runners=False, deadline=started + budget,
        stall=args.stall, pid=cell.pid(),
    )  # fmt: skip
    result.cpu_first_s, result.cpu_last_s = got.cpu_per_job(True), got.cpu_per_job(False)
    result.fill_seconds = time.monotonic() - started
    result.pending_jobs = pending + len(got.job_ids)
    result.pending_tasks = tasks_of(result.pending_jobs)
    result.refused = got.refused
    result.rate_first, result.rate_last = got.rate(first=True), got.rate(first=False)
    result.notes.extend(f"fill client: {e}" for e in got.errors[:2])
    if any("timed out" in e for e in got.errors):
        result.stalled = True
        result.notes.append(
            f"the daemon stopped answering submissions (none for {args.stall:g} s) "
            f"at {result.pending_jobs:,} pending jobs"
        )
    if result.pending_jobs < size and not result.stalled:
        _budget_note(result, f"the fill to {size:,}", budget)
    print(f"filled to {result.pending_jobs:,} pending jobs in {result.fill_seconds:,.0f} s",
          flush=True)  # fmt: skip
    return result


def run_daemon(
    root: Path, conf: Path, sizes: list[int], args: argparse.Namespace
) -> list[SizeResult]:
    """Fill the daemon size by size; stop at the first size that runs over its budget.

    A size whose measurement fails keeps what was measured, with the failure in its notes.
    """
    results: list[SizeResult] = []
    with scale_cell(root, conf) as cell:
        base = start_runners(cell, args)
        pending = base.pending
        for n, size in enumerate(sizes):
            result = fill_size(cell, base, pending, size, args)
            results.append(result)
            victims = base.runners[n * VICTIMS_PER_SIZE : (n + 1) * VICTIMS_PER_SIZE]
            try:
                measure_daemon(cell, result, victims, args.timeout)
            except Exception as exc:  # the figures so far are still worth printing
                result.notes.append(f"measurement failed: {type(exc).__name__}: {exc}")
                break
            pending = result.pending_jobs + RUNS  # the qsub samples stay pending
            if result.over_budget or result.stalled:
                break
    return results


def run_core(conf: Path, results: list[SizeResult], args: argparse.Namespace) -> None:
    """``core.tick`` at the sizes the daemon reached, on a core filled in this process."""
    filler = CoreFiller(conf)
    filler.fill_runners()
    for result in results:
        deadline = time.monotonic() + args.budget
        reached = filler.grow(result.pending_jobs, deadline)
        result.core_pending_jobs = reached
        if reached < result.pending_jobs:
            _budget_note(result, f"the in-process fill to {result.pending_jobs:,}", args.budget)
        ticks = filler.measure()
        result.tick_idle_s, result.tick_after_finish_s = ticks.idle, ticks.after_finish
        if ticks.dispatched != 1:
            result.notes.append(f"the tick after one job finished dispatched {ticks.dispatched}")
        if reached < result.pending_jobs:
            break


def machine_note() -> dict[str, object]:
    """What the figures depend on: CPUs and how busy the machine was."""
    return {"cpus": cpu_count(), "loadavg": os.getloadavg(), "python": sys.version.split()[0]}


def run(args: argparse.Namespace) -> list[SizeResult]:
    sizes = args.size_list
    print(f"scale: {HOSTS:,} hosts × {SLOTS} slots, {CATEGORIES} categories, sizes "
          f"{', '.join(f'{s:,}' for s in sizes)}, budget {args.budget:g} s per size; "
          f"{machine_note()}", flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="minige-scale-") as tmp:
        root = Path(tmp)
        conf = write_conf(root / "scale-conf")
        results = (
            run_daemon(root / "cell", conf, sizes, args)
            if not args.core_only
            else [SizeResult(s, pending_jobs=s) for s in sizes]
        )
        if not args.daemon_only and results:
            try:
                run_core(conf, results, args)
            except Exception as exc:  # keep the daemon's figures
                results[-1].notes.append(f"core.tick failed: {type(exc).__name__}: {exc}")
    return results


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="scale_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=os.environ.get(SIZES_ENV, DEFAULT_SIZES),
                        help=f"pending jobs, comma separated (default {DEFAULT_SIZES}, "
                             f"or ${SIZES_ENV})")  # fmt: skip
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds per size")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    parser.add_argument(
        "--stall", type=float, default=120.0, help="seconds without a reply: daemon stalled"
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--daemon-only", action="store_true", help="skip core.tick")
    only.add_argument("--core-only", action="store_true", help="only core.tick")
    args = parser.parse_args(argv)
    args.size_list = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    d.compile_packages()  # qsub and qstat as installed, not compiling their modules
    results = run(args)
    for result in results:
        print_size(result)
    if args.json:
        doc = {"machine": machine_note(), "argv": sys.argv, "sizes": [asdict(r) for r in results]}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
