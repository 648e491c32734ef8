"""``python -m bench.job_memory`` — what one waiting job costs the daemon, in process.

A core on the scale benchmark's cell (:mod:`bench.scale_cell`, every slot busy)
takes ``--jobs`` pending jobs of the benchmark's mix the way the daemon takes
them: the request frame decoded by the GDI server (:func:`parse_envelope`),
validated, handed to :meth:`Core.handle`, a pass every 5,000 jobs. Printed: the
RSS each waiting job adds. Then the jobs are spooled, recovered as the daemon
recovers them, and the first pass after the recovery is timed: seconds and µs
per job (wall and CPU: on a loaded machine the CPU time is the steadier figure), and
the RSS the recovered core and its first pass take per job.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

from bench.scale_cell import HOSTS, SLOTS, pending_spec, write_conf
from bench.scale_core import OWNER, CoreFiller
from qmaster.clock import RealClock
from qmaster.core import CoreSettings
from qmaster.core.outcome import SpoolDelta
from qmaster.core.spool_image import SpoolImage
from qmaster.gdi.client import request_body
from qmaster.gdi.messages import ARGS
from qmaster.gdi.server import parse_envelope
from qmaster.recovery import recover_core
from qmaster.spool.database import Spool
from qmaster.stimuli_wire import stimulus_of


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def fill(filler: CoreFiller, jobs: int) -> float:
    """Submit ``jobs`` pending jobs as the daemon receives them; bytes of RSS per job."""
    gc.collect()
    before = rss_kib()
    for n in range(jobs):
        env = parse_envelope(request_body("submit", {"job": pending_spec(n), "verify": "n"}))
        args = ARGS["submit"].model_validate(env.args)
        filler.core.handle(stimulus_of(OWNER, "submit", args), filler.now)
        if n % 5000 == 4999:
            filler._advance()
    filler._advance()
    gc.collect()
    return (rss_kib() - before) * 1024 / jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="job_memory", description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=50_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="minige-jobmem-") as tmp:
        filler = CoreFiller(write_conf(Path(tmp) / "conf"))
        filler.fill_runners()
        per_job = fill(filler, args.jobs)
        print(f"{args.jobs:,} waiting jobs submitted: {per_job:,.0f} B RSS a job", flush=True)
        image = SpoolImage.of_core(filler.core)
        spool = Spool(Path(tmp) / "spool.db")
        spool.commit(SpoolDelta(jobs=dict(image.jobs), tasks=dict(image.tasks),
                                config=dict(image.config)))  # fmt: skip
        del filler, image
        gc.collect()
        before = rss_kib()
        started, cpu = time.perf_counter(), time.process_time()
        core = recover_core(spool, CoreSettings(), RealClock(), ignore_errors=False)
        recovered, cpu = time.perf_counter() - started, time.process_time() - cpu
        after_recovery = rss_kib()
        started = time.perf_counter()
        core.tick(core.now + 1.0)
        first_pass = time.perf_counter() - started
        n = len(core.jobs)
        print(f"recovered {n:,} jobs ({HOSTS * SLOTS:,} of them running) in {recovered:.2f} s ({recovered / n * 1e6:.1f} µs a job; "
              f"CPU {cpu / n * 1e6:.1f} µs a job), {(after_recovery - before) * 1024 / n:,.0f} B RSS a job")  # fmt: skip
        print(f"first pass after the recovery: {first_pass:.2f} s ({first_pass / n * 1e6:.1f} µs "
              f"a job), {(rss_kib() - after_recovery) * 1024 / n:,.0f} B RSS a job more")  # fmt: skip
        spool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
