"""Scheduler job information: what ``qstat -j`` prints under ``scheduling info:``.

``schedd_job_info`` (sched_conf(5)) decides what is kept: ``true`` every
job's messages; ``false`` none, and the global message ``(Collecting of
scheduler job information is turned off)``; ``job_list <ids>`` only those
jobs', and the global message ``(Scheduler job information not available for
every job)``. Each message has Grid Engine's number (``SCHEDD_INFO_*``, the
``MES_message_number`` of ``qstat -j -xml``) and the summary text ``qstat -j``
without a job list prints above the ids of the jobs it applies to. Held jobs
get Grid Engine's hold, dependency or start time message, as split_jobs() sorts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from qmaster.core.holds import ad_held_tasks, held_by_jid, not_yet
from qmaster.core.jobs import Job
from qmaster.core.states import TaskState
from qmaster.core.taskholds import free_pending, pending_bits
from qmaster.digits import is_digits
from schedd.reasons import Reason

if TYPE_CHECKING:
    from qmaster.core.machine import Core

TURNED_OFF = "(Collecting of scheduler job information is turned off)"
NOT_EVERY_JOB = "(Scheduler job information not available for every job)"

# SCHEDD_INFO_* numbers and the summary texts of msg_schedd.h (6.2u5)
_GE: dict[int, str] = {
    0: "Jobs can not run because no host can satisfy the resource requirements",
    1: "There could not be found a queue instance with suitable access permissions",
    6: "Jobs can not run because queue instance is not contained in its hard queue list",
    7: "Jobs can not run because queue instance is not a parallel queue",
    8: "Jobs can not run because queue instance is not in queue list of PE",
    9: "Jobs can not run because queue instance is not of type checkpointing",
    10: "Jobs can not run because queue instance is not in queue list of ckpt interface defintion",
    11: "Jobs can not run because queue instance is not interactive",
    12: "Jobs can not run because queue instance is not of type batch or transfer",
    13: "Jobs can not run in queue instance because the job is not parallel",
    14: "Jobs can not run because they do not request 'forced' resource",
    17: "Jobs can not run because the resource requirements can not be satified",
    19: "Jobs can not run globally because the resource requirements can not be satified",
    20: "Jobs can not run because they do not request 'forced' resource",
    21: "Jobs can not run globally because they do not request 'forced' resource",
    23: "Jobs can not run because available slots combined under PE are not in range of job",
    24: "Jobs can not run because they have no access to pe",
    28: TURNED_OFF,
    29: NOT_EVERY_JOB,
    30: "Jobs can not run because execution time not reached",
    31: "Jobs dropped because of error state",
    32: "Jobs dropped because of hold state",
    34: "Job dropped because of job dependencies",
    36: "Queue instances dropped because they are full",
    38: "Queue instances dropped because they are disabled",
    42: "Parallel job dropped because no matching PE found",
    45: "Jobs can not run because total slots of pe are not in range of job",
}

# minige's own messages (beyond Grid Engine): numbers from 1000
_OWN: dict[int, str] = {
    1000: "Jobs wait for their resource reservation",
    1001: "Jobs can not run in an advance reservation's queue instance without h_rt",
    1002: "Jobs can not run because of their advance reservation",
    1003: "Jobs can not run because no queue instance is available",
    1004: "Jobs wait for verification by the server JSV",
    1005: "Jobs can not run in queue because it is not contained in its master queue list",
}

_BY_LEVEL = {"global": 19, "host": 0}
_FORCED = {"global": 21, "host": 20}
_CODES = {
    "full": 36,
    "disabled": 38,
    "hard_queue": 6,
    "no_access": 1,
    "pe_list": 8,
    "pe_slots": 23,
    "pe_access": 24,
    "pe_range": 45,
    "pe_none": 42,
    "not_parallel": 7,
    "not_ckpt": 9,
    "ckpt_list": 10,
    "not_interactive": 11,
    "not_batch": 12,
    "not_parallel_job": 13,
    "masterq": 1005,
    "reserved": 1000,
    "ar_no_h_rt": 1001,
    "ar": 1002,
    "no_queue": 1003,
}

HOLD, DEPEND, EXECTIME, ERROR, VERIFY = 32, 34, 30, 31, 1004


def message_number(reason: Reason) -> int:
    """Grid Engine's ``SCHEDD_INFO_*`` number of a reason (ours from 1000 where it has none)."""
    if reason.code in ("offers_only", "unknown_resource"):
        return _BY_LEVEL.get(reason.level, 17)
    if reason.code == "forced":
        return _FORCED.get(reason.level, 14)
    return _CODES.get(reason.code, 17)


