"""qsim against AccaSim 1.1.3, job by job (issue 12 item 4), run by ``python -m bench sim``.

On gen_swf.py's trace (``BENCH_SIM_COMPARE_JOBS`` jobs, default 2,000, load
0.95 so that jobs wait) and :mod:`bench.sim_cell`'s cell:

- EASY: qsim with ``-R y`` on every job and ``max_reservation 1`` against
  AccaSim's EASY-backfilling dispatcher (First-Fit allocator). Each job's wait
  (start minus submission) is compared; every job whose wait differs is listed
  (the first ``SHOWN``, then a count by cause). A differing job is a *root*
  when, at its submission, every earlier job started at the same time in both
  or has ended in both (the machine is the same); otherwise it is a
  ``knock-on`` of the earliest differing job still running in one of them.
  AccaSim's EASY dispatcher is instrumented (a subclass that records its
  reservation) so that a root's cause is read, not guessed:

  - ``held to its reservation``: AccaSim's blocked job, which its EASY
    dispatcher does not try again before the start it reserved for it once
    (Grid Engine plans the reservation again at every pass and starts the job
    as soon as it fits);
  - ``backfilled over the reservation of job B``: AccaSim started it while B
    was blocked and it runs past B's reserved start: AccaSim 1.1.3 passes no
    reserved nodes to its allocator (``reserved_nodes=[]``), so such a job
    may take B's nodes (Grid Engine does not let it);
  - else ``allocation`` (a multi-slot job: our PE ``$fill_up`` against
    AccaSim's per-core First-Fit), ``tie-breaking`` (submitted in the same
    second as another job) or ``pass timing``.

- FIFO: AccaSim's strict head-of-line FIFO beside ``max_reservation 0``
  (Grid Engine's greedy first fit: a job that fits starts even when an
  earlier one does not), which Grid Engine has no setting for.

Both simulators' figures are computed here the same way from per-job waits and
run times (mean/median/p95 wait, mean bounded slowdown with τ = 10 s).
AccaSim runs in its own environment (``run_accasim.sh`` installs it); without
it this part says so and stops.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench.sim_bench import accasim_python, shared_bench
from bench.sim_cell import write_cell
from qmaster.sim.jobs import TraceJob
from qmaster.sim.replay import ReplayOptions, replay
from qmaster.sim.summary import percentile, slowdown

SHOWN = 25
WIDE = 32
"""Jobs of at least this many slots are the wide ones (the ones greedy first fit passes over)."""
LOAD = 0.95

ACCASIM = """
import collections, collections.abc, json, sys
if not hasattr(collections, "Mapping"):
    collections.Mapping = collections.abc.Mapping
from accasim.base.simulator_class import Simulator
from accasim.base.scheduler_class import FirstInFirstOut, EASYBackfilling
from accasim.base.allocator_class import FirstFit
from accasim.base.additional_data import AdditionalData
waits, held, over = {}, {}, {}
class Starts(AdditionalData):
    def exec_before_dispatching(self, job_dict, queued_jobs): pass
    def exec_after_dispatching(self, job_dict, to_dispatch_jobs, rejected_jobs):
        for start, jid, _ in to_dispatch_jobs:
            if start is not None:
                waits[jid] = start - job_dict[jid].queued_time
    def exec_before_submission(self, *a, **kw): pass
    def exec_after_submission(self, *a, **kw): pass
    def exec_before_completion(self, *a, **kw): pass
    def exec_after_completion(self, removed_jobs): pass
    def stop(self): pass
class Recording(EASYBackfilling):
    # EASY as it is, recording each blocked job's reserved start and what starts meanwhile
    # (times as seconds after each job's own submission)
    def scheduling_method(self, cur_time, queued_jobs, es_dict):
        queued = {j.id: j.queued_time for j in queued_jobs}
        out = super().scheduling_method(cur_time, queued_jobs, es_dict)
        blocked, at = self._blocked_job_id, self._reserved_slot[0]
        if blocked is not None and at:
            held.setdefault(blocked, at - queued[blocked])
            for start, jid, _ in out[0]:
                if start is not None and jid != blocked and jid in queued:
                    over[jid] = [blocked, at - queued[jid]]
        return out
trace, config, policy, results = sys.argv[1:5]
dispatcher = (FirstInFirstOut(FirstFit()) if policy == "fifo" else Recording(FirstFit()))
sim = Simulator(trace, config, dispatcher, additional_data=[Starts], RESULTS_FOLDER_PATH=results,
                LOG_LEVEL="WARNING", pprint_output=False, scheduling_output=False,
                benchmark_output=False, statistics_output=False, show_statistics=False)
