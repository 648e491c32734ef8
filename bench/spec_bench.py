"""``python -m bench.spec_bench`` — what a pending job costs the in-process core.

``N`` jobs as qsub sends them (a script, ``-cwd``, ``-l h_rt``, ``-P``, the six
``SGE_O_*`` variables; names, projects and resource values cycle) are submitted
through :meth:`Core.handle` with the daemon's validation, each decoded from its
own JSON text as the wire gives it (no string is shared by construction).
Measured, each in a fresh core:

* ``bytes/job``: memory the core holds per pending job (tracemalloc, after the
  submissions, less before);
* ``spec bytes/job``: the job specifications alone, every object reachable from
  them counted once (what jobs share, such as an interned environment, once);
* ``submit µs/job``: CPU time of submitting 5,000 of them to a fresh core, the least
  of five rounds (tracemalloc off; CPU time, as the machine is shared);
* ``recover µs/job``: CPU time of ``Core.recover`` from their spooled rows (JSON text
  decoded as the spool decodes it), the least of three;
* with ``--rss``: the process's peak RSS after the submissions (tracemalloc off).

Run it on two trees (this branch and a checkout of main) to compare.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import time
import tracemalloc
from collections.abc import Iterable, Sequence
from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity
from qmaster.spool.database import SharedStrings
from qmaster.stimuli_wire import parse

T0 = 1_767_225_600.0
TIMED = 5_000  # jobs per timed round (the best CPU time of five rounds)
ALICE = Identity(1000, 1000, "alice", "users")
SCRIPT = "#!/bin/sh\n#$ -S /bin/sh\necho starting\nsleep 60\necho done\n"
ENV = {
    "SGE_O_HOME": "/home/alice",
    "SGE_O_PATH": "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/home/alice/bin",
    "SGE_O_SHELL": "/bin/bash",
    "SGE_O_WORKDIR": "/home/alice/work",
    "SGE_O_HOST": "submit1",
    "SGE_O_LOGNAME": "alice",
}


def wire_spec(n: int) -> str:
    """The JSON text of the ``n``-th job's submit arguments."""
    spec = {
        "CMDNAME": "job.sh",
        "CMDARGS": [],
        "script": SCRIPT,
        "N": f"job{n % 50}",
        "cwd": "/home/alice/work",
        "v": ENV,
        "l_hard": {"h_rt": str(600 * (1 + n % 5))},
    }
    return json.dumps({"job": spec, "verify": "n"})


def make_core() -> Core:
    config = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    for attr in ("max_u_jobs", "max_jobs"):
        config.global_conf.attrs[attr] = "0"
        config.global_conf.__dict__.pop(attr, None)
    return Core(config, CoreSettings(admins=frozenset({"root"})))


def submit_all(core: Core, texts: Iterable[str]) -> None:
    for text in texts:
        out = core.handle(parse(ALICE, "submit", json.loads(text)), T0)
        if any(a.is_error for a in out.answers):
            raise RuntimeError(out.answers[0].text)


def deep_bytes(roots: Iterable[Any]) -> int:
    """Bytes of every object reachable from ``roots`` (through containers and slots), once."""
    seen: set[int] = set()
    total = 0
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple):
            stack.extend(obj)
        elif hasattr(type(obj), "__slots__"):
            stack.extend(getattr(obj, s) for s in type(obj).__slots__)
    return total


def measure(n: int) -> dict[str, float]:
    texts = [wire_spec(i) for i in range(n)]
    gc.collect()
    core = make_core()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    submit_all(core, texts)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    spec = deep_bytes(job.spec for job in core.jobs.values())
    rows = [json.dumps(job.to_row()) for job in core.jobs.values()]
    del core
    return {
        "bytes/job": held / n,
        "spec bytes/job": spec / n,
        "submit µs/job": _best_submit(texts[:TIMED]) / min(n, TIMED) * 1e6,
        "recover µs/job": _best_recovery(rows) / n * 1e6,
    }


def _best_recovery(rows: list[str], repeat: int = 3) -> float:
    """The least CPU time of ``repeat`` recoveries of these spooled job rows, decoded as
    the spool decodes them (shared strings), garbage collector off as the daemon has it."""
    best = float("inf")
    base = make_core()
    for _ in range(repeat):
        decode = SharedStrings().decode
        gc.collect()
        gc.disable()
        started = time.process_time()
        core = Core.recover(base.config, base.settings, map(decode, rows), [], {}, T0)
        best = min(best, time.process_time() - started)
        gc.enable()
        del core
    return best


def _best_submit(texts: list[str], repeat: int = 5) -> float:
    """The least CPU time of ``repeat`` submissions of ``texts``, each to a fresh core."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        core = make_core()
        started = time.process_time()
        submit_all(core, texts)
        best = min(best, time.process_time() - started)
    return best


def rss(n: int) -> dict[str, float]:
    core = make_core()
    submit_all(core, (wire_spec(i) for i in range(n)))
    gc.collect()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"jobs": len(core.jobs), "peak RSS MiB": peak_kib / 1024}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.spec_bench")
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--rss", action="store_true", help="only the peak RSS")
    args = parser.parse_args(argv)
    figures = rss(args.jobs) if args.rss else measure(args.jobs)
    print(f"{args.jobs:,} pending jobs (in-process core):")
    for name, value in figures.items():
        print(f"  {name:>16}: {value:,.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
