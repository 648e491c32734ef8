"""Assemble the scheduler's view of the cell from the core's state.

Every level (the ``global`` exechost when configured, each execution host,
each queue instance) comes from the configuration with what the core has
booked on it; the running tasks come with their expected end for
reservations. A view belongs to one pass, which books into it.

The levels are parsed once per configuration state
(:mod:`qmaster.core.schedlevels`) and each job's request once per
specification (:mod:`qmaster.core.schedjobs`); a view copies only what a pass
books into. The regular pass takes its jobs from the pending index
(:mod:`qmaster.core.pendingindex`); :func:`build_view` walks every job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import partial
from typing import TYPE_CHECKING

from qmaster.complexes.booking import Bookings, Debit
from qmaster.complexes.levels import GLOBAL, HOST, QUEUE, Level
from qmaster.complexes.load import running_slots_by_host
from qmaster.complexes.table import ComplexTable
from qmaster.conf import fields as f
from qmaster.conf.state import QueueInstanceConf
from qmaster.core.ars import LIVE
from qmaster.core.jobs import Job, Task
from qmaster.core.jobspec import as_map
from qmaster.core.keptplan import kept_plan
from qmaster.core.keptview import kept_view
from qmaster.core.qinstances import for_scheduler
from qmaster.core.quotaview import pass_quota
from qmaster.core.schedjobs import job_request, pending_request, running_jobs_per_user
from qmaster.core.schedlevels import (
    LevelCache,
    build_global_level,
    build_host_level,
    build_queue_level,
    level_cache,
    queue_state,
)
from qmaster.core.states import TaskState
from qmaster.core.viewload import load_settings
from schedd import Booked, HostState, JobRequest, PeState, QueueState, Running, View
from schedd.load import consumable_left, load_alarm, names_consumable
from schedd.matching import debits
from schedd.priority import Weights
from schedd.requests import compile_requests, duration

if TYPE_CHECKING:
    from qmaster.core.machine import Core

ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)
GLOBAL_HOST = "global"
__all__ = ["job_request", "running_jobs_per_user"]  # where the core's modules found them


def weights(core: Core) -> Weights:
    """The priority and urgency weights of the scheduler configuration (once per
    configuration)."""
    return _conf(core).weights


def _weights(core: Core) -> Weights:
    attrs = core.config.sched_conf.attrs
    return Weights(
        priority=float(attrs["weight_priority"]),
        urgency=float(attrs["weight_urgency"]),
        ticket=float(attrs["weight_ticket"]),
        waiting_time=float(attrs["weight_waiting_time"]),
        deadline=float(attrs["weight_deadline"]),
    )


def queue_level(qi: QueueInstanceConf, table: ComplexTable, booked: Bookings) -> Level:
    """A queue instance's level: its complex_values, limits, built-ins and bookings."""
    level = build_queue_level(qi, table)
    level.used = booked.at(QUEUE, qi.name)
    return level


def queue_states(core: Core, *, empty: bool = False) -> list[QueueState]:
    """Every queue instance with its level and (unless ``empty``) its bookings."""
    booked = Bookings() if empty else core.booked
    table = core.config.complexes
    return [
        queue_state(core, qi, queue_level(qi, table, booked))
        for qi in core.config.queue_instances()
    ]


def usersets(core: Core) -> dict[str, frozenset[str]]:
    """Each access list's entries (once per configuration: a pass only reads them)."""
    return _conf(core).usersets


def _usersets(core: Core) -> dict[str, frozenset[str]]:
    return {name: frozenset(u.entries) for name, u in core.config.usersets.items()}


def global_level(core: Core, booked: Bookings) -> Level:
    """The cluster-wide level: the ``global`` host's values, with what is booked there."""
    level = build_global_level(core)
    level.used = booked.at(GLOBAL, GLOBAL)
    return level


def _hosts(core: Core, booked: Bookings) -> tuple[Level, dict[str, HostState]]:
    table = core.config.complexes
    glob_level = global_level(core, booked)
    hosts: dict[str, HostState] = {}
    running = running_slots_by_host(booked)
    for name, conf in core.config.exechosts.items():
        if name == GLOBAL_HOST:
            continue
        level = build_host_level(name, conf, table, running.get(name, 0.0))
        level.used = booked.at(HOST, name)
        users = tuple(f.split_list(conf.attrs.get("user_lists", "NONE")))
        xusers = tuple(f.split_list(conf.attrs.get("xuser_lists", "NONE")))
        projects = tuple(f.split_list(conf.attrs.get("projects", "NONE")))
        xprojects = tuple(f.split_list(conf.attrs.get("xprojects", "NONE")))
        hosts[name] = HostState(level, users, xusers, projects, xprojects)
    return glob_level, hosts