sim.start_simulation(system_status=False)
print(json.dumps({"waits": waits, "held": held, "over": over}))
"""


@dataclass(frozen=True, slots=True)
class Side:
    """One simulator's waits by SWF job number, with the trace's jobs."""

    waits: dict[int, float]
    jobs: dict[int, TraceJob]
    held: dict[int, float] = field(default_factory=dict)
    """AccaSim EASY's blocked jobs: the start it reserved for each (once)."""
    over: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Jobs AccaSim EASY started while a job was blocked: that job and its reserved start."""

    def figures(self) -> tuple[int, float, float, float, float, float]:
        """Started jobs, mean/median/p95 wait, mean bounded slowdown, wide jobs' mean wait."""
        waits = sorted(self.waits.values())
        slow = [slowdown(w, self.jobs[n].runtime) for n, w in self.waits.items()]
        wide = [w for n, w in self.waits.items() if self.jobs[n].slots >= WIDE]
        mean = sum(waits) / len(waits) if waits else 0.0
        bsld = sum(slow) / len(slow) if slow else 0.0
        wide_mean = sum(wide) / len(wide) if wide else 0.0
        return len(waits), mean, percentile(waits, 0.5), percentile(waits, 0.95), bsld, wide_mean


def ours(trace: Path, work: Path, name: str, reservations: int, reserve: bool) -> Side:
    """qsim's waits on the bench cell with these reservation settings."""
    cell = write_cell(work / f"cmp_cell_{name}", max_reservation=reservations, reserve=reserve)
    done = replay(ReplayOptions(trace, cell, None, plots=False))
    waits = {r.job.number: r.wait for r in done.results if r.wait is not None}
    return Side(
        {n: w for n, w in waits.items() if w is not None},
        {r.job.number: r.job for r in done.results},
    )


