"""qhost ``-xml``: Grid Engine's ``<qhost>`` document (``xml_report_*`` of qhost.c).

Values are escaped (Grid Engine's ``escape_string``); the shape, element and
attribute names, quotes and indentation are Grid Engine's, including the
quoted ``'%f'`` of a job's priority.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape as _escape

from clients.qhost_render.text import scaled

_ENTITIES = {'"': "&quot;", "'": "&apos;"}


def esc(text: object) -> str:
    """Escape markup characters and both quotes."""
    return _escape(str(text), _ENTITIES)


def _host(host: dict[str, Any], binding: bool) -> list[str]:
    sockets = [("m_socket", host.get("m_socket") or "-"), ("m_core", host.get("m_core") or "-")]
    values = [
        ("arch_string", host.get("arch") or "-"),
        ("num_proc", host.get("num_proc") or "-"),
        *(sockets if binding else []),
        ("load_avg", scaled(host.get("load_avg"), "%.2f")),
        *((k, scaled(host.get(k), "%.1f")) for k in ("mem_total", "mem_used", "swap_total", "swap_used")),
    ]  # fmt: skip
    return [f"   <hostvalue name='{esc(k)}'>{esc(v)}</hostvalue>" for k, v in values]


def _queue(q: dict[str, Any]) -> list[str]:
    name = esc(q["cqueue"])
    values = [
        ("qtype_string", q["qtype"]),
        ("slots_used", q["used"]),
        ("slots", q["total"]),
        ("slots_resv", q["resv"]),
        ("state_string", q["states"]),
    ]
    return [
        f" <queue name='{name}'>",
        *(f"   <queuevalue qname='{name}' name='{k}'>{esc(v)}</queuevalue>" for k, v in values),
        " </queue>",
    ]


def _job(job: dict[str, Any], with_queue: bool) -> list[str]:
    jid = esc(job["job_id"])
    values: list[tuple[str, object]] = [
        ("qinstance_name", job["queue"]),
        ("job_name", job["name"]),
        ("job_owner", job["owner"]),
        ("job_state", job["state"]),
        ("start_time", int(job["start_time"] or 0)),
    ]
    if with_queue:
        values.append(("queue_name", job["queue"]))
    values.append(("pe_master", job["master"]))
    if job.get("task"):
        values.append(("taskid", job["task"]))
    return [
        f" <job name='{jid}'>",
        f"   <jobvalue jobid='{jid}' name='priority'>'{job['prior']:f}'</jobvalue>",
        *(f"   <jobvalue jobid='{jid}' name='{k}'>{esc(v)}</jobvalue>" for k, v in values),
        " </job>",
    ]


def render_xml(
    hosts: Iterable[dict[str, Any]], *, queues: bool, jobs: bool, wanted: Sequence[str] | None,
    resources: bool, binding: bool = False,
) -> str:  # fmt: skip
    """The whole ``<qhost>`` document."""
    del wanted  # the caller already kept only the wanted resource values
    lines = ["<?xml version='1.0'?>", '<qhost xmlns="http://gridengine.sunsource.net/61/qhost">']
    for host in hosts:
        lines.append(f" <host name='{esc(host['name'])}'>")
        lines += _host(host, binding)
        if resources:
            lines += [
                f"   <resourcevalue name='{esc(n)}' dominance='{esc(d)}'>{esc(v)}</resourcevalue>"
                for d, n, v, *_ in host.get("resources") or []
            ]
        for q in host.get("queues") or []:
            if queues:
                lines += _queue(q)
            for job in q.get("jobs") or [] if jobs else []:
                lines += _job(job, with_queue=not queues)
        lines.append(" </host>")
    lines.append("</qhost>")
    return "".join(line + "\n" for line in lines)
