"""``qstat -xml``: Grid Engine's ``job_info`` document, with text escaped properly.

Running jobs sit in ``queue_info`` (inside their ``Queue-List`` with ``-f``),
pending ones in the inner ``job_info``; each is a ``job_list`` element whose
``state`` attribute is ``running`` or ``pending``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from clients.qstat_render.times import xml_time
from clients.qstat_render.xml_extras import (
    priority_fields,
    project_fields,
    queue_extras,
    render_cluster_xml,
    requirement_fields,
    usage_fields,
)

__all__ = ["render_cluster_xml", "render_xml"]

SCHEMA = (
    "http://gridengine.sunsource.net/source/browse/*checkout*/gridengine/source/dist/"
    "util/resources/schemas/qstat/qstat.xsd?revision=1.11"
)

Row = dict[str, Any]


def _element(indent: int, name: str, value: object) -> str:
    return f"{' ' * indent}<{name}>{escape(str(value))}</{name}>\n"


def job_element(row: Row, indent: int, full: bool = False) -> str:
    """One ``job_list`` element, its fields in the order of ``qstat_xml_job``."""
    running = bool(row.get("queue"))
    pad = indent + 2
    kind = "running" if running else "zombie" if row.get("state") == "z" else "pending"
    parts = [f"{' ' * indent}<job_list state={quoteattr(kind)}>\n"]
    parts.append(_element(pad, "JB_job_number", row["job_id"]))
    parts.append(_element(pad, "JAT_prio", f"{float(row['prior']):.5f}"))
    parts.extend(priority_fields(row, pad))
    parts.append(_element(pad, "JB_name", row["name"]))
    parts.append(_element(pad, "JB_owner", row["owner"]))
    parts.extend(project_fields(row, pad))
    parts.append(_element(pad, "state", row["state"]))
    if running and row.get("start_time") is not None:
        parts.append(_element(pad, "JAT_start_time", xml_time(float(row["start_time"]))))
    else:
        parts.append(_element(pad, "JB_submission_time", xml_time(float(row["submit_time"]))))
    parts.extend(usage_fields(row, pad))
    if not full:
        parts.append(_element(pad, "queue_name", row.get("queue") or ""))
    if "master" in row:
        parts.append(_element(pad, "master", row.get("master") or ""))
    parts.append(_element(pad, "slots", row["slots"]))
    if row.get("tasks"):
        parts.append(_element(pad, "tasks", row["tasks"]))
    if row.get("requirements"):
        parts.extend(requirement_fields(row["requirements"], pad))
    parts.append(f"{' ' * indent}</job_list>\n")
    return "".join(parts)


def queue_element(queue: Row, rows: Sequence[Row], indent: int) -> str:
    """One ``Queue-List`` element of ``-f`` with the jobs running in it."""
    pad = indent + 2
    parts = [f"{' ' * indent}<Queue-List>\n", _element(pad, "name", queue["name"])]
    parts.append(_element(pad, "qtype", queue["qtype"]))
    parts.append(_element(pad, "slots_used", queue["used"]))
    parts.append(_element(pad, "slots_resv", queue["resv"]))
    parts.append(_element(pad, "slots_total", queue["total"]))
    if queue.get("load_avg") is not None:
        parts.append(_element(pad, "load_avg", f"{float(queue['load_avg']):.5f}"))
    if queue.get("arch"):
        parts.append(_element(pad, "arch", queue["arch"]))
    if queue.get("states"):
        parts.append(_element(pad, "state", queue["states"]))
    parts.extend(queue_extras(queue, pad))
    parts += [job_element(r, pad, True) for r in rows if r.get("queue") == queue["name"]]
    parts.append(f"{' ' * indent}</Queue-List>\n")
    return "".join(parts)


def render_xml(rows: Sequence[Row], queues: Sequence[Row] | None = None) -> str:
    """The whole document; ``queues`` is given with ``-f``."""
    if queues is None:
        running = "".join(job_element(r, 4) for r in rows if r.get("queue"))
    else:
        running = "".join(queue_element(q, rows, 4) for q in queues)
    pending = "".join(job_element(r, 4, queues is not None) for r in rows if not r.get("queue"))
    return (
        "<?xml version='1.0'?>\n"
        f"<job_info  xmlns:xsd={quoteattr(SCHEMA)}>\n"
        f"  <queue_info>\n{running}  </queue_info>\n"
        f"  <job_info>\n{pending}  </job_info>\n"
        "</job_info>\n"
    )