def summary_text(number: int) -> str:
    """The text ``qstat -j`` prints above the jobs a message applies to."""
    return _GE.get(number) or _OWN.get(number, "")


@dataclass(frozen=True, slots=True)
class JobInfoSetting:
    """``schedd_job_info``: off, on, or on for a list of job ids."""

    enabled: bool
    ids: frozenset[int] | None = None

    def covers(self, job_id: int) -> bool:
        return self.enabled and (self.ids is None or job_id in self.ids)

    def global_messages(self) -> list[tuple[int, str]]:
        if not self.enabled:
            return [(28, TURNED_OFF)]
        return [] if self.ids is None else [(29, NOT_EVERY_JOB)]


def _ids(text: str) -> frozenset[int]:
    ids: set[int] = set()
    for part in text.replace(" ", ",").split(","):
        low, _, rest = part.partition("-")
        high, _, step = rest.partition(":")
        if is_digits(low):
            hi = int(high) if is_digits(high) else int(low)
            ids.update(range(int(low), hi + 1, int(step) if is_digits(step) and int(step) else 1))
    return frozenset(ids)


def job_info_setting(core: Core) -> JobInfoSetting:
    """The scheduler configuration's ``schedd_job_info``."""
    value = core.config.sched_conf.attrs.get("schedd_job_info", "false").strip()
    word, _, rest = value.partition(" ")
    if word.lower() == "job_list":
        return JobInfoSetting(True, _ids(rest))
    return JobInfoSetting(word.lower() in ("true", "1", "yes", "y"))


def job_messages(core: Core, job: Job, now: float) -> list[tuple[int, str]]:
    """A pending job's own messages (number, text), before the setting is applied."""
    out: list[tuple[int, str]] = []
    wait = job.verify_wait
    if wait is not None:
        text = f"job waits for verification by the server JSV (try {wait.tries}): {wait.message}"
        out.append((VERIFY, text))
    out += [(n, SPLIT_TEXTS[n]) for n in split_lists(core, job, now)]
    out += [(message_number(r), r.text) for r in core.reasons.get(job.job_id, [])]
    return out


SPLIT_TEXTS = {
    ERROR: "Job is in error state",
    HOLD: "Job is in hold state",
    DEPEND: "job dropped because of job dependencies",
    EXECTIME: "execution time not reached",
}


def split_lists(core: Core, job: Job, now: float) -> list[int]:
    """The lists of split_jobs() the job's tasks are in (their message numbers): a task in
    error state in the error list; of the pending tasks, the held ones (a user, operator or
    system hold, or a ``-hold_jid_ad`` wait) in the hold list, the others in the
    predecessor list while a ``-hold_jid`` job is in the system, else in the time list
    while the ``-a`` time has not come."""
    found = [ERROR] if any(t.state is TaskState.ERROR for t in job.tasks.values()) else []
    if not job.pending:
        return found
    waiting = ad_held_tasks(core, job)
    if pending_bits(job) or waiting:
        found.append(HOLD)
    if free_pending(job) - waiting:
        if held_by_jid(core, job):
            found.append(DEPEND)
        elif not_yet(job, now):
            found.append(EXECTIME)
    return found


def scheduling_info(core: Core, job: Job, now: float) -> list[tuple[int, str]]:
    """The lines under ``scheduling info:`` of one job: global messages, then the job's."""
    setting = job_info_setting(core)
    own = job_messages(core, job, now) if setting.covers(job.job_id) else []
    return setting.global_messages() + own


def summary(core: Core, now: float) -> dict[str, Any]:
    """``qstat -j`` without a job list: the global messages and, per message, its jobs."""
    setting = job_info_setting(core)
    by_number: dict[int, set[int]] = {}
    for job in core.jobs.values():
        if setting.covers(job.job_id):
            for number, _ in job_messages(core, job, now):
                by_number.setdefault(number, set()).add(job.job_id)
    return {
        "global_messages": [{"number": n, "text": t} for n, t in setting.global_messages()],
        "messages": [
            {"number": n, "text": summary_text(n), "job_ids": sorted(ids)}
            for n, ids in sorted(by_number.items())
        ],
    }
