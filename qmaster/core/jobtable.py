"""The cell's jobs by id, with who is named what and who waits for whom.

``qstat -j`` lists a job's predecessors and successors, ``-hold_jid`` may name
jobs by name (or by a pattern of names) of the same owner, and qalter's texts
resolve such lists: without an index each of these walks every job in the cell.
:class:`JobTable` is the core's ``jobs`` dict and keeps two indexes beside it,
filed as a job is added or removed and again when its name or its ``-hold_jid``
list changes (:meth:`JobTable.refile`, called where a job's specification is
replaced):

- each owner's job names, so a name costs a look-up and a pattern that owner's names;
- the jobs whose ``-hold_jid`` names a job id, or a name or pattern of their
  owner's, so a job's successors cost the jobs that wait for it (and the owner's
  patterns).

:func:`index_problems` rebuilds both and compares (``validate_state``).
"""

from __future__ import annotations

import fnmatch
from typing import TYPE_CHECKING, Any, TypeVar

from qmaster.digits import atol_u32

if TYPE_CHECKING:
    from qmaster.core.jobs import Job

K = TypeVar("K")
_MAGIC = frozenset("*?[")
Ref = tuple[str, str]  # ("", "7") for a job id, (owner, name) for a name
_Filed = tuple[str, str, tuple[Ref, ...]]


def job_number(ref: str) -> int | None:
    """The job id a ``-hold_jid`` reference gives, None for a name or pattern.

    As Grid Engine reads it: a reference that starts with a digit is a job id, the
    digits up to the first other character (``007``: 7, ``1abc``: 1), read as qdel,
    qalter and qstat -j read a job id (:func:`qmaster.digits.atol_u32`); a job name
    never starts with a digit.
    """
    return atol_u32(ref)


def _ref(user: str, ref: str) -> Ref:
    number = job_number(ref)
    return (user, ref) if number is None else ("", str(number))


def _refs(job: Job) -> tuple[Ref, ...]:
    """What the job's ``-hold_jid`` list names, as index keys (an id by its number)."""
    user = job.owner.user
    return tuple(dict.fromkeys(_ref(user, r) for r in job.hold_jids))


def _filing(job: Job) -> _Filed:
    return job.owner.user, job.name, _refs(job)


