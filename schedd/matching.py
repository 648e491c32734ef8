"""Matching a job's requests against one level: static checks, room for slots, debits.

The hierarchy is strict: global, then host, then queue instance; the first
level with an attribute that does not match ends the evaluation with a reason.
A level that does not define an attribute passes it on to the next one. An
attribute no level defines is an unknown resource.

*Static* checks (fixed and load values, forced attributes, a consumable's
whole capacity, access, ``-q`` and PE lists) cannot change during a pass, so
their verdict holds for a whole job category. *Room* (how many slots the
consumables left at a level allow) changes as the pass books; it only ever
shrinks during a pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fnmatch import fnmatchcase
from functools import partial

from qmaster.complexes.booking import Debit
from qmaster.complexes.compare import satisfies
from qmaster.complexes.levels import GLOBAL, HOST, LETTER, QUEUE, Level
from qmaster.complexes.types import Consumable, Relop, ValueType
from schedd.exclusive import blocked, debits_at
from schedd.reasons import Reason
from schedd.requests import Compiled, Req, Value
from schedd.reservation import Planner
from schedd.view import JobRequest, QueueState, View

BIG = 1 << 30
_EPS = 1e-9


def format_offer(vtype: ValueType, value: Value) -> str:
    """A value as Grid Engine prints it in scheduling info.

    Numbers are doubles there: ``%f`` (``1.000000``) unless the type is MEMORY
    (``1.000G``) or TIME (``01:00:00``).
    """
    if isinstance(value, str):
        return value
    if math.isinf(value):
        return "infinity"
    if vtype is ValueType.MEMORY:
        for unit, size in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
            if abs(value) >= size:
                return f"{value / size:.3f}{unit}"
        return f"{value:.0f}"
    if vtype is ValueType.TIME:
        whole = int(value)
        return f"{whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d}"
    return f"{value:f}"


def _offers(req: Req, level: Level, value: Value, source: str, *, reserved: bool = False) -> Reason:
    offered = f"{LETTER[level.kind]}{source}:{req.name}={format_offer(req.vtype, value)}"
    return Reason("offers_only", level.kind, level.name, req.name, req.text, offered, reserved)


def _full_or_offers(req: Req, level: Level, value: float, reserved: bool = False) -> Reason:
    if req.name == "slots" and level.kind == QUEUE and not reserved:
        code = "no_slots" if level.capacity.get("slots", 0.0) < 1 else "full"
        return Reason(code, QUEUE, level.name, "slots", req.text, format_offer(req.vtype, value))
    return _offers(req, level, value, "c", reserved=reserved)


def static_level(c: Compiled, level: Level) -> Reason | None:
    """The first static mismatch of a category's requests on one level, or None."""
    values = level.values
    for r in c.fixed:
        v = values.get(r.name)
        if v is not None and not satisfies(r.vtype, r.relop, r.value, v):
            return _offers(r, level, v, level.sources.get(r.name, "f"))
    for r in c.consumables:
        if c.parallel and r.per_job:
            continue  # the master queue's business (see master_reason)
        cap = level.capacity.get(r.name)
        load = level.load_cap.get(r.name)
        bound = cap if load is None else (load if cap is None else min(cap, load))
        if bound is not None and r.amount > bound + _EPS:
            return _full_or_offers(r, level, bound)
    for name in level.forced:
        if name not in c.requested:
            return Reason("forced", level.kind, level.name, name)
    return None


def unknown_resource(c: Compiled, levels: tuple[Level, Level, Level]) -> Reason | None:
    """A hard request no level defines (defaults excepted)."""
    for r in c.fixed + c.consumables:
        if c.parallel and r.per_job:
            continue  # the master queue's business (see master_reason)
        if not r.default and not any(lv.defines(r.name) for lv in levels):
            return Reason("unknown_resource", QUEUE, levels[2].name, r.name, r.text)
    return None


def master_reason(c: Compiled, levels: tuple[Level, Level, Level]) -> Reason | None:
    """Why a parallel job's ``JOB`` consumables rule out a queue instance as its master."""
    for r in c.consumables:
        if not r.per_job or r.default:
            continue
        if not any(lv.defines(r.name) for lv in levels):
            return Reason("unknown_resource", QUEUE, levels[2].name, r.name, r.text)
        for level in levels:
            cap = level.capacity.get(r.name)
            if cap is not None and r.amount > cap + _EPS:
                return _full_or_offers(r, level, cap)
    return None


