"""qhost's text layout, as Grid Engine 6.2u5's ``sge_qhost.c`` prints it.

A header and 79 dashes, then one line per host (``HEAD_FORMAT``
``%-23s %-13.13s%4.4s %5.5s %7.7s %7.7s %7.7s %7.7s``; ``-cb`` adds ``NSOC``
and ``NCOR`` after ``NCPU`` and ten dashes; there is no ``NTHR``); below a host its
``-F`` values (``   hl:arch=lx-amd64``), its queue instances with ``-q``
(``   all.q                BIP   0/1/4``) and with ``-j`` the jobs running there
in qstat's job layout, indented by three spaces.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

HEAD = "%-23s %-13.13s%4.4s %5.5s %7.7s %7.7s %7.7s %7.7s"
HEAD_BINDING = "%-23s %-13.13s%4.4s %4.4s %4.4s %5.5s %7.7s %7.7s %7.7s %7.7s"
_TITLES = ("LOAD", "MEMTOT", "MEMUSE", "SWAPTO", "SWAPUS")
HEADER = HEAD % ("HOSTNAME", "ARCH", "NCPU", *_TITLES)
HEADER_BINDING = HEAD_BINDING % ("HOSTNAME", "ARCH", "NCPU", "NSOC", "NCOR", *_TITLES)
DASHES = "-" * 79
INDENT = "   "
JOB_HEADER = (
    INDENT + "job-ID  prior   name       user         state submit/start at     "
    "queue      master ja-task-ID "
)
JOB_DASHES = INDENT + "-" * 94


def scaled(value: float | None, fmt: str) -> str:
    """reformatDoubleValue: a value in G/M/K of 1024 with ``fmt``; ``-`` when absent."""
    if value is None:
        return "-"
    for unit, size in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if abs(value) >= size:
            return fmt % (value / size) + unit
    return fmt % value


def host_line(host: dict[str, Any], binding: bool = False) -> str:
    """One host's line; ``-cb`` adds the sockets and cores (``m_socket``, ``m_core``)."""
    head = [host["name"] or "-", host.get("arch") or "-", host.get("num_proc") or "-"]
    if binding:
        head += [host.get("m_socket") or "-", host.get("m_core") or "-"]
    memory = [
        scaled(host.get(k), "%.1f") for k in ("mem_total", "mem_used", "swap_total", "swap_used")
    ]
    return (HEAD_BINDING if binding else HEAD) % (
        *head,
        scaled(host.get("load_avg"), "%.2f"),
        *memory,
    )


def resource_lines(values: Sequence[Sequence[str]], wanted: Sequence[str] | None) -> list[str]:
    """``-F``: every value, or those named (by name or shortcut, resolved by the caller).

    With a list, Grid Engine starts the first line with ``    Host Resource(s):   ``.
    """
    lines = [f"{INDENT}{dom}:{name}={value}" for dom, name, value, *_ in values]
    if wanted is not None and lines:
        lines[0] = "    Host Resource(s):   " + lines[0]
    return lines


def queue_line(q: dict[str, Any]) -> str:
    """``-q``: queue name, qtype, resv/used/tot, states."""
    slots = f"{q['resv']}/{q['used']}/{q['total']} "
    return f"{INDENT}{q['cqueue']:<20} {q['qtype'][:5]:<5} {slots[:14]:<14}{q['states']}"


def start_time(epoch: float | None) -> str:
    """sge_ctime: ``MM/DD/YYYY HH:MM:SS`` in local time."""
    return time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(epoch or 0))


def job_line(job: dict[str, Any], *, with_queue: bool) -> str:
    """One slot of a running job; only a queue's first line of a task shows the job."""
    if job["first"]:
        head = (
            f"{job['job_id']:>7} {job['prior']:7.5f} {job['name'][:10]:<10} "
            f"{job['owner'][:12]:<12} {job['state'][:5]:<5} {start_time(job['start_time'])} "
        )
    else:
        head = " " * 8 + " " * 8 + " " * 11 + " " * 13 + " " * 6 + " " * 20
    queue = f"{job['queue'][:10]:<10} " if with_queue else ""
    master = f"{job['master'][:6]:<7}"
    task = job["task"] if job.get("task") else " " * 7
    return f"{INDENT}{head}{queue}{master}{task}"


def render_text(
    hosts: Iterable[dict[str, Any]], *, queues: bool, jobs: bool, wanted: Sequence[str] | None,
    resources: bool, binding: bool = False,
) -> str:  # fmt: skip
    """The whole text output (nothing at all when no host is left)."""
    lines: list[str] = []
    job_header = jobs and not queues
    for host in hosts:
        if not lines:
            lines += [HEADER_BINDING, DASHES + "-" * 10] if binding else [HEADER, DASHES]
        lines.append(host_line(host, binding))
        if resources:
            lines += resource_lines(host.get("resources") or [], wanted)
        for q in host.get("queues") or []:
            if queues:
                lines.append(queue_line(q))
            for job in q.get("jobs") or [] if jobs else []:
                if job_header:
                    lines += [JOB_HEADER, JOB_DASHES]
                    job_header = False
                lines.append(job_line(job, with_queue=not queues))
    return "".join(line + "\n" for line in lines)
