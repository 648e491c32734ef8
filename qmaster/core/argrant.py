"""Granting an advance reservation: its window, who may use what, and where it fits.

Resources are selected with the scheduler's matching (categories, the
global -> host -> queue hierarchy, PE allocation rules), asked for the AR's
window against the core's booking calendar: every other AR over its window,
and every running job until its expected end (``h_rt`` plus
``DURATION_OFFSET``; a job without ``h_rt`` holds its resources for ever).
On top of what a job would need:

- every user of the AR's ``-u`` list must be allowed on a queue instance
  (and its host, and the cluster) for it to be reserved;
- a queue instance running a job without ``h_rt`` is never reserved;
- ``-now y`` reserves only interactive queue instances;
- ``-ckpt name`` reserves only queue instances whose ``ckpt_list`` holds it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from qmaster.conf.fields import split_list
from qmaster.core.activetasks import active_tasks
from qmaster.core.arlife import ACTIVE
from qmaster.core.arlimit import duration_offset
from qmaster.core.arspec import ArSpec
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobs import Identity, Job, Task
from qmaster.core.jobspec import as_map
from qmaster.core.view import assemble
from schedd import JobRequest, QueueState, View
from schedd.calendar import Calendar, Keep, Placement, Placer
from schedd.categories import Category
from schedd.matching import may_access
from schedd.requests import duration

if TYPE_CHECKING:
    from qmaster.core.machine import Core


END_OF_TIME = float(2**32 - 1)
"""The latest end an AR can have: Grid Engine keeps times as 32-bit unsigned seconds."""


def window(spec: ArSpec, now: float) -> tuple[float, float]:
    """Start and end from ``a``, ``e``, ``d``, derived and checked as Grid Engine does.

    Without ``-a`` the start is ``e - d`` when both are given, else now (``-d``
    or ``-e`` alone); ``-a`` needs ``-e`` or ``-d``; all three must agree.
    """
    a, e, d = spec.start, spec.end, spec.duration
    if e is None and d is None:
        raise InvalidRequest(
            'missing value for "end time or duration" in advance reservation request'
        )
    if a is None:
        # -e with -d: the start is end minus duration; -d or -e alone: it is now
        a = e - d if e is not None and d is not None else now
    if e is None:
        e = min(a + (d or 0.0), END_OF_TIME)  # saturates as Grid Engine's 32-bit times do
    elif d is not None and abs((e - a) - d) > 0.5:
        raise InvalidRequest(
            "difference between end and start time does not correspond to duration"
        )
    if a > e:
        raise InvalidRequest("start time is later than end time")
    if a < now - 1.0:
        raise InvalidRequest("start time is in the past")
    return float(a), float(e)


def ar_request(who: Identity, spec: ArSpec) -> JobRequest:
    """The AR as the scheduler's matching sees a job."""
    pe_min = spec.pe_min or 1
    return JobRequest(
        job_id=0,
        priority=0,
        submit_time=0.0,
        owner=who.user,
        group=who.group,
        task_ids=[0],
        slots=pe_min if spec.pe_name else 1,
        pe_name=spec.pe_name,
        pe_min=pe_min,
        pe_max=spec.pe_max or pe_min,
        hard_queues=spec.hard_queues or (),
        hard_resources=as_map(spec.hard_resources),
        master_queues=spec.master_queues or (),
    )


def placer(core: Core, now: float) -> Placer:
    """The prepared matching for the current configuration (built once per change)."""
    return core.per_config("placer", Placer, lambda: Placer(assemble(core, [], now, empty=True)))


def calendar(core: Core, now: float) -> Calendar:
    """The ARs' calendar with every running job (not of an AR) until its expected end."""
    offset = duration_offset(core)
    default = core.config.sched_conf.default_duration
    extra: list[tuple[tuple[Any, ...], float, float]] = []
    for job, task, held in _booked_tasks(core):
        if held:
            length = duration(as_map(job.spec.hard_resources), default)
            began = task.start_time or task.dispatch_time or now
            extra.append((held, -math.inf, began + length + offset))
    return core.ar_calendar.with_spans(extra)