def room(
    c: Compiled,
    level: Level,
    *,
    master: bool = True,
    planner: Planner | None = None,
    window: tuple[float, float] = (0.0, 0.0),
    timed: bool = False,
) -> tuple[int, Req | None]:
    """How many slots the consumables left on ``level`` allow, and which one limits it.

    With a planner, consumables held by a reservation (or all, when ``timed``)
    count what is free during the whole ``window``.
    """
    if c.excl:
        name = blocked(c.excl, level, planner, window, timed)
        if name is not None:
            wanted = dict(c.excl)[name]
            return 0, Req(name, "true" if wanted else "", ValueType.BOOL, Relop.EXCL,
                          Consumable.YES, 1.0)  # fmt: skip
    best, limit = BIG, None
    capacity, used, load_cap = level.capacity, level.used, level.load_cap
    for name, amount, per_job, r in c.counted:
        cap = capacity.get(name)
        if cap is None or (per_job and not master):
            continue
        if planner is not None and (timed or planner.affects(level, name)):
            avail = planner.available(level, name, *window)
        else:
            avail = cap - used.get(name, 0.0)
            if load_cap:
                load = load_cap.get(name)
                avail = avail if load is None or load > avail else load
        if per_job or amount <= 0:
            n = BIG if avail + _EPS >= amount else 0
        elif avail == math.inf:  # a queue limit of INFINITY (h_vmem) bounds nothing
            n = BIG
        else:
            n = int((avail + _EPS) // amount)
        if n < best:
            best, limit = n, r
            if n == 0:
                break
    return best, limit


def room_reason(req: Req, level: Level) -> Callable[[], Reason]:
    """Why a level has no room (what it offers of the limiting consumable), made when read.

    When what is free now would do, a reservation holds the rest: Grid Engine
    then adds " due to a reservation".
    """
    if req.relop is Relop.EXCL:
        return partial(Reason, "exclusive", level.kind, level.name, req.name, req.text or None)
    free = level.available(req.name)
    reserved = free + _EPS >= req.amount > 0
    return partial(_full_or_offers, req, level, free, reserved)


def soft_violations(c: Compiled, levels: tuple[Level, Level, Level], soft_queues: int) -> int:
    """How many soft requests (``-soft -l``, plus ``soft_queues`` misses) a queue violates."""
    count = soft_queues
    for r in c.soft:
        count += not _soft_ok(r, levels)
    return count


def _soft_ok(r: Req, levels: tuple[Level, Level, Level]) -> bool:
    found = False
    for level in levels:
        if r.name in level.capacity:
            found = True
            if level.available(r.name) + _EPS < r.amount:
                return False
        elif r.name in level.values:
            found = True
            if not satisfies(r.vtype, r.relop, r.value, level.values[r.name]):
                return False
    return found


def wc_queue_matches(pattern: str, cqueue: str, host: str, groups: Iterable[str]) -> bool:
    """One ``wc_queue`` of sge_types(1) against a queue instance: ``all.q``,
    ``all.q@host1``, ``*@host*``, ``all.q@@hostgroup`` (every part a wildcard)."""
    if "@" not in pattern:
        return fnmatchcase(cqueue, pattern)
    cq, _, where = pattern.partition("@")
    if not fnmatchcase(cqueue, cq or "*"):
        return False
    if where.startswith("@"):
        return any(fnmatchcase(g, where) for g in groups)
    return fnmatchcase(host, where or "*")


def queue_matches(pattern: str, q: QueueState) -> bool:
    """``-q`` patterns against a queue instance of the scheduler's view."""
    return wc_queue_matches(pattern, q.cqueue, q.host, q.host_groups)


def named_instances(queues: Sequence[QueueState], patterns: tuple[str, ...]) -> frozenset[int]:
    """The indices of the instances a ``-q`` list names."""
    return frozenset(i for i, q in enumerate(queues) if any(queue_matches(p, q) for p in patterns))


def may_access(
    job: JobRequest,
    users: tuple[str, ...],
    xusers: tuple[str, ...],
    usersets: Mapping[str, frozenset[str]],
) -> bool:
    """``user_lists``/``xuser_lists`` semantics: excluded wins, an empty list admits all."""

    def member(lists: tuple[str, ...]) -> bool:
        for n in lists:
            entries = usersets.get(n, frozenset())
            if job.owner in entries or f"@{job.group}" in entries:
                return True
        return False

    if xusers and member(xusers):
        return False
    return not users or member(users)


def project_reason(
    project: str | None,
    projects: tuple[str, ...],
    xprojects: tuple[str, ...],
    level: str,
    target: str,
) -> Reason | None:
    """queue_conf(5)/host_conf(5) ``projects``/``xprojects``: excluded wins; a non-empty
    ``projects`` admits only jobs of those projects (none without a project)."""
    if project is not None and project in xprojects:
        return Reason("excluded_project", level, target, requested=project)
    if projects and (project is None or project not in projects):
        return Reason("no_project", level, target, requested=project)
    return None


def debits(c: Compiled, view: View, assignment: list[tuple[QueueState, int]]) -> tuple[Debit, ...]:
    """What dispatching ``assignment`` books at every level (the first queue is the master)."""
    total = sum(n for _, n in assignment)
    hosts: dict[str, int] = {}
    for q, n in assignment:
        hosts[q.host] = hosts.get(q.host, 0) + n
    master = assignment[0][0]
    out: list[Debit] = []
    for r in c.consumables:
        _debit(out, r, view.global_level, total, True)
        for host, n in hosts.items():
            _debit(out, r, view.host(host).level, n, host == master.host)
        for q, n in assignment:
            _debit(out, r, q.queue_level, n, q is master)
    if c.excl:
        levels = [view.global_level, *(view.host(h).level for h in hosts)]
        for level in [*levels, *(q.queue_level for q, _ in assignment)]:
            out.extend(debits_at(c.excl, level))
    return tuple(out)


def _debit(out: list[Debit], r: Req, level: Level, n: int, master: bool) -> None:
    if r.name not in level.capacity or (r.per_job and not master):
        return
    amount = r.amount if r.per_job else r.amount * n
    if amount:
        out.append((level.kind, level.name, r.name, amount))


def apply(view: View, queues: Mapping[str, QueueState], booked: tuple[Debit, ...]) -> None:
    """Book debits into the view's levels (the pass's own bookkeeping)."""
    for kind, name, attr, amount in booked:
        if kind not in LETTER:
            continue
        level = _level(view, queues, kind, name)
        level.used[attr] = level.used.get(attr, 0.0) + amount
        view.written.append((kind, name))


def _level(view: View, queues: Mapping[str, QueueState], kind: str, name: str) -> Level:
    if kind == GLOBAL:
        return view.global_level
    if kind == HOST:
        return view.host(name).level
    return queues[name].queue_level
