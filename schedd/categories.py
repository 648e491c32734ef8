"""Job categories and the per-pass category cache.

Jobs with identical requests (resources, queues, PE, master queue, and the
owner and group when access lists could tell them apart) share a category.
What is *never* possible for a category during a pass — the queue instances
and hosts whose static values, access or lists refuse it — is computed once,
for the first job of the category, and reused by the others. The category
keeps the remaining candidate queues in preference order (fewest soft
violations first, then the queue sort order); the list only shrinks during a
pass, because a pass only books, so a queue dropped for lack of room stays
dropped for the category's later jobs. It shrinks into new lists: the one a
category starts with is shared (its kept template's, its groups' load order).

Uncached, every job gets a fresh category: the same decisions, made slowly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qmaster.complexes.levels import GLOBAL, Level
from schedd.candidates import fitting_in_order, in_load_order, reordered
from schedd.catkeys import category_key
from schedd.catnames import gate, named_members, spread
from schedd.groups import Groups
from schedd.kept import (
    KeyLog,
    access_matters,
    compiled_requests,
    keep_template,
    kept_groups,
    named_cache,
    templates,
)
from schedd.matching import (
    may_access,
    named_instances,
    project_reason,
    queue_matches,
    soft_violations,
    static_level,
    unknown_resource,
)
from schedd.pe import job_pes
from schedd.queuetype import queue_type_reason
from schedd.reasons import Reason, ReasonList, Targets
from schedd.requests import Compiled
from schedd.view import JobRequest, QueueState, View


@dataclass(slots=True)
class Category:
    """A category's resolved requests, remaining candidate queues and reasons."""

    key: Hashable
    compiled: Compiled
    pes: tuple[str, ...] = ()
    static: list[QueueState] = field(default_factory=list)
    candidates: list[QueueState] = field(default_factory=list)
    start: int = 0
    reasons: ReasonList = field(default_factory=ReasonList)
    exhausted: bool = False
    length: float = -1.0
    sorted_at: int = 0
    """The pass's load version the candidates were last sorted at."""
    soft_rank: dict[str, int] | None = None
    """Soft-request violations per queue instance, when the job has soft requests."""
    log: KeyLog | None = None
    version: int = -1
    """A kept category's ``static`` is in the load order of ``log`` at ``version``."""
    parts: list[list[int]] | None = None
    """The groups (their members that fit) ``static`` is made of, when taken in load
    order from those shared by the categories of the same groups."""

    def note(self, reason: Reason | Callable[[], Reason], targets: Targets = None) -> None:
        """Remember a reason (spelt out per target, when given); duplicates are dropped."""
        self.reasons.add(reason, targets)


