"""What ``-ext``/``-pri``/``-urg``/``-r``/``-F``/``-explain``/``-g c`` add to ``qstat -xml``.

Element names are those of Grid Engine's ``qstat_xml.c``: ``JB_nurg``,
``JB_nppri``, ``JAT_ntix``, ``JB_urg``, ``JB_rrcontr``, ``JB_wtcontr``,
``JB_dlcontr``, ``JB_priority``, ``JB_project``, ``JB_department``,
``JB_deadline``, the ticket counts and ``JAT_share``; ``-r`` adds
``full_job_name``, ``master_queue``, ``requested_pe``, ``granted_pe``,
``hard_request`` (with ``resource_contribution``), ``soft_request``,
``hard_req_queue``, ``soft_req_queue``, ``predecessor_jobs_req`` and
``predecessor_jobs``; ``-F`` one ``resource`` element per value (``name`` and
``type`` attributes); ``-explain a`` the ``load-alarm-reason`` elements.
``-g c`` writes one ``cluster_queue_summary`` per cluster queue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from clients.qstat_render.times import xml_time

Row = dict[str, Any]

_NUMBERS = (
    ("nurg", "JB_nurg"), ("npprior", "JB_nppri"), ("ntckts", "JAT_ntix"), ("urg", "JB_urg"),
    ("rrcontr", "JB_rrcontr"), ("wtcontr", "JB_wtcontr"), ("dlcontr", "JB_dlcontr"),
)  # fmt: skip
_TICKETS = (
    ("tickets", "tickets"), ("override_tickets", "JB_override_tickets"),
    ("otickets", "otickets"), ("ftickets", "ftickets"), ("stickets", "stickets"),
)  # fmt: skip
_EXT_STATES = (
    ("s", "suspend_manual"), ("A", "suspend_threshold"), ("S", "suspend_on_subordinate"),
    ("C", "suspend_calendar"), ("u", "unknown"), ("a", "load_alarm"),
    ("d", "disabled_manual"), ("D", "disabled_calendar"), ("c", "ambiguous"),
    ("o", "orphaned"), ("E", "error"),
)  # fmt: skip


def _el(pad: int, name: str, value: object, attrs: str = "") -> str:
    return f"{' ' * pad}<{name}{attrs}>{escape(str(value))}</{name}>\n"


def job_extras(row: Row, pad: int) -> list[str]:
    """The elements the job options add to one ``job_list`` element."""
    parts = [_el(pad, tag, f"{float(row[key]):.5f}") for key, tag in _NUMBERS if key in row]
    if "ppri" in row:
        parts.append(_el(pad, "JB_priority", int(row["ppri"])))
    if "department" in row:
        parts.append(_el(pad, "JB_project", row.get("project") or ""))
        parts.append(_el(pad, "JB_department", row["department"]))
    if row.get("deadline"):
        parts.append(_el(pad, "JB_deadline", xml_time(float(row["deadline"]))))
    usage = row.get("usage")
    if usage:
        for key in ("cpu", "mem", "io"):
            parts.append(_el(pad, f"{key}_usage", f"{float(usage[key]):.5f}"))
    parts += [_el(pad, tag, int(row[key])) for key, tag in _TICKETS if key in row]
    if "share" in row:
        parts.append(_el(pad, "JAT_share", f"{float(row['share']):.5f}"))
    if row.get("requirements"):
        parts.extend(_requirements(row["requirements"], pad))
    return parts


def _requirements(req: Row, pad: int) -> list[str]:
    parts = [_el(pad, "full_job_name", req.get("full_name") or "")]
    if req.get("master_queue"):
        parts.append(_el(pad, "master_queue", req["master_queue"]))
    pe = req.get("requested_pe")
    if pe:
        span = str(pe["min"]) if pe["min"] == pe["max"] else f"{pe['min']}-{pe['max']}"
        parts.append(_el(pad, "requested_pe", span, f" name={quoteattr(str(pe['name']))}"))
    granted = req.get("granted_pe")
    if granted:
        name = quoteattr(str(granted["name"]))
        parts.append(_el(pad, "granted_pe", granted["slots"], f" name={name}"))
    for item in req.get("hard_resources") or []:
        attrs = f" name={quoteattr(str(item['name']))}"
        attrs += f" resource_contribution={quoteattr(format(float(item['contribution']), 'f'))}"
        parts.append(_el(pad, "hard_request", item["value"], attrs))
    for item in req.get("default_requests") or []:
        parts.append(
            _el(pad, "def_hard_request", item["value"], f" name={quoteattr(item['name'])}")
        )
    for item in req.get("soft_resources") or []:
        parts.append(_el(pad, "soft_request", item["value"], f" name={quoteattr(item['name'])}"))
    for key, tag in (("hard_queues", "hard_req_queue"), ("soft_queues", "soft_req_queue")):
        parts += [_el(pad, tag, q) for q in req.get(key) or []]
    parts += [_el(pad, "master_hard_req_queue", q) for q in req.get("master_queues") or []]
    parts += [_el(pad, "predecessor_jobs_req", j) for j in req.get("predecessors_requested") or []]
    parts += [_el(pad, "predecessor_jobs", j) for j in req.get("predecessors") or []]
    return parts


def queue_extras(queue: Row, pad: int) -> list[str]:
    """``-explain`` reasons and ``-F`` values of one ``Queue-List`` element."""
    parts = [_el(pad, "load-alarm-reason", r) for r in queue.get("explain") or []]
    for res in queue.get("resources") or []:
        attrs = f" name={quoteattr(str(res['name']))} type={quoteattr(str(res['dom']))}"
        parts.append(_el(pad, "resource", res["value"], attrs))
    return parts


def render_cluster_xml(cqueues: Sequence[Row], ext: bool = False) -> str:
    """``qstat -g c -xml``."""
    from clients.qstat_render.xml import SCHEMA

    body = []
    for cq in cqueues:
        parts = ["  <cluster_queue_summary>\n", _el(4, "name", cq["name"])]
        if cq.get("load") is not None:
            parts.append(_el(4, "load", f"{float(cq['load']):.5f}"))
        for key in ("used", "resv", "available", "total"):
            parts.append(_el(4, key, int(cq[key])))
        parts.append(_el(4, "temp_disabled", int(cq["aoACDS"])))
        parts.append(_el(4, "manual_intervention", int(cq["cdsuE"])))
        if ext:
            states = cq.get("states") or {}
            parts += [_el(4, tag, int(states.get(letter, 0))) for letter, tag in _EXT_STATES]
        parts.append("  </cluster_queue_summary>\n")
        body.append("".join(parts))
    return (
        "<?xml version='1.0'?>\n"
        f"<job_info  xmlns:xsd={quoteattr(SCHEMA)}>\n" + "".join(body) + "</job_info>\n"
    )
