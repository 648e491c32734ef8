"""The options of ``job_list`` beyond ``-u``/``-s``/``-f``: what each one adds or selects.

Queue selection (``-q``, ``-l``, ``-pe``, ``-U``, ``-qs``) narrows the queue
instances and with them the jobs: a row in a queue is kept when its queue is
selected; a pending row when none of the job's hard queue requests rules all
selected instances out. ``-ne`` drops queue instances without jobs. ``-F``
adds each instance's resource values, ``-explain`` the reasons of its alarm
states, ``-g c`` the cluster queue summary, ``-g d`` one row per pending task,
``-g t``/``-t`` one row per granted slot (``MASTER``/``SLAVE``), ``-r`` the
job's requirements, ``-ext``/``-pri``/``-urg`` their columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from qmaster.complexes.levels import Level
from qmaster.conf.state import QueueInstanceConf
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobs import Job, task_list
from qmaster.core.qstat_jobs import priority_columns, requirements, task_usage
from qmaster.core.qstat_levels import Levels, alarm_reasons, levels_for, queue_resources
from qmaster.core.qstat_queues import (
    check_queue_states,
    cluster_summary,
    may_use,
    offers,
    parse_requests,
    queue_matches,
)
from qmaster.core.stimuli import JobList
from qmaster.qstat_args import parse_explain, parse_group
from schedd.priority import Priority

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def wants_queues(args: JobList) -> bool:
    """Whether the reply carries queue instance rows."""
    return bool(
        args.full
        or args.queue_resources is not None
        or args.explain
        or "c" in args.group
        or args.queue_states
    )


def narrows(args: JobList) -> bool:
    """Whether ``-q``, ``-l``, ``-pe`` or ``-U`` narrows the queue instances."""
    return any(v is not None for v in (args.queues, args.resources, args.pes, args.queue_users))


def selects(args: JobList) -> bool:
    """Whether any queue selection option is given (``-qs`` included)."""
    return narrows(args) or bool(args.queue_states)


def check(args: JobList) -> None:
    """Grid Engine's errors for malformed ``-g``, ``-explain`` and ``-qs`` arguments."""
    try:
        parse_group(args.group)
        if args.explain is not None:
            parse_explain(args.explain)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None
    check_queue_states(args.queue_states)


def _names(values: list[str] | None) -> list[str]:
    return [n for v in values or () for n in v.split(",") if n]


def selected_instances(core: Core, args: JobList) -> tuple[list[QueueInstanceConf], str | None]:
    """The queue instances the selection options keep (states are filtered later), in
    Grid Engine's order ``-q``, ``-U``, ``-pe``, ``-l``; and the option after which
    none remained (``-q``, ``-U`` or ``-pe``: qstat says so), if any."""
    instances = core.config.queue_instances()
    patterns, pes, users = _names(args.queues), _names(args.pes), _names(args.queue_users)
    requests = parse_requests(core, args.resources) if args.resources else []
    groups = core.config.state.groups_of
    if patterns:
        instances = [
            qi for qi in instances if any(queue_matches(p, qi, groups(qi.host)) for p in patterns)
        ]
        if not instances:
            return [], "-q"
    if users:
        instances = [qi for qi in instances if any(may_use(core, qi, u) for u in users)]
        if not instances:
            return [], "-U"
    if pes:
        instances = [
            qi for qi in instances if any(fnmatchcase(pe, p) for pe in qi.pe_list for p in pes)
        ]
        if not instances:
            return [], "-pe"
    if requests:
        levels, qlevels = levels_for(core, instances)
        instances = [
            qi
            for qi in instances
            if offers(core, requests, (levels.glob, levels.hosts.get(qi.host), qlevels[qi.name]))
        ]
    return instances, None


def decorate_queues(
    core: Core, args: JobList, instances: list[QueueInstanceConf], rows: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], Any]:
    """``-F`` values and ``-explain`` reasons of the instance rows."""
    levels, qlevels = levels_for(core, instances)
    by_name = {qi.name: qi for qi in instances}
    table = core.config.complexes
    names = _names(args.queue_resources)
    for row in rows:
        qi = by_name.get(str(row["name"]))
        if qi is None:
            continue
        if args.explain and "a" in args.explain:  # the state itself is the scheduler's (queue_rows)
            host = levels.hosts.get(qi.host)
            held = tuple(lv for lv in (levels.glob, host, qlevels[qi.name]) if lv is not None)
            row["explain"] = alarm_reasons(table, qi, host, levels.loads.get(qi.host, {}), held)
        if args.queue_resources is not None:
            row["resources"] = queue_resources(table, levels, qlevels[qi.name], qi, names)
    return rows, levels


