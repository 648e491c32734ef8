"""What qstat's job options add to a job row: ``-ext``/``-pri``/``-urg`` columns and ``-r``.

Only the options given add anything, so a plain ``qstat`` pays for none of it.
``-pri``/``-urg``/``-ext`` take a job's priority parts (:mod:`schedd.priority`):
``nurg``, ``npprior``, ``ntckts``, ``urg``, ``rrcontr``, ``wtcontr``,
``dlcontr``, the ``-p`` value, the deadline, project and department, usage and
tickets. Without a share tree or functional shares a job's tickets are its
override tickets (``-ot``): ``tckts`` = ``ovrts`` = ``otckt``, ``ftckt`` =
``stckt`` = 0. ``-r`` sends the job's requirements: full name, requested and
granted PE, checkpoint environment, hard resources with their urgency
contribution, default requests of consumables, soft resources, requested
queues and predecessors.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import Consumable
from qmaster.complexes.values import ValueParseError, parse_double
from qmaster.core.job_detail import predecessors, usage
from qmaster.core.job_priority import deadline_epoch
from qmaster.core.jobs import Job
from qmaster.core.jobspec import as_map
from qmaster.core.states import ACTIVE
from schedd.priority import Priority

if TYPE_CHECKING:
    from qmaster.core.machine import Core

DEPARTMENT = "defaultdepartment"


def priority_columns(job: Job, prio: Priority, columns: list[str]) -> dict[str, Any]:
    """The fields ``-pri``, ``-urg`` and ``-ext`` show, for the columns asked."""
    out: dict[str, Any] = {}
    if "pri" in columns or "urg" in columns:
        out["nurg"] = round(prio.nurg, 5)
    if "pri" in columns:
        out["npprior"] = round(prio.npprior, 5)
        out["ppri"] = int(job.priority)
    if "pri" in columns or "ext" in columns:
        out["ntckts"] = round(prio.ntckts, 5)
    if "urg" in columns:
        out.update(urg=prio.urg, rrcontr=prio.rrcontr, wtcontr=prio.wtcontr)
        out.update(dlcontr=prio.dlcontr, deadline=deadline_epoch(job.spec.deadline))
    if "ext" in columns:
        tickets = _tickets(job.spec.override_tickets)
        out.update(project=job.spec.project or None, department=DEPARTMENT)
        out.update(tickets=tickets, override_tickets=tickets, otickets=tickets)
        out.update(ftickets=0, stickets=0, share=0.0)
    return out


def _tickets(value: object) -> int:
    try:
        return max(0, int(float(str(value)))) if value not in (None, "") else 0
    except ValueError:
        return 0


def task_usage(core: Core, job: Job, task_id: int | None, now: float) -> dict[str, float] | None:
    """The usage ``-ext`` shows for a running task (None for a pending one)."""
    task = job.tasks.get(task_id if task_id is not None else 0)
    if task is None and not job.array:
        task = next(iter(job.tasks.values()), None)
    if task is None or task.state not in ACTIVE:
        return None
    return usage(core, job, task, now)


def _contribution(table: ComplexTable, name: str, text: str, slots: int) -> float:
    """A hard request's addend to the job's urgency (``sge_priority(5)``)."""
    entry = table.get(name)
    if entry is None:
        return 0.0
    try:
        weight = parse_double(entry.urgency)
        value = entry.parse(text)
    except ValueParseError:
        return 0.0
    if not entry.type.is_numeric:
        return weight
    if isinstance(value, float) and math.isfinite(value):
        return value * weight * slots
    return 0.0


def _defaults(core: Core, job: Job, queue: str | None) -> list[dict[str, str]]:
    """Consumables with a non-zero default the job does not request, managed where it runs."""
    table = core.config.complexes
    asked = {table[n].name for n in as_map(job.spec.hard_resources) if n in table}
    places: list[dict[str, str]] = []
    glob = core.config.exechost("global")
    if glob is not None:
        places.append(dict(glob.complex_values))
    if queue:
        host = core.config.exechost(queue.partition("@")[2])
        places.append(dict(host.complex_values) if host else {})
        qi = next((q for q in core.config.queue_instances() if q.name == queue), None)
        places.append(dict(qi.complex_values) if qi else {})
    out: list[dict[str, str]] = []
    for entry in table:
        if entry.consumable is Consumable.NO or entry.name in ("slots", *asked):
            continue
        try:
            if float(entry.parse(entry.default) or 0) == 0.0:
                continue
        except (ValueParseError, ValueError):
            continue
        if any(entry.name in p or entry.shortcut in p for p in places):
            out.append({"name": entry.name, "value": entry.default})
    return out


def _granted_slots(job: Job, row: dict[str, Any]) -> int:
    """All slots the row's task holds, over every queue (``Granted PE``)."""
    task = job.tasks.get(int(row["tasks"]) if job.array and row.get("tasks") else 0)
    if task is None and not job.array:
        task = next(iter(job.tasks.values()), None)
    return task.slots if task is not None and task.assignment else int(row["slots"])


def requirements(core: Core, job: Job, row: dict[str, Any]) -> dict[str, Any]:
    """``-r``: the job's requirements, for one of its rows."""
    spec, table = job.spec, core.config.complexes
    queue = row.get("queue")
    hard = [
        {"name": str(n), "value": str(v), "contribution": _contribution(table, n, v, job.slots)}
        for n, v in (spec.hard_resources or ())
    ]
    granted = None
    if queue and spec.pe_name:
        granted = {"name": spec.pe_name, "slots": _granted_slots(job, row)}
    pe = None
    if spec.pe_name:
        pe = {"name": spec.pe_name, "min": spec.pe_min or 1}
        pe["max"] = spec.pe_max or pe["min"]
    return {
        "full_name": job.name,
        "master_queue": queue,
        "requested_pe": pe,
        "granted_pe": granted,
        "checkpoint": spec.ckpt or None,
        "hard_resources": hard,
        "default_requests": _defaults(core, job, queue),
        "soft_resources": [
            {"name": str(n), "value": str(v)} for n, v in (spec.soft_resources or ())
        ],
        "hard_queues": [str(q) for q in spec.hard_queues or ()],
        "soft_queues": [str(q) for q in spec.soft_queues or ()],
        "master_queues": [str(q) for q in spec.master_queues or ()],
        "predecessors_requested": [str(j) for j in spec.hold_jid or ()],
        "predecessors": predecessors(core, job),
        "ad_predecessors_requested": [str(j) for j in spec.hold_jid_ad or ()],
    }
