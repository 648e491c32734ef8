"""The simulator's cell: ``HOSTS`` hosts × ``SLOTS`` slots and gen_swf.py's three queues.

Made from the project's ``conf/``: every host has ``complex_values slots=N``
(so the three queues on it share its cores), ``all.q``, ``short.q`` (``h_rt``
at most an hour) and ``long.q`` on ``@allhosts``, sorted by sequence number,
no load thresholds and no load adjustments (a replay's hosts report no load),
and the PE ``mpi`` (``$fill_up``) for multi-slot jobs. ``max_reservation``
and the cell's ``sge_request`` (``-R y`` for backfilling) are parameters.
``examples/sim/cell`` is this cell with 4 hosts (``python -m bench.sim_cell``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.sim.pointcell import set_key

QUEUES = (("all.q", 0, "INFINITY"), ("short.q", 1, "1:0:0"), ("long.q", 2, "INFINITY"))


def set_value(path: Path, key: str, value: str) -> None:
    """Replace one ``key value`` line of a configuration file (continuations dropped)."""
    path.write_text(set_key(path.read_text(), key, value, width=21))


def _exechost(name: str, slots: int, mem_gb: int) -> str:
    return (
        f"hostname              {name}\n"
        "load_scaling          NONE\n"
        f"complex_values        slots={slots}\n"
        f"load_values           arch=lx-amd64,num_proc={slots},mem_total={mem_gb}G,"
        f"swap_total=2G,virtual_total={mem_gb + 2}G\n"
        f"processors            {slots}\n"
        "user_lists            NONE\n"
        "xuser_lists           NONE\n"
        "projects              NONE\n"
        "xprojects             NONE\n"
        "usage_scaling         NONE\n"
        "report_variables      NONE\n"
    )


def write_cell(
    dest: Path,
    hosts: int = 128,
    slots: int = 8,
    mem_gb: int = 32,
    *,
    max_reservation: int = 0,
    reserve: bool = False,
) -> Path:
    """The cell's configuration folder at ``dest`` (replaced if it exists)."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(DEFAULT_CONF_DIR, dest)
    names = [f"node{n:04d}" for n in range(1, hosts + 1)]
    shutil.rmtree(dest / "exechosts")
    (dest / "exechosts").mkdir()
    for name in names:
        (dest / "exechosts" / name).write_text(_exechost(name, slots, mem_gb))
    (dest / "hostgroups" / "@allhosts").write_text(
        f"group_name @allhosts\nhostlist   {' '.join(names)}\n"
    )
    template = dest / "cqueues" / "all.q"
    for name, seq_no, h_rt in QUEUES:
        path = dest / "cqueues" / name
        if path != template:
            shutil.copy(template, path)
        for key, value in (
            ("qname", name),
            ("seq_no", str(seq_no)),
            ("slots", str(slots)),
            ("load_thresholds", "NONE"),
            ("pe_list", "mpi"),
            ("h_rt", h_rt),
        ):
            set_value(path, key, value)
    set_value(dest / "pe" / "mpi", "slots", str(hosts * slots))
    sched = dest / "sched_configuration"
    for key, value in (
        ("queue_sort_method", "seqno"),
        ("job_load_adjustments", "NONE"),
        ("load_adjustment_decay_time", "0:0:0"),
        ("schedd_job_info", "false"),
        ("max_reservation", str(max_reservation)),
    ):
        set_value(sched, key, value)
    request = "-R y\n" if reserve else ""
    (dest / "sge_request").write_text(
        "# default submit options of every job replayed on this cell\n" + request
    )
    return dest


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("examples/sim/cell")
    write_cell(target, hosts=4)
    print(f"wrote {target}")
