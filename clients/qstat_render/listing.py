"""qstat's listings with the optional parts: columns, ``-r`` blocks, ``-F`` values, ``-explain``.

The plain layouts stay in :mod:`clients.qstat_render.text`; this module adds,
as Grid Engine's stdout handler does, the ``-F`` lines (``\\thl:name=value``)
and the ``-explain`` reasons (``\\t<reason>``) under each queue line, the job
columns of :mod:`clients.qstat_render.columns`, and each job's ``-r`` block
under its line. With ``-ext`` the queue dash lines grow by 108 dashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.qstat_render.columns import Layout, header, job_line_list, job_lines
from clients.qstat_render.requirements import render_requirements
from clients.qstat_render.text import finished_banner, pending_banner, queue_header, queue_line

Row = dict[str, Any]
_EXT_RULE = "-" * 108


def job_block(rows: Sequence[Row], lay: Layout) -> str:
    """Job lines, each followed by its ``-r`` block."""
    if not any(r.get("requirements") for r in rows):
        return job_lines(rows, lay)
    parts = []
    for row, line in zip(rows, job_line_list(rows, lay), strict=True):
        parts.append(line)
        if row.get("requirements"):
            parts.append(render_requirements(row["requirements"]))
    return "".join(parts)


def render_list(rows: Sequence[Row], lay: Layout) -> str:
    """The listing without ``-f``: running rows first, then pending ones."""
    if not rows:
        return ""
    ordered = [r for r in rows if r.get("queue")] + [r for r in rows if not r.get("queue")]
    return header(lay) + job_block(ordered, lay)


def queue_block(queue: Row, ext: bool) -> str:
    """A queue line with its ``-explain`` reasons and ``-F`` values."""
    line = queue_line(queue)
    if ext:
        rule, _, rest = line.partition("\n")
        line = rule + _EXT_RULE + "\n" + rest
    for reason in queue.get("explain") or []:
        line += f"\t{reason}\n"
    for res in queue.get("resources") or []:
        line += f"\t{res['dom']}:{res['name']}={res['value']}\n"
    return line


def render_full_listing(queues: Sequence[Row], rows: Sequence[Row], lay: Layout) -> str:
    """``-f``/``-F``: queue blocks with their jobs, then pending and finished jobs."""
    parts: list[str] = [queue_header()] if queues else []
    for queue in queues:
        parts.append(queue_block(queue, lay.ext))
        parts.append(job_block([r for r in rows if r.get("queue") == queue["name"]], lay))
    pending = [r for r in rows if not r.get("queue") and r.get("state") != "z"]
    if pending:
        parts.append(pending_banner(lay.ext))
        parts.append(job_block(pending, lay))
    finished = [r for r in rows if r.get("state") == "z"]
    if finished:
        parts.append(finished_banner(lay.ext))
        parts.append(job_block(finished, lay))
    return "".join(parts)


def render_full(queues: Sequence[Row], rows: Sequence[Row]) -> str:
    """Plain ``qstat -f``."""
    return render_full_listing(queues, rows, Layout(full=True))