def queue_alarms(core: Core) -> set[str]:
    """Queue instances whose host load passes their ``load_thresholds`` (qstat's state
    ``a``), or what is left of a consumable among them (sge_load_alarm(), consumables
    checked, as qstat 6.2 checks them)."""
    glob, hosts = _hosts(core, core.booked)
    table = core.config.complexes
    out: set[str] = set()
    for qi in core.config.queue_instances():
        thresholds = f.split_pairs(qi.attrs.get("load_thresholds", "NONE"))
        state = hosts.get(qi.host)
        if not thresholds or state is None:
            continue
        values = state.level.values

        def value(name: str, values: dict[str, float | str] = values) -> float | None:
            found = values.get(name)
            return found if isinstance(found, float) else None

        if names_consumable(table, thresholds.items()):
            held = (glob, state.level, queue_level(qi, table, core.booked))
            left = partial(consumable_left, held)
            found = load_alarm(table, thresholds.items(), value, left)
        else:
            found = load_alarm(table, thresholds.items(), value)
        if found is not None:
            out.add(qi.name)
    return out


def _pes(core: Core, booked: Bookings) -> dict[str, PeState]:
    """Each parallel environment with the slots booked in it (a pass books into these)."""
    out: dict[str, PeState] = {}
    for name, slots, rule, users, xusers, urgency in _conf(core).pes:
        used = round(booked.at("pe", name).get("slots", 0.0))
        out[name] = PeState(name, slots, rule, used, users, xusers, urgency)
    return out


PeConf = tuple[str, int, str, tuple[str, ...], tuple[str, ...], str]


def _pe_confs(core: Core) -> list[PeConf]:
    """What a view takes of each PE's configuration."""
    out: list[PeConf] = []
    for name, pe in core.config.pes.items():
        users = tuple(f.split_list(pe.attrs.get("user_lists", "NONE")))
        xusers = tuple(f.split_list(pe.attrs.get("xuser_lists", "NONE")))
        urgency = pe.attrs.get("urgency_slots", "min")
        out.append((name, pe.slots, pe.allocation_rule, users, xusers, urgency))
    return out


@dataclass(frozen=True, slots=True)
class _ViewConf:
    """What every view takes from the configuration alone (read once per configuration)."""

    weights: Weights
    usersets: dict[str, frozenset[str]]
    pes: list[PeConf]
    global_user_lists: tuple[str, ...]
    global_xuser_lists: tuple[str, ...]
    global_projects: tuple[tuple[str, ...], tuple[str, ...]]


def _conf(core: Core) -> _ViewConf:
    return core.per_config("sched_view_conf", _ViewConf, lambda: _read_conf(core))


def _read_conf(core: Core) -> _ViewConf:
    """The global host's access lists and projects hold for every host (the cluster
    configuration's lists are checked at submission)."""
    glob = core.config.exechosts.get(GLOBAL_HOST)
    attrs = glob.attrs if glob is not None else {}
    users, xusers, projects, xprojects = (
        tuple(f.split_list(attrs.get(key, "NONE")))
        for key in ("user_lists", "xuser_lists", "projects", "xprojects")
    )
    return _ViewConf(
        _weights(core), _usersets(core), _pe_confs(core), users, xusers, (projects, xprojects)
    )


def _running(core: Core, now: float) -> list[Running]:
    """What the active tasks hold, and until when: read from the bookings (a task books
    while it is active), not from every job of the cell (a million waiting ones)."""
    default = core.config.sched_conf.default_duration
    out: list[Running] = []
    held_by_ar = {ar.ar_id for ar in core.ars.values() if ar.state in LIVE}
    jobs = core.jobs
    for (job_id, task_id), held in core.booked.by_task.items():
        job = jobs.get(job_id) if job_id > 0 and held else None  # AR bookings: ids <= 0
        task = job.tasks.get(task_id) if job is not None else None
        if job is None or task is None or task.state not in ACTIVE:
            continue
        if job.spec.ar and job.spec.ar in held_by_ar:
            continue  # inside what its AR holds
        length = duration(as_map(job.spec.hard_resources), default)
        began = task.start_time or task.dispatch_time or now
        out.append(Running(held, began + length))
    return out


def _reserving(core: Core, jobs: list[JobRequest], advance: list[Booked]) -> bool:
    """The pass plans ahead (reservations or advance reservations): it needs the running tasks."""
    if advance:
        return True
    return core.config.sched_conf.max_reservation > 0 and any(j.reserve for j in jobs)