class CategoryCache:
    """Categories of one pass; counts hits (category reused) and misses (built)."""

    def __init__(
        self,
        view: View,
        queues: Sequence[QueueState],
        *,
        enabled: bool = True,
        order: Callable[[QueueState], tuple[float, float, str]] | None = None,
        log: KeyLog | None = None,
    ) -> None:
        self.view = view
        self.log = log
        """The hosts whose sort keys changed from pass to pass (``order`` is the kept
        keys' then): a kept category's instances are put in order by moving theirs."""
        self.queues = queues
        self.enabled = enabled
        self.order = order
        """The preference order of queue instances (``queues`` are in it when None)."""
        self.with_owner = access_matters(view)
        self.groups = kept_groups(view) if queues is view.queues else Groups(view, queues)
        self.named = named_cache(view) if queues is view.queues else {}
        """The instances (indices) each ``-q`` list names, worked out once per pass (or
        once while the view's queue instances are kept)."""
        self.entries: dict[Hashable, Category] = {}
        self.hits = 0
        self.misses = 0
        self._kept: tuple[dict[Hashable, Any] | None] | None = None
        """Where the categories are kept (:func:`templates`: the same for the whole pass),
        once asked."""

    def _templates(self) -> dict[Hashable, Any] | None:
        """:func:`templates` of the pass, worked out at the first ask."""
        if self._kept is None:
            self._kept = (templates(self.view, self.groups.names) if self.enabled else None,)
        return self._kept[0]

    def key(self, job: JobRequest) -> Hashable:
        """The job's category key in this pass."""
        return category_key(job, self.with_owner)

    def _named(self, patterns: tuple[str, ...]) -> frozenset[int]:
        """The instances a ``-q`` list names: by the names the view keeps, else matched."""
        if self.view.named is None:
            return named_instances(self.queues, patterns)
        names = self.view.named(patterns)
        return frozenset(i for i, q in enumerate(self.queues) if q.name in names)

    def _fitting(self, parts: list[list[int]]) -> list[QueueState]:
        """The members of ``parts`` in load order, shared with the other categories of
        the same groups and kept from pass to pass."""
        log, order = self.log, self.order
        assert log is not None
        assert order is not None
        every = lambda: in_load_order(self.view, self.queues, log, order)  # noqa: E731
        return fitting_in_order(self.groups, parts, self.queues, every, log, order)

    def known(self, job: JobRequest, key: Hashable | None = None) -> Category | None:
        """The job's category of this pass, else the kept one (neither copied nor counted).
        ``key``: the job's :meth:`key`, when known."""
        if key is None:
            key = category_key(job, self.with_owner)
        found = self.entries.get(key) if self.enabled else None
        kept = self._templates()
        if found is None and kept is not None:
            found = kept.get((key, self.groups.names, self.view.ar_queues))
        return found if isinstance(found, Category) else None

    def exhaust(self, job: JobRequest, made: Category, key: Hashable | None = None) -> Category:
        """The job's category, exhausted without taking its instances (none would do).
        ``key``: the job's :meth:`key`, when known."""
        if key is None:
            key = category_key(job, self.with_owner)
        cat = self.entries.get(key)
        self.hits += cat is not None
        self.misses += cat is None
        cat = cat or Category(key, made.compiled, made.pes, exhausted=True)
        cat.exhausted = True
        if self.enabled:
            self.entries[key] = cat
        return cat

    def peek(self, job: JobRequest) -> Category | None:
        """The job's category if the pass has made it already (no count)."""
        return self.entries.get(category_key(job, self.with_owner)) if self.enabled else None

    def category(self, job: JobRequest) -> Category:
        """The job's category, from the cache or evaluated now."""
        key = category_key(job, self.with_owner)
        if self.enabled:
            found = self.entries.get(key)
            if found is not None:
                self.hits += 1
                return found
        self.misses += 1
        named = None
        if job.hard_queues:
            named = self.named.get(job.hard_queues)
            if named is None:
                named = self.named[job.hard_queues] = self._named(job.hard_queues)
        kept = self._templates()
        made = kept.get((key, self.groups.names, self.view.ar_queues)) if kept else None
        shared = self.log is not None and self.queues is self.view.queues and kept is not None
        if isinstance(made, Category):
            parts = made.parts if shared and made.log is self.log else None
            shared_order = self._fitting(parts) if parts is not None else None
            cat = _from_template(made, self.order, self.log, shared_order)
        else:
            fitting = self._fitting if shared else None
            cat = evaluate(
                self.view, self.queues, self.groups, job, key, named, self.order, fitting
            )
            if kept is not None:
                made = _template(cat, self.log)
                keep_template(kept, (key, self.groups.names, self.view.ar_queues), made)
        if self.enabled:
            self.entries[key] = cat
        return cat


def _template(cat: Category, log: KeyLog | None) -> Category:
    """What a category is before a pass uses it, kept for the next passes."""
    reasons = ReasonList()
    reasons.extend_from(cat.reasons)
    return Category(cat.key, cat.compiled, cat.pes, cat.static, reasons=reasons,
                    exhausted=cat.exhausted, soft_rank=cat.soft_rank, log=log,
                    version=log.version if log is not None else -1,
                    parts=cat.parts)  # fmt: skip


def _from_template(
    made: Category, order: Callable[[QueueState], tuple[float, float, str]] | None,
    log: KeyLog | None, shared: list[QueueState] | None = None,
) -> Category:  # fmt: skip
    """A pass's category from a kept one: its instances in this pass's load order
    (``shared``: in it already, as the categories of the same groups have them).

    The lists are not copied: a pass never changes a category's ``static`` or
    ``candidates`` in place (it puts new lists there), so the category, its template
    and the other categories of its groups share them."""
    if shared is not None:
        static = shared
    elif order is None:
        static = made.static
    elif log is None or made.log is not log or made.soft_rank:
        static = sorted(made.static, key=order)
    else:  # in the order it was left in, but for the hosts whose keys changed since
        moved = log.since(made.version) if made.version != log.version else set()
        made.static = reordered(made.static, moved, order)
        made.version = log.version
        static = made.static
    if static is made.static and made.parts is not None:
        static = list(static)  # the shared order of its groups, which moves in place
    rank = made.soft_rank
    if rank:
        static = sorted(static, key=lambda q: rank[q.name])
    reasons = ReasonList()
    reasons.extend_from(made.reasons)
    return Category(made.key, made.compiled, made.pes, static, static, reasons=reasons,
                    exhausted=made.exhausted, soft_rank=rank, parts=made.parts)  # fmt: skip


