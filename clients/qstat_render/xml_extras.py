"""What ``-ext``/``-pri``/``-urg``/``-r``/``-F``/``-explain``/``-g c`` add to ``qstat -xml``.

In the order and with the names of Grid Engine's ``qstat_xml_job``: after
``JAT_prio`` come ``JAT_ntix`` (-ext), ``JB_nurg JB_urg JB_rrcontr JB_wtcontr
JB_dlcontr`` (-urg, ``%.0f``), ``JB_nppri JB_priority`` (-pri); after the owner
``JB_project JB_department`` (-ext); after the time ``JB_deadline`` (-urg) and
the usage and tickets (-ext); after the slots the ``-r`` elements
(``full_job_name``, ``requested_pe``, ``granted_pe``, ``hard_request`` with
``resource_contribution``, ``soft_request``, ``hard_req_queue``...). ``-F``
adds one ``resource`` element per value (``name`` and ``type`` attributes) to
a ``Queue-List``, ``-explain a`` its ``load-alarm-reason`` elements; ``-g c``
writes one ``cluster_queue_summary`` per cluster queue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from clients.qstat_render.times import xml_time

Row = dict[str, Any]

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


def _d8(value: float) -> str:
    """``xml_append_Attr_D8``: ``%.0f``, or ``%.3g`` above 99999999."""
    return f"{value:.3g}" if value > 99999999 else f"{value:.0f}"


def priority_fields(row: Row, pad: int) -> list[str]:
    """After ``JAT_prio``: ``JAT_ntix`` (-ext), the urgency parts (-urg), ``JB_nppri`` and
    ``JB_priority`` (-pri)."""
    parts = []
    if "department" in row:
        parts.append(_el(pad, "JAT_ntix", f"{float(row.get('ntckts', 0.0)):.5f}"))
    if "urg" in row:
        parts.append(_el(pad, "JB_nurg", f"{float(row.get('nurg', 0.0)):.5f}"))
        for key in ("urg", "rrcontr", "wtcontr", "dlcontr"):
            parts.append(_el(pad, f"JB_{key}", _d8(float(row[key]))))
    if "ppri" in row:
        parts.append(_el(pad, "JB_nppri", f"{float(row.get('npprior', 0.0)):.5f}"))
        parts.append(_el(pad, "JB_priority", int(row["ppri"])))
    return parts


def project_fields(row: Row, pad: int) -> list[str]:
    """-ext: ``JB_project`` and ``JB_department`` after the owner."""
    if "department" not in row:
        return []
    return [
        _el(pad, "JB_project", row.get("project") or ""),
        _el(pad, "JB_department", row["department"]),
    ]


def usage_fields(row: Row, pad: int) -> list[str]:
    """After the time: ``JB_deadline`` (-urg), usage and tickets (-ext)."""
    parts = []
    if row.get("deadline"):
        parts.append(_el(pad, "JB_deadline", xml_time(float(row["deadline"]))))
    if "department" not in row:
        return parts
    usage = row.get("usage")
    if usage:
        parts += [_el(pad, f"{k}_usage", f"{float(usage[k]):.5f}") for k in ("cpu", "mem", "io")]
    if row.get("state") != "z":
        parts += [_el(pad, tag, int(row.get(key, 0))) for key, tag in _TICKETS[:2]]
        parts.append(_el(pad, "JB_jobshare", int(float(row.get("share", 0.0)))))
        parts += [_el(pad, tag, int(row.get(key, 0))) for key, tag in _TICKETS[2:]]
        parts.append(_el(pad, "JAT_share", f"{float(row.get('share', 0.0)):.5f}"))
    return parts


def requirement_fields(req: Row, pad: int) -> list[str]:
    """-r: ``full_job_name``, PEs, requests, queues and predecessors (no master queue or
    checkpoint element: ``qstat_xml_job_additional_info`` skips them)."""
    parts = [_el(pad, "full_job_name", req.get("full_name") or "")]
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
    ad = req.get("ad_predecessors_requested") or []
    parts += [_el(pad, "ad_predecessor_jobs_req", j) for j in ad]
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
