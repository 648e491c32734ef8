"""``python -m bench.array_bench`` — a 1,000,000-task array job on the in-process core.

On the default cell (4 hosts, 16 slots) with ``max_aj_tasks 0``, it times
``qsub -t 1-1000000``, the scheduling pass that dispatches its first 16 tasks,
``qstat`` (the job list) and ``qstat -j``, and the recovery of the spooled rows;
and takes the peak memory (tracemalloc) of the whole sequence. The baseline,
measured in the same run, is the same sequence with a 1,000-task array: a
pending array costs its ranges, not its tasks, so the ratios stay near 1.
Each figure is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from bench.common import Row, print_table
from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome, SpoolDelta
from qmaster.stimuli_wire import parse

BIG = 1_000_000
SMALL = 1_000
T0 = 1_767_225_600.0
ALICE = Identity(1000, 1000, "alice", "users")
STEPS = ("submit", "pass", "qstat", "qstat -j", "recovery")


def _core() -> Core:
    config = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    config.global_conf.attrs["max_aj_tasks"] = "0"
    config.global_conf.__dict__.pop("max_aj_tasks", None)
    return Core(config, CoreSettings(admins=frozenset({"root"})))


def _call(core: Core, op: str, **args: Any) -> Outcome:
    return core.handle(parse(ALICE, op, args), T0)


def _sequence(tasks: int) -> tuple[dict[str, float], int]:
    """Seconds per step for one array of ``tasks`` tasks, and what stayed pending."""
    core = _core()
    spooled = SpoolDelta()
    job = {"CMDNAME": "sleep", "CMDARGS": ["1000"], "b": True, "t_min": 1, "t_max": tasks}
    steps: dict[str, Callable[[], object]] = {
        "submit": lambda: spooled.merge(_call(core, "submit", job=job).spool),
        "pass": lambda: spooled.merge(core.tick(T0).spool),
        "qstat": lambda: _call(core, "job_list", users=["*"]),
        "qstat -j": lambda: _call(core, "job_detail", job_ids=["1"]),
        "recovery": lambda: _recover(core, spooled),
    }
    seconds: dict[str, float] = {}
    for name, step in steps.items():
        start = time.perf_counter()
        step()
        seconds[name] = time.perf_counter() - start
    return seconds, len(core.jobs[1].pending)


def _recover(core: Core, spooled: SpoolDelta) -> Core:
    jobs = [r for r in spooled.jobs.values() if r is not None]
    tasks = [{**r, "job_id": j} for (j, _), r in spooled.tasks.items() if r is not None]
    return Core.recover(core.config, core.settings, jobs, tasks, spooled.counters, T0 + 1)


def _best(tasks: int, repeat: int) -> tuple[dict[str, float], int]:
    runs = []
    for _ in range(repeat):
        gc.collect()
        runs.append(_sequence(tasks))
    pending = runs[0][1]
    return {s: min(r[0][s] for r in runs) * 1000 for s in STEPS}, pending


def _peak(tasks: int) -> float:
    """KiB held at most while the whole sequence runs."""
    gc.collect()
    tracemalloc.start()
    try:
        _sequence(tasks)
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def run(repeat: int) -> list[Row]:
    big, pending = _best(BIG, repeat)
    small, _ = _best(SMALL, repeat)
    print(f"qsub -t 1-{BIG}: {BIG - pending} tasks dispatched in the pass, {pending} pending")
    rows = [
        Row(f"{step} (1M tasks)", big[step], "ms", small[step], "1k tasks", "<= 2x the 1k array",
            big[step] <= 2 * small[step] + 1.0)
        for step in STEPS
    ]  # fmt: skip
    first = ("submit", "pass", "qstat")
    total, total_small = sum(big[s] for s in first), sum(small[s] for s in first)
    rows.append(Row("submit + pass + qstat (1M)", total, "ms", total_small, "1k tasks"))
    peak, peak_small = _peak(BIG), _peak(SMALL)
    rows.append(
        Row("peak memory (1M)", peak, "KiB", peak_small, "1k tasks", "< 8 MiB", peak < 8 * 1024)
    )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(prog="python -m bench.array_bench")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print_table("a 1,000,000-task array job (in-process core)", run(args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