def filter_queue_rows(args: JobList, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``-qs`` and ``-ne`` on the instance rows."""
    wanted = check_queue_states(args.queue_states)
    if wanted is not None:
        rows = [r for r in rows if wanted & set(str(r.get("states") or ""))]
    if args.no_empty:
        rows = [r for r in rows if int(r["used"]) > 0]
    return rows


def cq_summary(rows: list[dict[str, Any]], levels: Any) -> list[dict[str, Any]]:
    """``-g c``'s lines."""
    return cluster_summary(rows, levels)


@dataclass(frozen=True, slots=True)
class Shown:
    """The queue instances a selection shows, with their levels (built once a listing)."""

    names: set[str]
    instances: list[QueueInstanceConf]
    levels: Levels
    qlevels: dict[str, Level]


def shown_instances(core: Core, names: set[str]) -> Shown:
    """The configured instances among the shown queue rows."""
    instances = [qi for qi in core.config.queue_instances() if qi.name in names]
    levels, qlevels = levels_for(core, instances)
    return Shown(names, instances, levels, qlevels)


def _hard_requests(core: Core, job: Job) -> list[tuple[str, str]]:
    table = core.config.complexes
    pairs = job.spec.hard_resources or ()
    return [(table[str(n)].name, str(v)) for n, v in pairs if str(n) in table]


def _pending_may_go(core: Core, job: Job, shown: Shown) -> bool:
    """Whether a pending job could in principle go to one of the shown instances: its
    hard queue requests, its parallel environment and the non-mutable values its hard
    resource requests ask for admit one of them."""
    hard = [str(q) for q in job.spec.hard_queues or ()]
    pe = str(job.spec.pe_name or "")
    requests = _hard_requests(core, job)
    groups = core.config.state.groups_of
    for qi in shown.instances:
        if hard and not any(queue_matches(p, qi, groups(qi.host)) for p in hard):
            continue
        if pe and not any(fnmatchcase(name, pe) for name in qi.pe_list):
            continue
        levels = (shown.levels.glob, shown.levels.hosts.get(qi.host), shown.qlevels[qi.name])
        if requests and not offers(core, requests, levels):
            continue
        return True
    return False


def keep_rows(
    core: Core, job: Job, rows: list[dict[str, Any]], shown: Shown | None
) -> list[dict[str, Any]]:
    """The rows of ``job`` in (or, pending, possibly headed for) the shown instances."""
    if shown is None:
        return rows
    pending_ok: bool | None = None
    kept = []
    for row in rows:
        if row.get("queue"):
            if row["queue"] in shown.names:
                kept.append(row)
            continue
        if pending_ok is None:
            pending_ok = _pending_may_go(core, job, shown)
        if pending_ok:
            kept.append(row)
    return kept


def per_queue(job: Job, rows: list[dict[str, Any]], args: JobList) -> list[dict[str, Any]]:
    """``-f`` (without ``-g t``): a running row in each queue of its task, with the slots
    it holds there, as Grid Engine lists a parallel job under every queue it uses."""
    if not args.full or "t" in args.group or not job.spec.pe_name:
        return rows
    out: list[dict[str, Any]] = []
    for row in rows:
        task = _task_of(job, row)
        if task is None or len(task.assignment) < 2:
            out.append(row)
            continue
        out.extend({**row, "queue": queue, "slots": slots} for queue, slots in task.assignment)
    return out


def _task_of(job: Job, row: dict[str, Any]) -> Any:
    if not row.get("queue"):
        return None
    task = job.tasks.get(int(row["tasks"]) if job.array else 0)
    if task is None and not job.array:
        task = next(iter(job.tasks.values()), None)
    return task


def _first_task_free(core: Core, job: Job) -> bool:
    """A PE with ``job_is_first_task FALSE``: the master task holds no slot of its own."""
    pe = core.config.pes.get(str(job.spec.pe_name or ""))
    return pe is not None and pe.attrs.get("job_is_first_task", "TRUE").upper() == "FALSE"


def per_slot(core: Core, job: Job, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``-g t``/``-t``: a running row per granted slot (plus one for a master task that holds
    none), ``MASTER`` for the master queue's first line, ``SLAVE`` for the others."""
    out: list[dict[str, Any]] = []
    adjust = 1 if _first_task_free(core, job) else 0
    for row in rows:
        task = _task_of(job, row)
        if task is None or not task.assignment:
            out.append(row)
            continue
        for index, (queue, slots) in enumerate(task.assignment):
            for slot in range(slots + (adjust if index == 0 else 0)):
                master = "MASTER" if index == 0 and slot == 0 else "SLAVE"
                out.append({**row, "queue": queue, "master": master, "slots": 1})
    return out


def per_task(rows: list[dict[str, Any]], job: Job) -> list[dict[str, Any]]:
    """``-g d``: each pending row of an array job as one row per task of it."""
    if not job.array:
        return rows
    out: list[dict[str, Any]] = []
    for row in rows:
        if row.get("queue") or row.get("state") == "z":
            out.append(row)
            continue
        out.extend({**row, "tasks": str(t)} for t in task_list(str(row["tasks"])))
    return out


def _usage(core: Core, job: Job, row: dict[str, Any], now: float) -> dict[str, float] | None:
    """``-ext``'s usage of a row in a queue (a pending row's tasks may be a range)."""
    if not row.get("queue"):
        return None
    task_id = int(row["tasks"]) if row.get("tasks") and job.array else None
    return task_usage(core, job, task_id, now)


def enrich(
    core: Core, args: JobList, job: Job, prio: Priority, rows: list[dict[str, Any]], now: float
) -> list[dict[str, Any]]:
    """Each row with what ``-g d``/``-g t``/``-t``/``-ext``/``-pri``/``-urg``/``-r`` add."""
    if "d" in args.group:
        rows = per_task(rows, job)
    if "t" in args.group:
        rows = per_slot(core, job, rows)
    if args.columns:
        extra = priority_columns(job, prio, list(args.columns))
        for row in rows:
            row.update(extra)
            if "ext" in args.columns:
                row["usage"] = _usage(core, job, row, now)
    if args.requirements:
        for row in rows:
            row["requirements"] = requirements(core, job, row)
    return rows
