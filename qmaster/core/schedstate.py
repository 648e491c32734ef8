"""The scheduler's state kept between passes, checked against a rebuild from scratch.

What a pass keeps (see :mod:`qmaster.core.schedlevels`, :mod:`qmaster.core.schedjobs`
and :mod:`qmaster.core.pendingindex`): the levels of the configuration state,
each job's request, the index of pending jobs in groups, and the bookings the
core applies as deltas. :func:`check_scheduler_caches` recomputes each of them
from the jobs, tasks and configuration and names every difference;
:func:`scratch_view` is the view a pass would see if nothing were kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from qmaster.complexes.levels import Level
from qmaster.complexes.load import running_slots_by_host, summed_running_slots
from qmaster.core.holds import dispatchable_tasks, start_time
from qmaster.core.keptplan import KEPT_PLAN_KEY, KeptPlan
from qmaster.core.keptview import KEPT_KEY, KeptView, states_key
from qmaster.core.machine import Core
from qmaster.core.pendingindex import PendingIndex, kept_index
from qmaster.core.qinstances import for_scheduler
from qmaster.core.schedjobs import RequestMemo, _limited, _request, request_memo
from qmaster.core.schedlevels import LEVELS_KEY, LevelCache
from qmaster.core.view import _running, assemble, with_limits
from qmaster.core.viewload import load_settings
from schedd import JobRequest, View
from schedd.candidates import KeptOrder, order_differs
from schedd.catkeys import with_category
from schedd.freeslots import free_slots_differ
from schedd.groups import Groups
from schedd.kept import no_free_differs
from schedd.keptbound import first_bounds_differ
from schedd.load import LoadModel
from schedd.order import dispatch_order
from schedd.reservation import peaks_differ

_EPSILON = 1e-6


def force_full_pass(core: Core) -> None:
    """Make the next due pass run, as if something changed."""
    core.sched_dirty = True


def fresh_request(job: Any) -> JobRequest:
    """A job's request derived now, nothing kept."""
    return with_category(_request(job))


def scratch_view(core: Core, now: float, *, kept_requests: bool = False) -> View:
    """The view of a pass built from scratch: every level parsed, every job walked and
    its request derived again (``kept_requests``: each job's kept request copied with
    its tasks, as every pass did before the pending index)."""
    maxujobs = core.config.sched_conf.maxujobs
    jobs: list[JobRequest] = []
    for job in core.jobs.values():
        if job.pending and not job.spec.ar:
            tasks = dispatchable_tasks(core, job, now)
            if tasks:
                base = request_memo(job).base if kept_requests else fresh_request(job)
                request = replace(base, task_ids=tasks)
                jobs.append(_limited(core, job, request, maxujobs))
    levels = LevelCache(core, running_slots_by_host(core.booked))
    return with_limits(core, assemble(core, jobs, now, levels=levels))


def check_scheduler_caches(core: Core, now: float | None = None) -> list[str]:
    """What the kept scheduler state says differently from a rebuild (empty when fine)."""
    problems = _bookings(core)
    problems += _levels(core)
    problems += _memos(core)
    problems += _index(core, now)
    problems += _kept_view(core)
    problems += _first_bounds(core, core.now if now is None else now)
    problems += _kept_orders(core, core.now if now is None else now)
    problems += _kept_plan(core, core.now if now is None else now)
    return problems


def _kept_plan(core: Core, now: float) -> list[str]:
    """The running tasks' bookings over time, kept, against those of every task now."""
    found = core.derived.get(KEPT_PLAN_KEY)
    kept = found[1] if found is not None else None
    if not isinstance(kept, KeptPlan) or kept.default != core.config.sched_conf.default_duration:
        return []  # built afresh at the next pass
    plan = kept.sync(core, now)
    want: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for run in _running(core, now):
        for kind, name, attr, amount in run.debits:
            want.setdefault((kind, name, attr), []).append((run.end, amount))
    mine = {key: [(e, a) for _, e, a in spans] for key, spans in plan.spans.items()}
    return [
        f"kept plan: {' '.join(key)} holds {sorted(mine.get(key, []))}, "
        f"the running tasks {sorted(want.get(key, []))}"
        for key in sorted(set(want) | set(mine))
        if sorted(mine.get(key, [])) != sorted(want.get(key, []))
    ] + peaks_differ(plan)


