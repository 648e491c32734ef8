"""``python -m bench.ar_bench`` — granting advance reservations, and scheduling beside them.

The cell: 1,000 execution hosts with one queue instance each (``all.q``, 4
slots), 1,000 granted ARs of 1 to 4 slots, each on its own queue instance,
their windows spread over the next day (a tenth of them open now). Figures,
all from the same run:

- granting one more AR (1 slot, 1 hour, a random start within the day)
  through the core's ``ar_submit`` handler, median of many, against the same
  grant in the same cell without ARs; target ≤ 5 ms median;
- one scheduling pass (view assembly and the pass) over 2,000 pending jobs
  with ``h_rt`` with the ARs present, against the same pass in the same cell
  without ARs; target ≤ 2× the pass without ARs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from bench.common import Row, print_table
from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity
from qmaster.core.view import build_view
from qmaster.stimuli_wire import parse
from schedd import schedule

ROOT = Identity(0, 0, "root", "root")
T0 = 1_767_225_600.0
HOUR = 3600.0
HOSTS = 1000

_HOST = """hostname              {name}
load_scaling          NONE
complex_values        NONE
load_values           arch=lx-amd64,num_proc=4,load_avg=0.00,np_load_avg=0.00
processors            0
user_lists            NONE
xuser_lists           NONE
projects              NONE
xprojects             NONE
usage_scaling         NONE
report_variables      NONE
"""


def cell(hosts: int = HOSTS) -> ClusterConfig:
    """The default configuration with ``hosts`` hosts of 4 slots and no AR limit."""
    rows = [r for r in ClusterConfig.load_dir(DEFAULT_CONF_DIR).to_rows() if r[0] != "exechost"]
    names = [f"node{i:04d}" for i in range(hosts)]
    out = [(kind, name, _edit(kind, name, text, names)) for kind, name, text in rows]
    out += [("exechost", n, _HOST.format(name=n)) for n in names]
    out.append(("exechost", "global", _HOST.format(name="global")))
    return ClusterConfig.from_rows(out)


def _edit(kind: str, name: str, text: str, hosts: list[str]) -> str:
    if kind == "hostgroup" and name == "@allhosts":
        return f"group_name @allhosts\nhostlist   {' '.join(hosts)}\n"
    if kind == "cqueue":
        lines = text.splitlines()
        return "\n".join("slots 4" if ln.startswith("slots ") else ln for ln in lines) + "\n"
    if kind == "global":
        return text.replace("max_advance_reservations     10", "max_advance_reservations 0")
    return text


def fresh(config: ClusterConfig) -> Core:
    return Core(ClusterConfig.from_rows(config.to_rows()), CoreSettings())


def _ar(core: Core, now: float, **spec: object) -> bool:
    out = core.handle(parse(ROOT, "ar_submit", {"ar": spec}), now)
    return not out.answers[0].is_error


def fill(core: Core, n: int, rng: random.Random) -> None:
    """``n`` ARs, one per queue instance, their windows spread over a day."""
    for i in range(n):
        start = T0 + 10 if i % 10 == 0 else T0 + rng.uniform(600, 24 * HOUR)
        slots = rng.randint(1, 4)
        spec: dict[str, object] = {"a": start, "d": rng.choice([HOUR, 2 * HOUR, 4 * HOUR])}
        spec["q_hard"] = [f"all.q@node{i:04d}"]
        if slots > 1:
            spec.update(pe_name="mpi", pe_min=slots, pe_max=slots)
        assert _ar(core, T0, **spec), f"AR {i} not granted"


def grant_times(core: Core, n: int, rng: random.Random) -> list[float]:
    """Seconds per grant of one more AR (a new core state each time: the grant stays)."""
    times: list[float] = []
    for _ in range(n):
        spec = {"a": T0 + rng.uniform(600, 24 * HOUR), "d": HOUR}
        began = time.perf_counter()
        _ar(core, T0, **spec)
        times.append(time.perf_counter() - began)
    return times


def submit_jobs(core: Core, n: int) -> None:
    for i in range(n):
        job = {"CMDNAME": "job.sh", "CMDARGS": ["600"], "l_hard": {"h_rt": f"{600 + i % 7}"}}
        core.handle(parse(ROOT, "submit", {"job": job}), T0)


def pass_time(core: Core, repeat: int) -> float:
    """Median seconds of assembling the view and running one pass (nothing applied)."""
    times: list[float] = []
    for _ in range(repeat):
        began = time.perf_counter()
        schedule(build_view(core, T0 + 20), T0 + 20)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def run(grants: int, jobs: int, repeat: int, hosts: int) -> list[Row]:
    rng = random.Random(7)
    config = cell(hosts)
    with_ars, without = fresh(config), fresh(config)
    fill(with_ars, hosts, rng)
    for core in (with_ars, without):
        submit_jobs(core, jobs)
    p_base, p_ars = pass_time(without, repeat), pass_time(with_ars, repeat)
    base = statistics.median(grant_times(without, grants, random.Random(1)))
    loaded = statistics.median(grant_times(with_ars, grants, random.Random(1)))
    return [
        Row(f"grant one more AR beside {hosts:,} ARs (median)", loaded * 1e3, "ms",
            base * 1e3, "no ARs", "<= 5 ms", loaded * 1e3 <= 5.0),
        Row(f"scheduling pass, {jobs:,} jobs, {hosts:,} ARs", p_ars * 1e3, "ms",
            p_base * 1e3, "no ARs", "<= 2x", p_ars <= 2 * p_base),
    ]  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table; exit 0 (targets are reported, not enforced)."""
    parser = argparse.ArgumentParser(prog="python -m bench.ar_bench", description=__doc__)
    parser.add_argument("--grants", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--hosts", type=int, default=HOSTS)
    args = parser.parse_args(argv)
    print_table("advance reservations", run(args.grants, args.jobs, args.repeat, args.hosts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
