"""``qstat -g c``: the cluster queue summary, as ``cqueue_summary_stdout_report_*`` prints it.

Header ``CLUSTER QUEUE CQLOAD USED RES AVAIL TOTAL aoACDS cdsuE`` (queue name
in 30 columns, then ``%7s %6s...``), a dash line of 80 (plus 66 with
``-ext``, which adds one ``%5d`` column per queue state ``s A S C u a d D c o
E``), then one line per cluster queue; the load is ``%7.2f`` or ``-NA-``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

EXT_STATES = "sASCuadDcoE"


def render_cluster(cqueues: Sequence[dict[str, Any]], ext: bool = False, width: int = 30) -> str:
    """The whole summary (header even without cluster queues)."""
    head = f"{'CLUSTER QUEUE':<{width}.{width}} "
    head += f"{'CQLOAD':>7} {'USED':>6} {'RES':>6} {'AVAIL':>6} {'TOTAL':>6} {'aoACDS':>6} "
    head += f"{'cdsuE':>6}  "
    if ext:
        head += " ".join(f"{s:>5}" for s in EXT_STATES)
    dashes = 80 + (66 if ext else 0) + max(0, width - 36)
    lines = [head, "-" * dashes]
    for cq in cqueues:
        load = cq.get("load")
        line = f"{cq['name']:<{width}.{width}} "
        line += f"{float(load):7.2f} " if load is not None else f"{'-NA-':>7} "
        for key in ("used", "resv", "available", "total", "aoACDS", "cdsuE"):
            line += f"{int(cq[key]):6d} "
        if ext:
            states = cq.get("states") or {}
            line += "".join(f"{int(states.get(s, 0)):5d} " for s in EXT_STATES)
        lines.append(line)
    return "\n".join(lines) + "\n"