def _first_bounds(core: Core, now: float) -> list[str]:
    """The earliest-start search's kept bounds against rooms worked out on the kept plan."""
    found, plan = core.derived.get(KEPT_KEY), core.derived.get(KEPT_PLAN_KEY)
    kept = found[1] if found is not None else None
    kept_plan = plan[1] if plan is not None else None
    if not isinstance(kept, KeptView) or not isinstance(kept_plan, KeptPlan):
        return []

    def level_of(key: tuple[str, str]) -> Level | None:
        if key[0] == "host":
            state = kept.hosts.get(key[1])
            return state.level if state is not None else None
        return kept.by_name.get(key[1]) if key[0] == "queue" else None

    return first_bounds_differ(kept.cache, kept_plan.plan, level_of, now)


def _kept_view(core: Core) -> list[str]:
    """The kept view, brought up to date, against one built from scratch."""
    out: list[str] = []  # the running slots themselves: bookcheck.kept_by_bookings
    found = core.derived.get(KEPT_KEY)
    kept = found[1] if found is not None else None
    levels = core.derived.get(LEVELS_KEY)
    if (
        not isinstance(kept, KeptView)
        or levels is None
        or kept.levels is not levels[1]
        or levels[0] is not core.config.state
        or kept.states != states_key(core)
    ):
        return out  # built afresh at the next pass
    kept.sync(core.booked)
    fresh = LevelCache(core, summed_running_slots(core.booked))
    glob, hosts = fresh.view_hosts(core.booked, summed_running_slots(core.booked))
    queues = for_scheduler(core, fresh.view_queues(core.booked))
    if not _same_used(kept.glob, glob):
        out.append("kept view: the global level differs from a rebuild")
    for name in sorted(set(hosts) | set(kept.hosts)):
        mine, want = kept.hosts.get(name), hosts.get(name)
        if (
            mine is None
            or want is None
            or not _same_used(mine.level, want.level)
            or (replace(mine, level=want.level) != want)
        ):
            out.append(f"kept view: host {name} differs from a rebuild")
    if [q.name for q in kept.queues] != [q.name for q in queues]:
        return [*out, "kept view: other queue instances than a rebuild"]
    if no_free_differs(kept.cache, kept.queues):
        out.append("kept view: the instances kept as without a free slot differ from a rebuild")
    if free_slots_differ(kept.cache, View([], kept.queues, hosts=dict(kept.hosts))):
        out.append("kept view: the free slots kept per host differ from a rebuild")
    for q, rebuilt in zip(kept.queues, queues, strict=True):
        if not _same_used(q.queue_level, rebuilt.queue_level) or replace(q, level=None) != replace(
            rebuilt, level=None
        ):
            out.append(f"kept view: queue instance {q.name} differs from a rebuild")
    return out


def _kept_orders(core: Core, now: float) -> list[str]:
    """The queue instances kept in load order (all, and those of some groups), brought up
    to date as a pass would, against a full sort by the keys a pass would use."""
    found = core.derived.get(KEPT_KEY)
    kept = found[1] if found is not None else None
    if not isinstance(kept, KeptView) or kept.cache.get("queues") is not kept.queues:
        return []  # built afresh at the next pass
    view = View([], kept.queues, hosts=dict(kept.hosts), complexes=core.config.complexes,
                **load_settings(core, now, False))  # fmt: skip
    view.kept = kept.cache
    load = LoadModel(view, now)
    log = load.log
    if log is None:
        return []  # a pass would not read them (job load adjustments move the keys)
    orders = [o for g in kept.cache.values() if isinstance(g, Groups) for o, _ in g.orders.values()]
    every = kept.cache.get("in_order")
    orders += [every] if isinstance(every, KeptOrder) else []
    return [
        f"kept load order of {len(o.items)} queue instances differs from a sort"
        for o in orders
        if o.log is log and order_differs(o, load.key)
    ]


def _same_used(a: Level, b: Level) -> bool:
    return _same_level(a, b) and a.used == b.used


