"""``host_list``: the execution hosts with their load, queues and jobs (qhost(1)).

One reply carries what every qhost layout needs: per host its load report
values (``arch``, ``num_proc``, ``load_avg``, memory and swap in bytes), its
``-F`` resource values, its queue instances and the jobs running in them.
Only hosts named by ``-h`` (and the global host) and, with ``-l``, only hosts
offering the resources are reported; jobs are looked at only when asked for.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

from qmaster.complexes.levels import Level
from qmaster.complexes.load import running_slots_by_host, simulated_load
from qmaster.complexes.values import ValueParseError, parse_memory
from qmaster.core.activetasks import active_tasks
from qmaster.core.errors import InvalidRequest
from qmaster.core.host_values import (
    compile_match,
    host_levels,
    offers,
    resource_values,
    with_alarms,
)
from qmaster.core.job_priority import JobPriorities
from qmaster.core.jobs import Job, Task
from qmaster.core.lifecycle import granted_pe
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.query import queue_rows
from qmaster.core.registry import handler
from qmaster.core.states import ACTIVE, display_state
from qmaster.core.stimuli import HostList
from qmaster.core.view import GLOBAL_HOST

_MEMORY = ("mem_total", "mem_used", "swap_total", "swap_used")


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return parse_memory(text)
    except ValueParseError:
        return None


def host_values(report: dict[str, str]) -> dict[str, Any]:
    """The columns of a qhost line from a load report (absent values are None)."""
    row: dict[str, Any] = {
        key: report.get(key) for key in ("arch", "num_proc", "m_socket", "m_core")
    }
    row["load_avg"] = _number(report.get("load_avg"))
    row.update({key: _number(report.get(key)) for key in _MEMORY})
    return row


def _selected(core: Core, names: list[str] | None) -> list[str]:
    """The host names to show: all, or those of ``-h`` (the global host always)."""
    known = sorted(n for n in core.config.exechosts if n != GLOBAL_HOST)
    if names is None:
        return [GLOBAL_HOST, *known]
    by_lower = {n.lower(): n for n in known}
    chosen: set[str] = set()
    for name in names:
        found = by_lower.get(name.lower())
        if found is None:
            raise InvalidRequest(f'can\'t resolve hostname "{name}"')
        chosen.add(found)
    return [GLOBAL_HOST, *sorted(chosen)]


def _matching(core: Core, hosts: list[str], glob: Level, levels: dict[str, Level],
              requests: dict[str, str]) -> list[str]:  # fmt: skip
    """``-l``: every host when the global host offers it all, else the hosts that do."""
    compiled = compile_match(core.config.complexes, requests)
    if offers(compiled, [glob]):
        return hosts
    return [h for h in hosts if h in levels and offers(compiled, [glob, levels[h]])]


def _extra_master_line(core: Core, job: Job, task: Task) -> bool:
    """A PE with ``job_is_first_task FALSE`` shows the master task on a line of its own."""
    if not job.spec.pe_name:
        return False
    pe = core.config.pes.get(granted_pe(core, job, task))
    return pe is not None and pe.attrs.get("job_is_first_task", "TRUE").upper() == "FALSE"


def _job_lines(core: Core, job: Job, task: Task, qi: str, prior: float) -> list[dict[str, Any]]:
    """sge_print_jobs_queue: one line per slot the task holds in ``qi``; the master
    queue's first line is MASTER, every other SLAVE; only a first line shows the job."""
    is_master = task.queue == qi
    count = sum(n for name, n in task.assignment if name == qi)
    count += 1 if is_master and _extra_master_line(core, job, task) else 0
    base = {
        "job_id": job.job_id,
        "prior": round(prior, 5),
        "name": job.name,
        "owner": job.owner.user,
        "state": display_state(task.state, held=False),
        "start_time": task.start_time or task.dispatch_time,
        "queue": qi,
        "task": str(task.task_id) if job.array else None,
    }
    return [
        {**base, "master": "MASTER" if is_master and i == 0 else "SLAVE", "first": i == 0}
        for i in range(count)
    ]


def _jobs_by_queue(core: Core, now: float, users: list[str] | None) -> dict[str, list[Any]]:
    """The running tasks' lines per queue instance, jobs in id order."""
    prio = JobPriorities(core, now)
    out: dict[str, list[Any]] = {}
    for job, task in active_tasks(core):
        if task.state not in ACTIVE:
            continue
        if users is not None and not any(fnmatchcase(job.owner.user, u) for u in users):
            continue
        for qi in dict.fromkeys(name for name, _ in task.assignment):
            lines = _job_lines(core, job, task, qi, prio.of(job).prio)
            out.setdefault(qi, []).extend(lines)
    return out


def _report(core: Core, name: str, running: dict[str, float]) -> dict[str, str]:
    conf = core.config.exechost(name)
    if conf is None:
        return {}
    if name == GLOBAL_HOST:
        return dict(conf.load_values)
    return simulated_load(conf.load_values, running.get(name, 0.0), conf.load_scaling)


@handler(HostList)
def handle_host_list(core: Core, args: HostList, now: float, out: Outcome) -> None:
    """qhost: hosts with load values, resources, queue instances and running jobs."""
    glob, levels = host_levels(core)
    hosts = _selected(core, args.hosts)
    if args.resources:
        hosts = _matching(core, hosts, glob, levels, dict(args.resources))
    running = running_slots_by_host(core.booked)
    queues = queue_rows(core) if args.queues or args.jobs else []
    with_alarms(core, queues)
    jobs = _jobs_by_queue(core, now, args.users) if args.jobs else {}
    table = core.config.complexes
    rows = []
    for name in hosts:
        row = {"name": name, **host_values(_report(core, name, running))}
        row["resources"] = resource_values(table, glob, levels.get(name))
        row["queues"] = [
            {**q, "cqueue": q["name"].partition("@")[0], "jobs": jobs.get(q["name"], [])}
            for q in queues
            if q["name"].partition("@")[2] == name
        ]
        rows.append(row)
    out.data = {"hosts": rows}