def theirs(python: Path, trace: Path, config: Path, policy: str, jobs: dict[int, TraceJob]) -> Side:
    """AccaSim's waits (its own process and environment)."""
    results = trace.parent / f"cmp_accasim_{policy}"
    results.mkdir(exist_ok=True)
    argv = [str(python), "-c", ACCASIM, str(trace), str(config), policy, str(results)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return Side(
        {int(k): float(v) for k, v in data["waits"].items()},
        jobs,
        {int(k): float(v) for k, v in data["held"].items()},
        {int(k): (int(b), float(t)) for k, (b, t) in data["over"].items()},
    )


def _state(side: Side, number: int, t: float) -> tuple[str, float]:
    """A job at time ``t``: waiting, running (since when) or done."""
    job, wait = side.jobs[number], side.waits.get(number)
    if wait is None or job.submit + wait > t:
        return ("waiting", 0.0)
    start = job.submit + wait
    return ("done", 0.0) if start + job.runtime <= t else ("running", start)


def _running_at(number: int, ours_: Side, peer: Side, differing: list[int]) -> int | None:
    """The earliest earlier differing job that is not in the same state in both simulators
    (waiting, running since the same time, or done) when job ``number`` is submitted."""
    t = ours_.jobs[number].submit
    for other in differing:
        if other == number or ours_.jobs[other].submit > t:
            continue
        if _state(ours_, other, t) != _state(peer, other, t):
            return other
    return None


def _limit(job: TraceJob) -> float:
    text = job.requests.get("h_rt")
    try:
        return float(text) if text is not None else job.runtime
    except ValueError:
        return job.runtime


def cause(number: int, ours_: Side, peer: Side, differing: list[int]) -> str:
    """Why job ``number`` started at another time in the two simulators (see the module)."""
    before = _running_at(number, ours_, peer, differing)
    if before is not None:
        return f"knock-on of job {before}"
    job = ours_.jobs[number]
    mine, theirs_ = ours_.waits.get(number), peer.waits.get(number)
    if number in peer.held and mine is not None and theirs_ is not None and mine < theirs_:
        return (
            f"held to its reservation (AccaSim's, made once: a wait of {peer.held[number]:.0f} s)"
        )
    if number in peer.over and mine is not None and theirs_ is not None and theirs_ < mine:
        blocked, at = peer.over[number]
        if theirs_ + _limit(job) > at:
            return f"backfilled over the reservation of job {blocked}"
    if job.slots > 1:
        return "allocation"
    if any(j.submit == job.submit and n != number for n, j in ours_.jobs.items()):
        return "tie-breaking"
    return "pass timing"


def differences(ours_: Side, peer: Side) -> list[tuple[int, float | None, float | None, str]]:
    """Every job whose wait differs: number, our wait, AccaSim's, the cause."""
    numbers = sorted(ours_.jobs, key=lambda n: (ours_.jobs[n].submit, n))
    differing = [n for n in numbers if ours_.waits.get(n) != peer.waits.get(n)]
    first: list[int] = []
    out = []
    for n in differing:
        out.append((n, ours_.waits.get(n), peer.waits.get(n), cause(n, ours_, peer, first)))
        first.append(n)
    return out


def _figures_line(label: str, side: Side) -> str:
    started, mean, median, p95, bsld, wide = side.figures()
    return (
        f"{label:<28} {started:>7} {mean:>10.0f} {median:>10.0f} {p95:>10.0f} {bsld:>9.2f}"
        f" {wide:>10.0f}"
    )


def report(easy: tuple[Side, Side], fifo: tuple[Side, Side]) -> None:
    """Print the per-job EASY comparison and the figures side by side."""
    diff = differences(*easy)
    total = len(easy[0].jobs)
    print(
        f"EASY: {total - len(diff)} of {total} jobs start at the same time in both; {len(diff)} differ"
    )
    print(f"{'job':>7} {'slots':>5} {'qsim wait':>10} {'AccaSim':>10}  cause")
    for n, w_ours, w_peer, why in diff[:SHOWN]:
        shown = [f"{w:>10.0f}" if w is not None else f"{'-':>10}" for w in (w_ours, w_peer)]
        print(f"{n:>7} {easy[0].jobs[n].slots:>5} {shown[0]} {shown[1]}  {why}")
    counts: dict[str, int] = {}
    roots = [(n, why) for n, _, _, why in diff if not why.startswith("knock-on")]
    for *_, why in diff:
        key = why.partition(" (")[0]
        key = key.partition(" of job")[0] if key.startswith(("knock-on", "backfilled")) else key
        counts[key] = counts.get(key, 0) + 1
    print("by cause: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"))
    print("roots: " + ("; ".join(f"job {n}: {why}" for n, why in roots) or "none"))
    print(
        f"\n{'':<28} {'started':>7} {'mean wait':>10} {'median':>10} {'p95 wait':>10} {'bsld':>9}"
        f" {'wide wait':>10}"
    )
    print(_figures_line("AccaSim FIFO (head-of-line)", fifo[1]))
    print(_figures_line("qsim max_reservation 0", fifo[0]))
    print(_figures_line("AccaSim EASY", easy[1]))
    print(_figures_line("qsim -R y, max_reservation 1", easy[0]))
    print(
        "FIFO vs max_reservation 0: strict FIFO idles the cell while its head waits for room;"
        " Grid Engine's greedy first fit starts every later job that fits, so waits fall, and"
        f" the jobs that pay are the wide ones (>= {WIDE} slots: last column), which nothing"
        " protects from being passed over again and again."
    )


def main(argv: list[str] | None = None) -> int:
    """Run both simulators on the same small trace and print the report."""
    del argv
    shared, python = shared_bench(), accasim_python()
    if shared is None or python is None:
        print("skipped: AccaSim or shared/bench not found (run shared/bench/run_accasim.sh)")
        return 0
    jobs = int(os.environ.get("BENCH_SIM_COMPARE_JOBS", "2000"))
    print(f"\nqsim vs AccaSim job by job: gen_swf.py --jobs {jobs} --seed 42 --load {LOAD}")
    with tempfile.TemporaryDirectory(prefix="qsim-compare-") as tmp:
        work = Path(tmp)
        trace, config = work / "cmp.swf", work / "cmp.config"
        subprocess.run(
            [sys.executable, str(shared / "gen_swf.py"), "--jobs", str(jobs), "--seed", "42",
             "--load", str(LOAD), "--out", str(trace), "--config-out", str(config)],
            check=True, capture_output=True,
        )  # fmt: skip
        easy_ours = ours(trace, work, "easy", 1, True)
        fifo_ours = ours(trace, work, "fifo", 0, False)
        try:
            easy = (easy_ours, theirs(python, trace, config, "ebf", easy_ours.jobs))
            fifo = (fifo_ours, theirs(python, trace, config, "fifo", fifo_ours.jobs))
        except subprocess.CalledProcessError as exc:
            print(f"AccaSim failed: {str(exc.stderr).strip()[-500:]}")
            return 0
        report(easy, fifo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