def _bookings(core: Core) -> list[str]:
    """The per-level sums against the debits each task booked."""
    total: dict[tuple[str, str], dict[str, float]] = {}
    for debits in core.booked.by_task.values():
        for kind, name, attr, amount in debits:
            at = total.setdefault((kind, name), {})
            at[attr] = at.get(attr, 0.0) + amount
    out: list[str] = []
    for key in sorted(set(total) | set(core.booked.used)):
        kept, want = core.booked.used.get(key, {}), total.get(key, {})
        for attr in sorted(set(kept) | set(want)):
            if abs(kept.get(attr, 0.0) - want.get(attr, 0.0)) > _EPSILON:
                out.append(f"booked {key[0]} {key[1]} {attr}: kept {kept.get(attr)}, "
                           f"tasks book {want.get(attr)}")  # fmt: skip
    return out


def _same_level(a: Level, b: Level) -> bool:
    return (a.values, a.sources, a.capacity, a.load_cap, a.forced) == (
        b.values,
        b.sources,
        b.capacity,
        b.load_cap,
        b.forced,
    )


def _levels(core: Core) -> list[str]:
    kept = core.derived.get(LEVELS_KEY)
    if kept is None or kept[0] is not core.config.state:
        return []
    cache = kept[1]
    assert isinstance(cache, LevelCache)
    fresh = LevelCache(core, {name: r for name, (r, _) in cache.by_load.items()})
    out = [] if _same_level(cache.glob, fresh.glob) else ["level global differs from a rebuild"]
    for name, (running, level) in cache.by_load.items():
        if not _same_level(level, fresh.host_level(name, running)):
            out.append(f"level of host {name} ({running:g} slots busy) differs from a rebuild")
    if [q.name for q in cache.queues] != [q.name for q in fresh.queues]:
        return [*out, "the queue instances kept differ from the configuration's"]
    for q, want in zip(cache.queues, fresh.queues, strict=True):
        if not _same_level(q.queue_level, want.queue_level) or replace(q, level=None) != replace(
            want, level=None
        ):
            out.append(f"queue instance {q.name} differs from a rebuild")
    for patterns, names in cache.named_lists().items():
        if names != fresh.named(patterns):
            out.append(f"the instances -q {','.join(patterns)} names differ from a rebuild")
    return out


def _memos(core: Core) -> list[str]:
    out: list[str] = []
    for job in core.jobs.values():
        kept = job.request_memo
        memo = kept[1] if kept is not None and kept[0] is job.spec else None
        if not isinstance(memo, RequestMemo) or memo.base.job_id != job.job_id:
            continue  # made afresh when next asked for
        want = fresh_request(job)
        if memo.base != want or memo.base.category != want.category:
            out.append(f"job {job.job_id}: kept request differs from its specification")
        if memo.start != start_time(job) or memo.in_ar != bool(job.spec.ar):
            out.append(f"job {job.job_id}: kept start time or AR differs")
        if memo.request is not None and memo.request.task_ids is not memo.tasks:
            out.append(f"job {job.job_id}: kept request names other tasks than it was made for")
    return out


def _index(core: Core, now: float | None) -> list[str]:
    index = kept_index(core)
    if index is None:
        return []
    fresh = PendingIndex(core, index.weight)
    touched = core.sched_touched
    out: list[str] = []
    for job_id in (set(index.where) | set(fresh.where)) - touched:
        if index.where.get(job_id) != fresh.where.get(job_id):
            out.append(f"job {job_id}: filed as {index.where.get(job_id)}, "
                       f"belongs at {fresh.where.get(job_id)}")  # fmt: skip
    for key, members in index.groups.items():
        if members != sorted(members) or any(index.where.get(m[2]) != (key, m) for m in members):
            out.append(f"group {key!r} is out of order or names jobs filed elsewhere")
    if now is not None and not touched and not out:
        out += _order(core, index, now)
    return out


def _order(core: Core, index: PendingIndex, now: float) -> list[str]:
    """The index read in full gives the same jobs, in the same order, as a rebuild."""
    groups = index.job_groups(core, now)
    every: list[JobRequest] = [j for g in groups for j in _all(g.first, g.rest)]
    scratch = scratch_view(core, now)
    view = assemble(core, every, now)
    mine = [(j.job_id, tuple(j.task_ids)) for j in dispatch_order(view, now)]
    want = [(j.job_id, tuple(j.task_ids)) for j in dispatch_order(scratch, now)]
    return [] if mine == want else ["the pending index orders other jobs than a rebuild"]


def _all(first: JobRequest, rest: Iterator[JobRequest]) -> Iterator[JobRequest]:
    yield first
    yield from rest
