"""``python -m bench.sim_scale JOBSxHOSTS [...]``: qsim at scale (issue 12 item 6).

For each ``JOBSxHOSTS`` (e.g. ``100000x128``, ``1000000x10000``) it writes
gen_swf.py's trace (seed 42, ``--load``, default 0.75) for that many hosts of
8 slots and :mod:`bench.sim_cell`'s cell with those hosts, replays it in its
own process (``--policy fifo``: ``max_reservation 0``; ``backfill``: ``-R y``
and ``max_reservation 1``) and prints the wall time, jobs per wall-second and
the replay process's peak RSS; ``done`` counts the jobs that ended. ``--until T``
stops the replay T simulated seconds after the start (to see how far a long one gets);
``--progress-log FILE`` has the replay append its figures so far there every ``--every``
jobs ended (a run of an hour or more shows how it goes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.sim_bench import _run, shared_bench
from bench.sim_cell import write_cell

REPLAY = """
import json, resource, sys, time
from pathlib import Path
from qmaster.sim.replay import ReplayOptions, replay
until = float(sys.argv[4]) if sys.argv[4] != "-" else None
log, every = (sys.argv[5], int(sys.argv[6])) if len(sys.argv) > 6 else (None, 0)
started, cpu = time.perf_counter(), time.process_time()
def progress(jobs):
    def tell(at, ended):
        if ended % every == 0:
            with open(log, "a") as stream:
                print(f"ended {ended} of {jobs}: wall {time.perf_counter() - started:.0f} s, "
                      f"CPU {time.process_time() - cpu:.0f} s, peak RSS "
                      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB, "
                      f"simulated {at:.0f} s", file=stream)
    return tell if log else None
done = replay(ReplayOptions(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), plots=False,
                            until=until, progress=progress))
print(json.dumps({"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu,
                  "jobs": done.summary["ended"]}))
"""


def _size(text: str) -> tuple[int, int]:
    jobs, _, hosts = text.lower().partition("x")
    return int(jobs), int(hosts or "128")


def main(argv: list[str] | None = None) -> int:
    """Replay each size given and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.sim_scale", description=__doc__)
    parser.add_argument("sizes", nargs="+", type=_size, help="JOBSxHOSTS, e.g. 100000x128")
    parser.add_argument("--load", type=float, default=0.75)
    parser.add_argument("--policy", choices=("fifo", "backfill"), default="fifo")
    parser.add_argument("--until", type=float, default=None)
    parser.add_argument(
        "--progress-log",
        type=Path,
        default=None,
        help="append a line there each --every jobs ended (a long run's progress)",
    )
    parser.add_argument("--every", type=int, default=50_000)
    args = parser.parse_args(argv)
    shared = shared_bench()
    if shared is None:
        print("skipped: shared/bench/gen_swf.py not found (set MINIGE_SHARED_BENCH)")
        return 0
    backfill = args.policy == "backfill"
    print(f"{'jobs x hosts':>16} {'policy':>8} {'done':>8} {'wall s':>8} {'CPU s':>8}"
          f" {'jobs/s':>8} {'RSS MiB':>8}")  # fmt: skip
    for jobs, hosts in args.sizes:
        with tempfile.TemporaryDirectory(prefix="qsim-scale-") as tmp:
            work = Path(tmp)
            trace = work / "trace.swf"
            subprocess.run(
                [sys.executable, str(shared / "gen_swf.py"), "--jobs", str(jobs), "--seed", "42",
                 "--nodes", str(hosts), "--load", str(args.load), "--out", str(trace),
                 "--config-out", str(work / "synth.config")],
                check=True, capture_output=True,
            )  # fmt: skip
            cell = write_cell(work / "cell", hosts=hosts, max_reservation=int(backfill),
                              reserve=backfill)  # fmt: skip
            until = "-" if args.until is None else str(args.until)
            argv_ = [sys.executable, "-c", REPLAY, str(trace), str(cell), str(work / "out"), until]
            if args.progress_log is not None:
                argv_ += [str(args.progress_log), str(max(args.every, 1))]
            text, _, rss = _run(argv_)
            found = json.loads(text.strip().splitlines()[-1])
            rate = found["jobs"] / found["wall"] if found["wall"] else 0.0
            print(f"{f'{jobs}x{hosts}':>16} {args.policy:>8} {found['jobs']:>8}"
                  f" {found['wall']:>8.1f} {found['cpu']:>8.1f} {rate:>8.0f} {rss:>8.0f}",
                  flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
