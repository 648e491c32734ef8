"""Holds per task: which tasks of a job each of its hold bits holds.

Grid Engine keeps a job's not yet dispatched task ids in range lists per hold
(``JB_ja_n_h_ids`` none, ``JB_ja_u_h_ids`` user, ``_o_h_`` operator, ``_s_h_``
system; sge_jobL.h), and a started task keeps its own ``JAT_hold``. minige keeps
one :class:`~qmaster.core.taskids.TaskIds` per hold bit (a mapping ``u o s`` to
ids, no entry for a bit no task has): for a pending task the bit holds it back;
for a started task it is its ``JAT_hold`` (a rescheduled task comes back held).
``qsub -h`` gives every task the user hold (one range, whatever the array's
size); ``qhold 7.5`` on ``qsub -t 1-1000000`` splits that range in two, never
into a million ids. The sets may keep ids of finished tasks: every reader
intersects them with what it looks at (the pending ids, a started task).

Nothing here knows the core: these are the range sums qalter, qstat, the
scheduler and the spool work with.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from qmaster.core.taskids import TaskIds

if TYPE_CHECKING:
    from qmaster.core.jobs import Job

HOLD_BITS = ("u", "o", "s")
Holds = Mapping[str, TaskIds]
"""A job's holds: a hold bit to the ids it holds; never changed in place (a change makes a
new mapping), so one empty mapping serves every job without holds."""
NO_HOLDS: Holds = {}


def every_task(job: Job) -> TaskIds:
    """All ids of the job's range (one range): what a hold set of the job lies in."""
    return TaskIds.of(job.all_task_ids())


def unite(universe: TaskIds, sets: Iterable[TaskIds]) -> TaskIds:
    """The union of ``sets``, all within ``universe`` (costs their ranges, never their ids)."""
    rest = universe
    for ids in sets:
        if ids:
            rest = rest - ids
    return universe - rest


def held(job: Job) -> TaskIds:
    """Every id some hold bit of the job holds."""
    sets = list(job.holds.values())
    if len(sets) == 1:
        return sets[0]
    return unite(every_task(job), sets) if sets else TaskIds()


def free_pending(job: Job) -> TaskIds:
    """The pending tasks no hold bit holds (``JB_ja_n_h_ids``)."""
    if not job.holds:
        return job.pending
    return job.pending - held(job)


def pending_bits(job: Job) -> frozenset[str]:
    """The hold bits some pending task of the job has."""
    return frozenset(bit for bit, ids in job.holds.items() if ids & job.pending)


def task_bits(job: Job, task_id: int) -> frozenset[str]:
    """The hold bits of one task (a started task's ``JAT_hold``)."""
    return frozenset(bit for bit, ids in job.holds.items() if task_id in ids)


def uniform(job: Job, letters: Iterable[str]) -> Holds:
    """Holds giving every task of the job the bits ``letters`` (``qsub -h``: ``u``)."""
    bits = sorted(set(letters) & set(HOLD_BITS))
    if not bits:
        return NO_HOLDS
    every = every_task(job)
    return dict.fromkeys(bits, every)


def changed(every: TaskIds, before: Holds, ids: TaskIds, letters: str) -> Holds:
    """Holds ``before`` (of a job whose tasks are ``every``) after qalter ``-h letters`` on
    the tasks ``ids``: ``u o s`` add a hold, ``U O S`` remove it, ``n`` removes them all
    (in the order of the letters)."""
    holds = dict(before)
    for letter in letters:
        if letter in HOLD_BITS:
            holds[letter] = unite(every, (holds.get(letter, TaskIds()), ids))
        elif letter == "n":
            holds = {bit: have - ids for bit, have in holds.items()}
        elif letter.lower() in HOLD_BITS and letter.lower() in holds:
            holds[letter.lower()] = holds[letter.lower()] - ids
    return tidy(holds)


def tidy(holds: Mapping[str, TaskIds]) -> Holds:
    """Without empty sets, the bits in order (the shared empty mapping when none is left)."""
    kept = {bit: holds[bit] for bit in HOLD_BITS if holds.get(bit)}
    return kept or NO_HOLDS


def changed_ids(job: Job, old: Holds, new: Holds) -> TaskIds:
    """The ids whose hold bits differ between ``old`` and ``new``."""
    empty = TaskIds()
    differ = []
    for bit in HOLD_BITS:
        a, b = old.get(bit, empty), new.get(bit, empty)
        if a or b:
            differ += [a - b, b - a]
    return unite(every_task(job), differ)


def changed_bits(old: Holds, new: Holds) -> Iterator[tuple[str, bool]]:
    """Each bit some task gains or loses, with True when some task gains it."""
    empty = TaskIds()
    for bit in HOLD_BITS:
        a, b = old.get(bit, empty), new.get(bit, empty)
        if b - a:
            yield bit, True
        if a - b:
            yield bit, False


# -- qstat's groups --------------------------------------------------------------------

_GROUP_LETTERS = "uosa"
GROUP_ORDER: tuple[frozenset[str], ...] = tuple(
    frozenset(combo) for n in range(5) for combo in combinations(_GROUP_LETTERS, n)
)
"""job_create_hold_id_lists()'s sixteen hold combinations in its order: none, then
``u o s a`` alone, then the pairs, triples, all four (``a``: a ``-hold_jid_ad`` wait)."""


def hold_groups(
    universe: TaskIds, ids: TaskIds, sets: Mapping[str, TaskIds]
) -> list[tuple[frozenset[str], TaskIds]]:
    """``ids`` split by the letters of ``sets`` (``u o s a``) each id has, in qstat's
    order; only the non-empty groups (one group when no set touches ``ids``)."""
    touching = {letter: s & ids for letter, s in sets.items()}
    touching = {letter: s for letter, s in touching.items() if s}
    if not touching:
        return [(frozenset(), ids)] if ids else []
    out: list[tuple[frozenset[str], TaskIds]] = []
    for combo in GROUP_ORDER:
        if not combo <= touching.keys():
            continue
        group = ids
        for letter in _GROUP_LETTERS:
            if not group:
                break
            if letter in combo:
                group = group & touching[letter]
            elif letter in touching:
                group = group - touching[letter]
        if group:
            out.append((combo, group))
    return out


# -- the spool -------------------------------------------------------------------------


def to_spool(job: Job) -> tuple[str, dict[str, list[list[int]]]]:
    """The spool row's ``hold`` (the bits that hold every task of the job, as rows have
    always had them) and ``holds`` (each other bit's ranges as ``[start, stop, step]``)."""
    every = every_task(job)
    whole = "".join(sorted(bit for bit, ids in job.holds.items() if ids == every))
    some = {
        bit: [[r.start, r.stop, r.step] for r in ids.ranges]
        for bit, ids in job.holds.items()
        if bit not in whole
    }
    return whole, some


def from_spool(job: Job, row: Mapping[str, Any]) -> Holds:
    """The holds of a spool row: its ``hold`` bits hold every task (``user_hold``: the
    rows before the hold bits), its ``holds`` the tasks they name."""
    holds = dict(uniform(job, row.get("hold", "u" if row.get("user_hold") else "")))
    for bit, runs in (row.get("holds") or {}).items():
        holds[bit] = TaskIds(range(a, b, c) for a, b, c in runs)
    return tidy(holds)
