"""Which holds a job is in, by the letters of qstat's ``-s h?`` flags.

``u`` user, ``o`` operator, ``s`` system hold; ``j`` waiting for a job
dependency (``-hold_jid``), ``d`` for an array dependency (``-hold_jid_ad``);
``a`` a start time was requested (``-a``; Grid Engine tests that the job has an
execution time, not that it lies ahead). qstat's filter and its scheduling info
ask only this function, so a finer hold model plugs in here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qmaster.core.jobs import Job

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def _predecessor_waits(core: Core, job: Job, refs: list[str]) -> bool:
    """Some job named in ``refs`` (an id, or a name of the same owner) still exists."""
    for ref in refs:
        if ref.isdigit():
            other = core.jobs.get(int(ref))
            if other is not None and other.job_id != job.job_id:
                return True
        elif any(
            j.name == ref and j.owner.user == job.owner.user and j.job_id != job.job_id
            for j in core.jobs.values()
        ):
            return True
    return False


def hold_letters(core: Core, job: Job) -> frozenset[str]:
    """The hold letters that apply to ``job`` now."""
    letters: set[str] = set()
    if job.user_hold:
        letters.add("u")
    if job.hold_jids and _predecessor_waits(core, job, job.hold_jids):
        letters.add("j")
    ad = [str(r) for r in job.spec.get("hold_jid_ad") or ()]
    if ad and _predecessor_waits(core, job, ad):
        letters.add("d")
    if job.spec.get("a"):
        letters.add("a")
    return frozenset(letters)
