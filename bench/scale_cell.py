"""The scale benchmark's cell and workload: 1,000 simulated hosts × 8 slots, ~50 job categories.

The cell is the project's ``conf/`` with its four hosts replaced by ``HOSTS``
hosts of ``SLOTS`` slots each (``@allhosts``, and ten ``@rackN`` groups of a
hundred), ``all.q`` on all of them without load thresholds (so every slot can
be filled), five projects and ``schedule_interval 0:0:1``.

The workload: first ``HOSTS × SLOTS`` one-slot "runner" jobs that run for
``RUNTIME`` seconds and fill every slot; then the pending jobs, which the
scheduler considers on every pass but cannot start because no slot is free.
They come in ``len(CATEGORIES)`` categories (``-l``, ``-q``, ``-pe`` and ``-P``
requests) and one in ``ARRAY_EVERY`` is an array job of ``ARRAY_TASKS`` tasks.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from bench.common import bench_conf, set_conf_value

HOSTS = 1_000
SLOTS = 8
RACKS = 10
PROJECTS = tuple(f"proj{n}" for n in range(5))
RUNTIME = "1000000"
ARRAY_EVERY = 100
ARRAY_TASKS = 20
SCHEDULE_INTERVAL = "0:0:1"

#: Request variants, each combined with every project: 10 × 5 = 50 categories.
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"l_hard": {"arch": "lx-amd64"}},
    {"l_hard": {"h_rt": "100:0:0"}},
    {"l_hard": {"mem_free": "1G"}},
    {"q_hard": ["all.q"]},
    {"q_hard": ["all.q@@rack3"]},
    {"pe_name": "make", "pe_min": 2, "pe_max": 2},
    {"pe_name": "mpi", "pe_min": 4, "pe_max": 4},
    {"l_hard": {"h_rt": "200:0:0", "arch": "lx-amd64"}},
    {"l_hard": {"h_vmem": "2G"}, "q_hard": ["all.q@@rack7"]},
)
CATEGORIES = len(VARIANTS) * len(PROJECTS)


def host_name(n: int) -> str:
    return f"node{n:04d}"


def _exechost(name: str) -> str:
    return (
        f"hostname              {name}\n"
        "load_scaling          NONE\n"
        "complex_values        NONE\n"
        f"load_values           arch=lx-amd64,num_proc={SLOTS},mem_total=32G,"
        "swap_total=2G,virtual_total=34G\n"
        f"processors            {SLOTS}\n"
        "user_lists            NONE\n"
        "xuser_lists           NONE\n"
        "projects              NONE\n"
        "xprojects             NONE\n"
        "usage_scaling         NONE\n"
        "report_variables      NONE\n"
    )


def _hostgroup(name: str, hosts: list[str]) -> str:
    return f"group_name {name}\nhostlist   {' '.join(hosts)}\n"


def write_conf(dest: Path) -> Path:
    """The benchmark's configuration folder at ``dest`` (created from ``conf/``)."""
    bench_conf(dest, SCHEDULE_INTERVAL)
    names = [host_name(n) for n in range(HOSTS)]
    shutil.rmtree(dest / "exechosts")
    (dest / "exechosts").mkdir()
    for name in names:
        (dest / "exechosts" / name).write_text(_exechost(name))
    shutil.rmtree(dest / "hostgroups")
    (dest / "hostgroups").mkdir()
    (dest / "hostgroups" / "allhosts").write_text(_hostgroup("@allhosts", names))
    per_rack = HOSTS // RACKS
    for r in range(RACKS):
        rack = names[r * per_rack : (r + 1) * per_rack]
        (dest / "hostgroups" / f"rack{r}").write_text(_hostgroup(f"@rack{r}", rack))
    queue = dest / "cqueues" / "all.q"
    set_conf_value(queue, "slots", str(SLOTS))
    set_conf_value(queue, "load_thresholds", "NONE")
    (dest / "projects").mkdir(exist_ok=True)
    for project in PROJECTS:
        (dest / "projects" / project).write_text(
            f"name    {project}\noticket 0\nfshare  0\nacl     NONE\nxacl    NONE\n"
        )
    return dest


def runner_spec() -> dict[str, Any]:
    """A one-slot job that runs (and holds its slot) for the whole benchmark."""
    return {"CMDNAME": "sleep", "CMDARGS": [RUNTIME], "b": True, "N": "runner"}


def pending_spec(n: int) -> dict[str, Any]:
    """The ``n``-th pending job: its category cycles through the 50, one in 100 is an array."""
    spec: dict[str, Any] = {"CMDNAME": "sleep", "CMDARGS": [RUNTIME], "b": True, "N": "waiter"}
    spec.update(VARIANTS[n % len(VARIANTS)])
    spec["P"] = PROJECTS[(n // len(VARIANTS)) % len(PROJECTS)]
    if n % ARRAY_EVERY == ARRAY_EVERY - 1:
        spec.update(t_min=1, t_max=ARRAY_TASKS, t_step=1)
    return spec


def tasks_of(jobs: int) -> int:
    """Pending tasks in the first ``jobs`` pending jobs."""
    arrays = jobs // ARRAY_EVERY
    return jobs - arrays + arrays * ARRAY_TASKS