def _booked_tasks(core: Core) -> Iterator[tuple[Job, Task, tuple[Any, ...]]]:
    """The active tasks of jobs not in an AR with what they book, in job and task order."""
    for job, task in active_tasks(core):
        if not job.spec.ar and task.state in ACTIVE:
            yield job, task, tuple(core.booked.by_task[job.job_id, task.task_id])


def _unlimited_queues(core: Core) -> set[str]:
    """Queue instances running a job without ``h_rt`` (never reserved)."""
    out: set[str] = set()
    for job, task, _ in _booked_tasks(core):
        if job.spec.resource("h_rt") is None:
            out.update(name for name, _ in task.assignment)
    return out


def principals(usersets: Mapping[str, frozenset[str]], acl: list[str]) -> list[tuple[str, str]]:
    """``(user, group)`` pairs that must all have access: users, @usersets, @groups."""
    out: list[tuple[str, str]] = []
    for entry in acl:
        if not entry.startswith("@"):
            out.append((entry, ""))
        elif entry[1:] in usersets:
            for member in usersets[entry[1:]]:
                out.append(("", member[1:]) if member.startswith("@") else (member, ""))
        else:
            out.append(("", entry[1:]))
    return out


def access_filter(view: View, acl: list[str]) -> Keep:
    """Queue instances every user of the AR's access list may use (host and cluster too)."""
    people = [JobRequest(0, 0, 0.0, u, g, [0]) for u, g in principals(view.usersets, acl)]
    sets = view.usersets

    def keep(q: QueueState) -> bool:
        host = view.host(q.host)
        return all(
            may_access(p, q.user_lists, q.xuser_lists, sets)
            and may_access(p, host.user_lists, host.xuser_lists, sets)
            and may_access(p, view.global_user_lists, view.global_xuser_lists, sets)
            for p in people
        )

    return keep


def state_filter(core: Core, spec: ArSpec) -> Keep | None:
    """What changes with the cell's state: no queue instance running a job without h_rt;
    only interactive ones with ``-now y``; only those whose ``ckpt_list`` holds the
    ``-ckpt`` object. None when nothing is excluded."""
    busy = _unlimited_queues(core)
    interactive = bool(spec.immediate)
    ckpt = spec.ckpt
    if not busy and not interactive and not ckpt:
        return None

    def keep(q: QueueState) -> bool:
        if q.name in busy:
            return False
        qi = core.queue_instance(q.name)
        if interactive and (qi is None or "INTERACTIVE" not in qi.qtype):
            return False
        return not ckpt or (qi is not None and ckpt in split_list(qi.attrs.get("ckpt_list", "")))

    return keep


def prepare(
    core: Core, who: Identity, spec: ArSpec, acl: list[str], now: float
) -> tuple[Placer, JobRequest, Category]:
    """The matching, the AR as a request, and its category narrowed to what it may reserve."""
    found = placer(core, now)
    request = ar_request(who, spec)
    access = access_filter(found.view, acl)
    cat = found.category(request, access, tuple(acl), state_filter(core, spec))
    return found, request, cat


def grant(
    core: Core, who: Identity, spec: ArSpec, acl: list[str], span: tuple[float, float],
    now: float,
) -> tuple[Placement | None, float | None]:  # fmt: skip
    """Where the AR fits during ``span``; if nowhere, the earliest start that would fit."""
    found, request, cat = prepare(core, who, spec, acl, now)
    booked = calendar(core, now)
    placed = found.place(request, cat, booked, span)
    if placed is not None or not cat.static:
        return placed, None
    return None, found.earliest(request, cat, booked, span)


def local_time(t: float) -> str:
    """Grid Engine's date display (local time)."""
    return time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(t))