class JobTable(dict[int, "Job"]):
    """``core.jobs``: a dict of jobs by id that keeps its name and hold indexes."""

    __slots__ = ("_filed", "_names", "_patterns", "_waiting")

    def __init__(self) -> None:
        super().__init__()
        self._names: dict[str, dict[str, set[int]]] = {}
        self._waiting: dict[Ref, set[int]] = {}
        self._patterns: dict[str, set[str]] = {}  # each owner's -hold_jid patterns
        self._filed: dict[int, _Filed] = {}

    def __setitem__(self, job_id: int, job: Job) -> None:
        if job_id in self._filed:
            self._unfile(job_id)
        super().__setitem__(job_id, job)
        self._file(job_id, job)

    def __delitem__(self, job_id: int) -> None:
        super().__delitem__(job_id)
        self._unfile(job_id)

    # dict's other ways in and out would pass the indexes by: each goes through the two above

    def pop(self, job_id: int, *default: Job) -> Job:  # type: ignore[override]
        if job_id not in self:
            if default:
                return default[0]
            raise KeyError(job_id)
        job = self[job_id]
        del self[job_id]
        return job

    def popitem(self) -> tuple[int, Job]:
        job_id = next(reversed(self))
        return job_id, self.pop(job_id)

    def clear(self) -> None:
        for job_id in list(self):
            del self[job_id]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for job_id, job in dict(*args, **kwargs).items():
            self[job_id] = job

    def setdefault(self, job_id: int, job: Job) -> Job:
        if job_id not in self:
            self[job_id] = job
        return self[job_id]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (list(self.items()),))

    def refile(self, job: Job) -> None:
        """File the job again after its name or ``-hold_jid`` list may have changed."""
        if self.get(job.job_id) is job and self._filed.get(job.job_id) != _filing(job):
            self._unfile(job.job_id)
            self._file(job.job_id, job)

    def named(self, user: str, name: str) -> set[int]:
        """The ids of ``user``'s jobs called ``name``."""
        return set(self._names.get(user, {}).get(name, ()))

    def matching(self, user: str, pattern: str) -> set[int]:
        """The ids of ``user``'s jobs whose name matches the pattern ``pattern`` (a name
        without ``*``, ``?`` or ``[`` costs one look-up)."""
        if not _MAGIC.intersection(pattern):
            return self.named(user, pattern)
        found: set[int] = set()
        for name, ids in self._names.get(user, {}).items():
            if fnmatch.fnmatchcase(name, pattern):
                found |= ids
        return found

    def owned_by(self, users: set[str]) -> list[Job]:
        """The jobs of ``users`` (every job when ``users`` holds ``*``), oldest first.

        A user may be a pattern (job_list_filter()'s ``JB_owner p= user``): ``-u 'ro*'``
        is every owner whose name matches; a name without ``*``, ``?`` or ``[`` costs
        one look-up, a pattern a walk over the owners (not over the jobs)."""
        if "*" in users:
            return list(self.values())
        owners = {u for u in users if not _MAGIC.intersection(u)}
        for pattern in users - owners:
            owners.update(o for o in self._names if fnmatch.fnmatchcase(o, pattern))
        ids = [i for u in owners for named in self._names.get(u, {}).values() for i in named]
        return [self[i] for i in sorted(ids)]

    def matching_any(self, pattern: str, owner: str | None) -> set[int]:
        """The ids of ``owner``'s jobs (every owner's: None) whose name matches ``pattern``."""
        users = list(self._names) if owner is None else [owner]
        found: set[int] = set()
        for user in users:
            found |= self.matching(user, pattern)
        return found

    def waiting_for(self, job: Job) -> set[int]:
        """The jobs whose ``-hold_jid`` names ``job``, by its id or by its name."""
        user, name = job.owner.user, job.name
        found = self._waiting.get(("", str(job.job_id)), set())
        if not _MAGIC.intersection(name):  # else only the patterns below can name it
            found = found | self._waiting.get((user, name), set())
        for pattern in self._patterns.get(user, ()):
            if fnmatch.fnmatchcase(name, pattern):
                found = found | self._waiting[(user, pattern)]
        return found - {job.job_id}

    def _file(self, job_id: int, job: Job) -> None:
        filed = self._filed[job_id] = _filing(job)
        user, name, refs = filed
        self._names.setdefault(user, {}).setdefault(name, set()).add(job_id)
        for ref in refs:
            self._waiting.setdefault(ref, set()).add(job_id)
            if _MAGIC.intersection(ref[1]):
                self._patterns.setdefault(ref[0], set()).add(ref[1])

    def _unfile(self, job_id: int) -> None:
        user, name, refs = self._filed.pop(job_id)
        names = self._names[user]
        _discard(names, name, job_id)
        if not names:
            del self._names[user]
        for ref in refs:
            _discard(self._waiting, ref, job_id)
            if ref not in self._waiting and ref[1] in self._patterns.get(ref[0], ()):
                _discard_name(self._patterns, ref[0], ref[1])


def _discard(table: dict[K, set[int]], key: K, job_id: int) -> None:
    ids = table[key]
    ids.discard(job_id)
    if not ids:
        del table[key]


def _discard_name(table: dict[str, set[str]], user: str, pattern: str) -> None:
    patterns = table[user]
    patterns.discard(pattern)
    if not patterns:
        del table[user]


def _rebuilt(items: list[tuple[int, Job]]) -> JobTable:
    """A pickled table made again, its indexes filed as its jobs are put in."""
    table = JobTable()
    for job_id, job in items:
        table[job_id] = job
    return table


def index_problems(jobs: JobTable) -> list[str]:
    """Differences between the kept indexes and a rebuild from the jobs themselves."""
    fresh = JobTable()
    for job_id, job in jobs.items():
        fresh[job_id] = job
    problems = []
    if fresh._filed != jobs._filed:
        problems.append("job table: filed names or -hold_jid lists differ from the jobs'")
    if fresh._names != jobs._names:
        problems.append("job table: the names index differs from a rebuild")
    if fresh._waiting != jobs._waiting or fresh._patterns != jobs._patterns:
        problems.append("job table: the -hold_jid index differs from a rebuild")
    return problems
