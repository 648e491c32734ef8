"""``python -m bench.tick_bench`` — ``Core.tick`` end to end on a loaded core.

The cell: 1,000 simulated hosts × 8 slots (``all.q``), every slot busy with a
running job whose end is staggered one second apart, and ``--jobs`` pending
jobs in 50 categories behind them (recovered from spool rows, as the daemon
does after a restart). Two figures per size, each next to a baseline measured
in the same process on the same core:

- an **idle tick**: the scheduling interval has come and nothing changed. The
  baseline is the same tick with a forced pass on a view built as every pass
  built it before (levels parsed from the configuration, every pending job
  walked and copied with its tasks, all of them sorted), which is what every
  tick cost before.
- a **tick after one job finishes**: its end timer fires, its slot is freed
  and the pass dispatches one pending job. The baseline is the same tick with
  that full pass.

The idle CPU share is the idle tick's time over the ``schedule_interval``
(one second by default). Targets (issue 11): a pass after one job finishes
≤ 50 ms, idle ≤ 5 % CPU.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common import Row, print_table
from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, lifecycle
from qmaster.core.schedstate import force_full_pass, scratch_view

HOSTS = 1_000
SLOTS = 8
CATEGORIES = 50
SIZES = (10_000, 100_000)
T0 = 1_767_225_600.0
OWNER = [1000, 1000, "alice", "users", "localhost"]
HOST_TEXT = """hostname              {name}
load_scaling          NONE
complex_values        NONE
load_values           arch=lx-amd64,num_proc={slots},mem_total=64G,swap_total=2G, \\
                      virtual_total=66G
processors            {slots}
user_lists            NONE
xuser_lists           NONE
projects              NONE
xprojects             NONE
usage_scaling         NONE
report_variables      NONE
"""


def config(hosts: int = HOSTS) -> ClusterConfig:
    """The default cell with ``hosts`` execution hosts of ``SLOTS`` slots in ``all.q``."""
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(shutil.copytree(DEFAULT_CONF_DIR, Path(tmp) / "conf"))
        for old in (conf / "exechosts").iterdir():
            old.unlink()
        names = [f"node{i:04d}" for i in range(hosts)]
        for name in names:
            (conf / "exechosts" / name).write_text(HOST_TEXT.format(name=name, slots=SLOTS))
        (conf / "hostgroups" / "@allhosts").write_text(
            "group_name @allhosts\nhostlist   " + " ".join(names) + "\n"
        )
        queue = conf / "cqueues" / "all.q"
        lines = [
            f"slots                 {SLOTS}" if line.startswith("slots ") else line
            for line in queue.read_text().splitlines()
        ]
        queue.write_text("\n".join(lines) + "\n")
        return ClusterConfig.load_dir(conf)


def _spec(i: int, runtime: float) -> dict[str, Any]:
    c = i % CATEGORIES
    return {
        "CMDNAME": "job.sh",
        "CMDARGS": [str(runtime)],
        "l_hard": {"h_rt": str(3600 * (1 + c)), "arch": "lx-amd64" if c % 2 else "lx*"},
    }


def _job_row(job_id: int, spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "job_id": job_id,
        "owner": OWNER,
        "submit_time": T0 - 10,
        "spec": spec,
        "array": None,
        "hold": "",
        "verify_wait": None,
        "restarted": [],
    }


def loaded_core(pending: int, hosts: int = HOSTS) -> Core:
    """Every slot busy (ends one second apart from T0+100) and ``pending`` jobs waiting."""
    conf = config(hosts)
    jobs: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    job_id = 0
    for h in range(hosts):
        for _ in range(SLOTS):
            job_id += 1
            jobs.append(_job_row(job_id, _spec(job_id, 100.0 + job_id)))
            tasks.append(
                {
                    "job_id": job_id,
                    "task_id": 0,
                    "state": "RUNNING",
                    "assignment": [[f"all.q@node{h:04d}", 1]],
                    "dispatch_time": T0 - 5,
                    "start_time": T0,
                    "end_time": None,
                    "exit_status": 0,
                    "failed": 0,
                    "message": "",
                    "plan": [T0 + 100.0 + job_id, 0, 0],
                }
            )
    for _ in range(pending):
        job_id += 1
        jobs.append(_job_row(job_id, _spec(job_id, 100_000.0)))
    core = Core.recover(conf, CoreSettings(), jobs, tasks, {"job": job_id + 1}, T0)
    core.tick(T0)  # calendars, the first pass
    return core


def _tick(core: Core, now: float, *, full: bool = False) -> float:
    """Milliseconds of one ``core.tick(now)``; ``full``: the baseline, a pass that builds
    its view from scratch over every pending job, as every pass did before."""
    kept = vars(lifecycle)["pass_view"]
    if full:
        force_full_pass(core)
        full_view = lambda c, at: (scratch_view(c, at, kept_requests=True), None)  # noqa: E731
        setattr(lifecycle, "pass_view", full_view)  # noqa: B010
    gc.collect()
    try:
        start = time.perf_counter()
        core.tick(now)
        return (time.perf_counter() - start) * 1000.0
    finally:
        setattr(lifecycle, "pass_view", kept)  # noqa: B010


def measure(pending: int, hosts: int = HOSTS, repeat: int = 3) -> list[Row]:
    """Idle tick and tick after one job ends, incremental against a forced full pass."""
    started = time.perf_counter()
    core = loaded_core(pending, hosts)
    setup = time.perf_counter() - started
    now = T0 + 1.0
    idle: list[float] = []
    full_idle: list[float] = []
    for _ in range(repeat):
        now += 1.0
        idle.append(_tick(core, now))
        now += 1.0
        full_idle.append(_tick(core, now, full=True))
    ended: list[float] = []
    full_ended: list[float] = []
    end_at = T0 + 101.0  # job 1 ends at T0+101, job 2 at T0+102, ...
    for n in range(repeat * 2):
        end_at += 1.0
        took = _tick(core, end_at, full=bool(n % 2))
        (full_ended if n % 2 else ended).append(took)
    running = sum(1 for j in core.jobs.values() if j.tasks)
    print(
        f"{pending:,} pending jobs, {hosts * SLOTS:,} slots ({running:,} running), "
        f"core built in {setup:.1f} s"
    )
    tick_idle, tick_full = min(idle), min(full_idle)
    end, end_full = min(ended), min(full_ended)
    interval = core.config.sched_conf.schedule_interval or 1.0
    cpu = tick_idle / (interval * 1000.0) * 100.0
    return [
        Row(f"idle tick, {pending:,} pending", tick_idle * 1000, "µs", tick_full * 1000,
            "full pass"),
        Row(f"idle CPU, {pending:,} pending", cpu, "%", tick_full / (interval * 10.0),
            "full pass", "<= 5 %", cpu <= 5.0),
        Row(f"tick after one job ends, {pending:,}", end, "ms", end_full, "full pass",
            "<= 50 ms", end <= 50.0),
    ]  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark at each size and print its table."""
    parser = argparse.ArgumentParser(prog="python -m bench.tick_bench")
    parser.add_argument("--jobs", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--hosts", type=int, default=HOSTS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    for size in args.jobs:
        rows.extend(measure(size, args.hosts, args.repeat))
    print_table(f"core.tick end to end ({args.hosts:,} hosts x {SLOTS} slots)", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
