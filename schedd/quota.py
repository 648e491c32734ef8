"""Resource quota limits in a scheduling pass (sge_resource_quota_schedd.c).

A job goes to a queue instance only where, in every enabled set, the first rule that
matches it (user, group, project, PE, cluster queue, host) leaves room: for a
consumable limit, what the running tasks use under that rule and rue name plus what
the pass has dispatched, plus what the job would use, stays within the limit (a
dynamic limit, ``$num_proc*2``, is worked out with the host's values); a
non-consumable limit only refuses a job that requests the attribute with a value the
limit does not satisfy. Refused: ``cannot run because it exceeds limit "RUE" in rule
"SET/RULE"``. The pass books what it dispatches here too, so later jobs see it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from qmaster.complexes.compare import satisfies
from qmaster.complexes.formula import evaluate
from qmaster.complexes.types import Consumable
from qmaster.complexes.values import ValueParseError
from qmaster.rqs.match import Who
from qmaster.rqs.model import RqsFilter, RqsSet, dynamic_terms
from qmaster.rqs.usage import Key, Quotas, Requester
from schedd.reasons import Reason, ReasonList

if TYPE_CHECKING:
    from schedd.categories import Category
    from schedd.pass_ import _Pass
    from schedd.pe import Assignment
    from schedd.view import JobRequest, QueueState

_EPSILON = 1e-9


def quota_reason(rule_name: str, rue: str) -> Reason:
    """SCHEDD_INFO_CANNOTRUNRQSGLOBAL_SS for one limit."""
    return Reason("rqs_limit", "global", f"{rule_name}={rue}", attribute=rule_name, offered=rue)


class PassQuota:
    """The limits of one pass: what running tasks use, and what the pass adds."""

    __slots__ = (
        "_requesters", "added", "closed", "everywhere", "host_value", "job_id", "quotas",
        "refused", "totals",
    )  # fmt: skip

    def __init__(
        self,
        quotas: Quotas,
        totals: Mapping[Key, float],
        host_value: Callable[[str, str], float | None],
    ) -> None:
        self.quotas = quotas
        self.totals = totals
        self.host_value = host_value
        self.added: dict[Key, float] = {}
        self._requesters: dict[int, Requester] = {}
        self.job_id = 0
        self.everywhere = False
        """The last refusal holds on every queue instance (rqs_exceeded_sort_out())."""
        self.refused: list[Reason] = []
        """The limits the job :attr:`job_id` exceeded in this pass."""
        self.closed: set[int] = set()
        """The jobs a limit held back in this pass (their groups' other jobs too)."""

    # -- in the pass -------------------------------------------------------------

    def place(
        self, run: _Pass, job: JobRequest, cat: Category, window: tuple[float, float], g: int
    ) -> tuple[Assignment, str | None] | None:
        """Where the job goes now within every limit (the pass's untimed placement)."""
        if self.job_id != job.job_id:
            self.job_id, self.refused = job.job_id, []
        room, held = self._room_everywhere(job)
        if held is not None and room < (job.pe_min if job.pe_name else 1):
            self._refuse(held)  # no instance would do: none is looked at
            return None
        if job.pe_name:
            exhausted = cat.exhausted
            trial = job if room >= job.pe_max else replace(job, pe_max=room)
            found: tuple[Assignment, str | None] | None = run.place_pe(trial, cat, window, g, False)
            if trial is not job and found is None:
                cat.exhausted = exhausted  # the full range may still fit the others
                if held is not None:
                    self._refuse(held)
            if found is not None and (why := self.refusal_all(job, *found)) is not None:
                found = self._fewer(run, job, cat, window, g, sum(n for _, n in found[0]))
                if found is None:
                    self._refuse(why)
            if found is not None:
                self.debit(job, *found)
            return found
        run._resort(cat)
        assignment = self._serial(run, job, cat, window)
        if assignment is None:
            return None
        self.debit(job, assignment, None)
        return assignment, None

    def _room_everywhere(self, job: JobRequest) -> tuple[int, Reason | None]:
        """The slots the rules that hold alike on every queue instance leave the job (a
        big number when none limits it), and the reason of the tightest."""
        req = self.requester(job)
        who = Who(req.user, req.group, req.project, job.pe_name, "", "")
        room, why = 1 << 30, None
        for rqs, index, rue in self.quotas.rules_for(who):
            if not _everywhere(rqs, index):
                continue
            for attr, value in rqs.rules[index].limits:
                per = self.quotas.per_slot(attr, req.requests)
                limit = self._limit(value, attr, "") if per and "$" not in value else None
                if limit is None:
                    continue
                key = (rqs.name, index, attr, rue)
                left = int((limit - self.totals.get(key, 0.0) - self.added.get(key, 0.0)) // per)
                if left < room:
                    room, why = max(left, 0), quota_reason(rqs.rule_name(index), rue)
        return room, why

    def _fewer(
        self,
        run: _Pass,
        job: JobRequest,
        cat: Category,
        window: tuple[float, float],
        g: int,
        total: int,
    ) -> tuple[Assignment, str | None] | None:
        """The most slots of the job's range, fewer than ``total``, the limits leave
        (parallel_check_and_debit_rqs_slots() lowers a parallel job's slots likewise)."""
        best: tuple[Assignment, str | None] | None = None
        low, high = job.pe_min, total - 1
        exhausted = cat.exhausted
        while low <= high:
            mid = (low + high) // 2
            found = run.place_pe(replace(job, pe_max=mid), cat, window, g, False)
            cat.exhausted = exhausted  # a smaller try failing says nothing of the others
            if found is not None and self.refusal_all(job, *found) is None:
                best, low = found, sum(n for _, n in found[0]) + 1
            else:
                high = mid - 1
        return best

    def _serial(
        self, run: _Pass, job: JobRequest, cat: Category, window: tuple[float, float]
    ) -> Assignment | None:
        """The pass's serial walk, where an instance a limit refuses to this job is passed
        over without dropping it for the category's other jobs."""
        candidates = cat.candidates
        full, nofree = run.drop.full, run.drop.nofree
        first_refused: int | None = None
        i = cat.start
        while i < len(candidates):
            q = candidates[i]
            if q.name not in nofree and q.name not in full and run.fits(cat, q, window, False):
                why = self.refusal(job, q.cqueue, q.host, 1)
                if why is None:
                    cat.start = i if first_refused is None else first_refused
                    return [(q, 1)]
                self._refuse(why)
                first_refused = i if first_refused is None else first_refused
                if self.everywhere:  # no other instance would do: the walk ends here
                    cat.start = first_refused
                    return None
            i += 1
        cat.start = i if first_refused is None else first_refused
        cat.exhausted = first_refused is None
        return None

    def _refuse(self, why: Reason) -> None:
        if why not in self.refused:
            self.refused.append(why)

    def noted(self, run: _Pass, job: JobRequest, cat: Category) -> bool:
        """The job waits for its own limits: note them with its category's reasons."""
        if self.job_id != job.job_id or not self.refused:
            return False
        reasons = with_quota(cat.reasons, self.refused) if run.why else cat.reasons
        run.plan.reasons[job.job_id] = reasons
        self.closed.add(job.job_id)
        return True

    def requester(self, job: JobRequest) -> Requester:
        """The job as the rules see it, its requests under their full names."""
        found = self._requesters.get(job.job_id)
        if found is None:
            table = self.quotas.complexes
            requests = {}
            for name, value in job.hard_resources.items():
                entry = table.get(name)
                requests[entry.name if entry is not None else name] = value
            found = Requester(job.owner, job.group, job.project, requests)
            self._requesters[job.job_id] = found
        return found

    def _limit(self, value: str, attr: str, host: str) -> float | None:
        if "$" in value:
            total = evaluate(dynamic_terms(value), lambda n: self.host_value(host, n))
            return 0.0 if total is None else total
        entry = self.quotas.complexes.get(attr)
        try:
            parsed = entry.parse(value) if entry is not None else None
        except ValueParseError:
            return None
        return parsed if isinstance(parsed, float) else None

    def refusal(
        self, job: JobRequest, queue: str, host: str, slots: int, pe: str | None = None
    ) -> Reason | None:
        """Why ``slots`` of the job may not go to ``queue@host`` (None: they may)."""
        req = self.requester(job)
        who = Who(req.user, req.group, req.project, pe, queue, host)
        table = self.quotas.complexes
        for rqs, index, rue in self.quotas.rules_for(who):
            for attr, value in rqs.rules[index].limits:
                entry = table.get(attr)
                if entry is None:
                    continue
                if attr == "slots" or entry.consumable is not Consumable.NO:
                    per = self.quotas.per_slot(attr, req.requests)
                    if not per:
                        continue
                    limit = self._limit(value, attr, host)
                    key = (rqs.name, index, attr, rue)
                    used = self.totals.get(key, 0.0) + self.added.get(key, 0.0)
                    if limit is None or used + slots * per > limit + _EPSILON:
                        self.everywhere = _everywhere(rqs, index)
                        return quota_reason(rqs.rule_name(index), rue)
                elif attr in req.requests and not self._satisfied(attr, req.requests[attr], value):
                    self.everywhere = _everywhere(rqs, index)
                    return quota_reason(rqs.rule_name(index), rue)
        return None

    def _satisfied(self, attr: str, requested: str, limit: str) -> bool:
        entry = self.quotas.complexes[attr]
        try:
            return satisfies(entry.type, entry.relop, entry.parse(requested), entry.parse(limit))
        except ValueParseError:
            return False

    def refusal_all(
        self, job: JobRequest, assignment: Iterable[tuple[QueueState, int]], pe: str | None
    ) -> Reason | None:
        """Why a parallel job's whole assignment exceeds a limit (None: it does not)."""
        placed = [(q.name, n) for q, n in assignment]
        before = dict(self.added)
        try:
            for (name, n), (q_cq, q_host) in zip(placed, _split(placed), strict=True):
                why = self.refusal(job, q_cq, q_host, n, pe)
                if why is not None:
                    return why
                self._add(job, [(name, n)], pe)
            return None
        finally:
            self.added = before

    def debit(
        self, job: JobRequest, assignment: Iterable[tuple[QueueState, int]], pe: str | None
    ) -> None:
        """The pass dispatched the job there: later jobs see its use."""
        self._add(job, [(q.name, n) for q, n in assignment], pe)

    def _add(self, job: JobRequest, placed: list[tuple[str, int]], pe: str | None) -> None:
        added = self.added
        for key, amount in self.quotas.contributions(self.requester(job), pe, placed):
            added[key] = added.get(key, 0.0) + amount


def _everywhere(rqs: RqsSet, index: int) -> bool:
    """The rule, and every rule of its set before it, has no host or queue filter of its
    own (none, or ``*`` unexpanded): what it refuses on one instance it refuses on all."""
    return all(
        _global(rule.filter("hosts")) and _global(rule.filter("queues"))
        for rule in rqs.rules[: index + 1]
    )


def _global(flt: RqsFilter | None) -> bool:
    return flt is None or (not flt.expand and flt.scope == ("*",) and not flt.xscope)


def with_quota(reasons: ReasonList, refused: list[Reason]) -> ReasonList:
    """A job's reasons: its category's and the limits it exceeded (its own)."""
    mine = ReasonList()
    mine.extend_from(reasons)
    for reason in refused:
        mine.add(reason)
    return mine


def _split(placed: list[tuple[str, int]]) -> list[tuple[str, str]]:
    return [(name.partition("@")[0], name.partition("@")[2]) for name, _ in placed]
