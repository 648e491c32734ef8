"""``python -m bench sim``: qsim replaying gen_swf.py's synthetic trace, beside AccaSim.

The trace is ``../shared/bench/gen_swf.py``'s (seed 42, 128 hosts × 8 slots,
32 GiB) at load 0.75 and 0.95, ``BENCH_SIM_JOBS`` jobs (default 50,000). It
is replayed on :mod:`bench.sim_cell`'s cell twice: ``fifo`` is
``max_reservation 0`` (Grid Engine's greedy first fit), ``backfill`` is
``-R y`` on every job (the cell's ``sge_request``) with ``max_reservation 1``.
Each replay runs in its own process (plots off): the figures are jobs per
wall-second of the replay and the process's peak RSS. When AccaSim 1.1.3 is
installed where ``run_accasim.sh`` puts it (``$PEERS_DIR/accasim``, default
``$TMPDIR/minige-peers``), its FIFO and EASY dispatchers run on the same file
in the same run and the ratio is printed; otherwise its reference figures are
quoted from ``shared/bench/README.md``, marked as such. Then
:mod:`bench.sim_compare` compares the two job by job on a small trace.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.sim_cell import write_cell

ROOT = Path(__file__).resolve().parent.parent
LOADS = (0.75, 0.95)
POLICIES = (("fifo", "fifo", 0, False), ("backfill", "ebf", 1, True))
#: AccaSim jobs/s quoted in shared/bench/README.md (50k jobs; FIFO, EASY) when it is not installed
QUOTED = {0.75: (5574.0, 5192.0), 0.95: (3019.0, 3698.0)}
TARGET_RATIO = 10.0

REPLAY = """
import json, sys, time
from pathlib import Path
from qmaster.sim.replay import ReplayOptions, replay
started = time.perf_counter()
done = replay(ReplayOptions(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), plots=False))
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "jobs": len(done.results), "all": done.summary["all"]}))
"""


@dataclass(frozen=True, slots=True)
class Measured:
    """One replay: wall seconds, jobs, peak RSS (MiB) and its mean wait and slowdown."""

    wall: float
    jobs: int
    rss_mib: float
    mean_wait: float = 0.0
    slowdown: float = 0.0

    @property
    def rate(self) -> float:
        return self.jobs / self.wall if self.wall else 0.0


def shared_bench() -> Path | None:
    """``shared/bench`` beside the checkout (or a parent of it), or ``$MINIGE_SHARED_BENCH``."""
    given = os.environ.get("MINIGE_SHARED_BENCH")
    if given:
        return Path(given)
    for parent in ROOT.parents:
        if (parent / "shared" / "bench" / "gen_swf.py").exists():
            return parent / "shared" / "bench"
    return None


def _run(argv: list[str]) -> tuple[str, float, float]:
    """Run a process; its stdout, wall seconds and its own peak RSS in MiB (by wait4)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, text=True)
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if proc.returncode:
            err.seek(0)
            raise RuntimeError(f"{argv[:3]} failed: {err.read().strip()[-500:]}")
    return out, wall, usage.ru_maxrss / 1024


def replay(trace: Path, cell: Path, out: Path) -> Measured:
    """qsim on the trace in a fresh process."""
    text, _, rss = _run([sys.executable, "-c", REPLAY, str(trace), str(cell), str(out)])
    data = json.loads(text.strip().splitlines()[-1])
    figures = data["all"]
    return Measured(
        data["wall"], data["jobs"], rss, figures["mean_wait"], figures["mean_bounded_slowdown"]
    )


def accasim_python() -> Path | None:
    peers = Path(os.environ.get("PEERS_DIR") or Path(tempfile.gettempdir()) / "minige-peers")
    python = peers / "accasim" / "bin" / "python"
    installed = list((peers / "accasim" / "lib").glob("python3*/site-packages/accasim"))
    return python if python.exists() and installed else None


def accasim(python: Path, shared: Path, trace: Path, config: Path, policy: str) -> Measured:
    """One AccaSim run (its own driver script) on the same trace."""
    results = trace.parent / f"accasim_{trace.stem}_{policy}"
    results.mkdir(exist_ok=True)
    argv = [str(python), str(shared / "accasim_run.py"), str(trace), str(config), policy]
    text, wall, rss = _run([*argv, str(results)])
    found = dict(re.findall(r"(\w+)=([^\s]+)", next(x for x in text.splitlines() if "RESULT" in x)))
    return Measured(wall, int(found["jobs"]), rss)


def _row(label: str, ours: Measured, peer: Measured | None, quoted: float) -> str:
    peer_rate = peer.rate if peer is not None else quoted
    source = "same run" if peer is not None else "quoted"
    ratio = ours.rate / peer_rate if peer_rate else 0.0
    verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
    return (
        f"{label:<16} {ours.jobs:>7} {ours.wall:>9.1f} {ours.rate:>9.0f} {ours.rss_mib:>8.0f}"
        f" {ours.mean_wait:>10.0f} {ours.slowdown:>8.2f}   {peer_rate:>7.0f} ({source})"
        f" {ratio:>7.3f}x  >= {TARGET_RATIO:.0f}x {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    del argv
    shared = shared_bench()
    if shared is None:
        print("skipped: shared/bench/gen_swf.py not found (set MINIGE_SHARED_BENCH)")
        return 0
    jobs = int(os.environ.get("BENCH_SIM_JOBS", "50000"))
    peer_python = accasim_python()
    print(f"qsim replay of gen_swf.py --jobs {jobs} --seed 42 (128 hosts x 8 slots)")
    if peer_python is None:
        print("AccaSim not installed (run shared/bench/run_accasim.sh): its figures are quoted")
    print(
        f"{'load/policy':<16} {'jobs':>7} {'wall s':>9} {'jobs/s':>9} {'RSS MiB':>8}"
        f" {'mean wait':>10} {'slowdn':>8}   {'AccaSim jobs/s':>20} {'ratio':>8}"
    )
    with tempfile.TemporaryDirectory(prefix="qsim-bench-") as tmp:
        work = Path(tmp)
        for load in LOADS:
            trace, config = work / f"synth_{load}.swf", work / "synth.config"
            subprocess.run(
                [sys.executable, str(shared / "gen_swf.py"), "--jobs", str(jobs), "--seed", "42",
                 "--load", str(load), "--out", str(trace), "--config-out", str(config)],
                check=True, capture_output=True,
            )  # fmt: skip
            for n, (name, peer_policy, reservations, reserve) in enumerate(POLICIES):
                cell = write_cell(
                    work / f"cell_{name}", max_reservation=reservations, reserve=reserve
                )
                ours = replay(trace, cell, work / f"out_{load}_{name}")
                peer = None
                if peer_python is not None:
                    try:
                        peer = accasim(peer_python, shared, trace, config, peer_policy)
                    except (RuntimeError, StopIteration, KeyError) as exc:
                        print(f"AccaSim {peer_policy} failed, its figure is quoted: {exc}")
                label = f"{load:.2f} {name}"
                print(_row(label, ours, peer, QUOTED.get(load, (0.0, 0.0))[n]), flush=True)
    from bench import sim_compare  # it imports this module, so only once this one is loaded

    return sim_compare.main()


if __name__ == "__main__":
    sys.exit(main())