def _advance(core: Core, now: float) -> tuple[list[Booked], frozenset[str]]:
    """What advance reservations not yet over hold, and their queue instances."""
    spans: list[Booked] = []
    queues: set[str] = set()
    for ar in core.ars.values():
        if ar.state in LIVE and ar.end_time > now:
            spans.append(Booked(ar.debits, ar.start_time, ar.end_time))
            queues.update(name for name, _ in ar.granted)
    return spans, frozenset(queues)


def assemble(
    core: Core,
    jobs: list[JobRequest],
    now: float,
    *,
    empty: bool = False,
    levels: LevelCache | None = None,
) -> View:
    """A view of the cell for ``jobs``; ``empty`` ignores every booking (``qsub -w v``).

    The levels and queue instances are the core's kept view
    (:mod:`qmaster.core.keptview`) unless ``levels`` are given or ``empty``."""
    booked = Bookings() if empty else core.booked
    kept = None
    if empty or levels is not None:
        running = {} if empty else running_slots_by_host(booked)
        levels = levels or level_cache(core, running)
        global_level, hosts = levels.view_hosts(booked, running)
        queues = levels.view_queues(booked)
        if not empty:  # disabled, suspended or in error: no new jobs (qsub -w v ignores states)
            queues = for_scheduler(core, queues)
    else:
        kept = kept_view(core)
        levels = kept.levels
        global_level, hosts, queues = kept.glob, kept.hosts, kept.queues  # read, not written
    advance, ar_queues = _advance(core, now)
    advance = [] if empty else advance
    conf = core.config
    sched = conf.sched_conf
    parts = _conf(core)
    view = View(
        jobs=jobs,
        queues=queues,
        usersets=parts.usersets,
        config=conf,
        complexes=conf.complexes,
        global_level=global_level,
        hosts=hosts,
        pes=_pes(core, booked),
        global_user_lists=parts.global_user_lists,
        global_xuser_lists=parts.global_xuser_lists,
        global_projects=parts.global_projects,
        max_reservation=sched.max_reservation,
        default_duration=sched.default_duration if sched.default_duration >= 0 else math.inf,
        running=[]
        if empty or kept is not None or not _reserving(core, jobs, advance)
        else _running(core, now),
        advance=advance,
        ar_queues=ar_queues,
        weights=parts.weights,
        named=levels.named,
        **load_settings(core, now, empty),
    )
    if not empty:
        view.quota = pass_quota(core, view)
    if kept is not None:
        view.kept, view.written = kept.cache, kept.written
        if _reserving(core, jobs, advance):
            view.running_plan = kept_plan(core, now)
    return view


def build_view(core: Core, now: float) -> View:
    """The view of one pass: jobs with dispatchable pending tasks, and the cell."""
    maxujobs = core.config.sched_conf.maxujobs
    jobs: list[JobRequest] = []
    for job in core.jobs.values():
        if job.pending:
            request = pending_request(core, job, now, maxujobs)
            if request is not None:
                jobs.append(request)
    return with_limits(core, assemble(core, jobs, now))


def with_limits(core: Core, view: View) -> View:
    """The view with ``maxujobs`` and each user's running jobs, when the limit is set."""
    maxujobs = core.config.sched_conf.maxujobs
    if maxujobs:
        view.maxujobs = maxujobs
        view.user_running = running_jobs_per_user(core)
    return view


def task_debits(core: Core, job: Job, task: Task, view: View) -> tuple[Debit, ...]:
    """What a task's assignment books under the current configuration (for recovery)."""
    request = job_request(job, [task.task_id])
    compiled = compile_requests(view.complexes, request.hard_resources, request.soft_resources)
    by_name = {q.name: q for q in view.queues}
    assignment = [(by_name[name], n) for name, n in task.assignment if name in by_name]
    if not assignment:
        return ()
    booked = debits(compiled, view, assignment)
    if job.spec.pe_name:
        pe = next((p for p in sorted(view.pes) if _pe_of(job, p, assignment)), None)
        if pe is not None:
            booked += (("pe", pe, "slots", float(sum(n for _, n in assignment))),)
    return booked


def _pe_of(job: Job, pe: str, assignment: list[tuple[QueueState, int]]) -> bool:
    return fnmatchcase(pe, str(job.spec.pe_name)) and all(pe in q.pe_list for q, _ in assignment)


def recovery_view(core: Core, now: float) -> View:
    """An empty view of the current configuration, built once per configuration."""
    return core.per_config("recovery_view", View, lambda: assemble(core, [], now, empty=True))