def evaluate(
    view: View,
    queues: Sequence[QueueState],
    groups: Groups,
    job: JobRequest,
    key: Hashable,
    named: frozenset[int] | None = None,
    order: Callable[[QueueState], tuple[float, float, str]] | None = None,
    fitting_order: Callable[[list[list[int]]], list[QueueState]] | None = None,
) -> Category:
    """Build a category: resolve the requests, find every queue that can never run it.

    ``named``: the instances the job's ``-q`` list names (worked out here when not given);
    ``order``: the sort key of the instances' preference order (None: ``queues``' order);
    ``fitting_order``: the members of the groups that fit in load order (kept, shared by
    the categories of the same groups: cheaper than a sort when many instances fit).
    """
    compiled = compiled_requests(view, job)
    cat = Category(key, compiled, job_pes(view, job))
    if _job_level(view, job, cat):
        cat.exhausted = True
        return cat
    if job.hard_queues and named is None:
        named = named_instances(queues, job.hard_queues)
    fitting = 0
    parts: list[list[int]] = []
    hosts: dict[str, Reason | None] = {}
    for group in groups.of(view, job):
        members = group
        first = queues[members[0]]
        if named is not None:
            members = named_members(cat, queues, groups, group, named, gate(view, job, first))
            if not members:
                continue
            first = queues[members[0]]
        reason = _queue_never(view, job, cat, first, hosts)
        if reason is None:
            fitting += len(members)
            parts.append(members)
        else:
            cat.note(reason, spread(reason, queues, members))
    if order is not None and fitting_order is not None and fitting * 16 >= len(queues):
        static = fitting_order(parts)
        cat.parts = parts
    else:
        members = [i for part in parts for i in part]
        members.sort(key=None if order is None else lambda i: order(queues[i]))
        static = [queues[i] for i in members]
    if compiled.soft or job.soft_queues:
        cat.soft_rank = {q.name: _soft(view, job, compiled, q) for q in static}
        rank = cat.soft_rank
        static = sorted(static, key=lambda q: rank[q.name])
    cat.static = static
    cat.candidates = static
    cat.exhausted = not cat.candidates
    return cat


def _soft(view: View, job: JobRequest, compiled: Compiled, q: QueueState) -> int:
    levels = (view.global_level, view.host(q.host).level, q.queue_level)
    missed = bool(job.soft_queues) and not any(queue_matches(p, q) for p in job.soft_queues)
    return soft_violations(compiled, levels, int(missed))


def _job_level(view: View, job: JobRequest, cat: Category) -> bool:
    """Reasons that concern the job everywhere; True when it can run nowhere."""
    c = cat.compiled
    for name, text in c.unknown:
        cat.note(Reason("unknown_resource", GLOBAL, GLOBAL, name, text))
    if c.unknown or c.bad:
        for name, text in c.bad:
            cat.note(Reason("offers_only", GLOBAL, GLOBAL, name, text, "(bad value)"))
        return True
    if not may_access(job, view.global_user_lists, view.global_xuser_lists, view.usersets):
        cat.note(Reason("no_access", "host", GLOBAL))  # sge_host_match_static() of global
        return True
    no_project = project_reason(job.project, *view.global_projects, "host", GLOBAL)
    if no_project is not None:
        cat.note(no_project)
        return True
    if job.pe_name and not cat.pes:
        cat.note(Reason("pe_none", "job", job.pe_name))
        return True
    reason = static_level(c, view.global_level)
    if reason is not None:
        cat.note(reason)
        return True
    return False


def _host_never(view: View, job: JobRequest, c: Compiled, host: str) -> Reason | None:
    state = view.host(host)
    if not may_access(job, state.user_lists, state.xuser_lists, view.usersets):
        return Reason("no_access", "host", host)
    no_project = project_reason(job.project, state.projects, state.xprojects, "host", host)
    return no_project or static_level(c, state.level)


def _queue_never(
    view: View,
    job: JobRequest,
    cat: Category,
    q: QueueState,
    hosts: dict[str, Reason | None],
) -> Reason | None:
    if q.disabled:
        return Reason("disabled", "queue", q.name)
    if job.runtime_limit is None and q.name in view.ar_queues:
        return Reason("ar_no_h_rt", "queue", q.name)
    if job.hard_queues and not any(queue_matches(p, q) for p in job.hard_queues):
        return Reason("hard_queue", "queue", q.name)
    if cat.pes and not any(pe in q.pe_list for pe in cat.pes):
        return Reason("pe_list" if q.pe_list else "not_parallel", "queue", q.name, cat.pes[0])
    if job.ckpt is not None or job.immediate or "BATCH" not in q.qtype:
        kind = queue_type_reason(job, q)
        if kind is not None:
            return kind
    if q.host not in hosts:
        hosts[q.host] = _host_never(view, job, cat.compiled, q.host)
    if hosts[q.host] is not None:
        return hosts[q.host]
    if not may_access(job, q.user_lists, q.xuser_lists, view.usersets):
        return Reason("no_access", "queue", q.name)
    no_project = project_reason(job.project, q.projects, q.xprojects, "queue", q.name)
    if no_project is not None:
        return no_project
    level: Level = q.queue_level
    reason = static_level(cat.compiled, level)
    if reason is not None:
        return reason
    return unknown_resource(cat.compiled, (view.global_level, view.host(q.host).level, level))
