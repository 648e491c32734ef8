"""Checks and fills of a job specification that hold for every source of it.

Whatever a value came through (qsub's command line, a request file, a ``#$``
line, a client or server JSV, qalter), it passes here before it is stored:

* the cluster configuration's ``user_lists``/``xuser_lists`` admit the submitter;
* ``-c`` needs ``-ckpt``, and ``-ckpt`` refuses ``-c n``;
* ``-dl`` needs the submitter in the ``deadlineusers`` user set;
* ``-hold_jid_ad`` is for array jobs waiting on arrays of the same range;
* a ``-hold_jid``/``-hold_jid_ad`` job id names neither a task (``1.2``) nor the job itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from qmaster.conf import fields as f
from qmaster.core.errors import InvalidRequest, PermissionDenied
from qmaster.core.jobs import Identity, Job, TaskRange
from qmaster.core.jobspec import JobSpec
from qmaster.core.jobtable import job_number
from qmaster.core.machine import Core

DEADLINE_USERS = "deadlineusers"


def is_deadline_user(core: Core, who: Identity) -> bool:
    """Member of the ``deadlineusers`` user set (by name or ``@group``)."""
    userset = core.config.usersets.get(DEADLINE_USERS)
    entries = set(userset.entries) if userset is not None else set()
    return who.user in entries or f"@{who.group}" in entries


def check_cluster_access(core: Core, who: Identity) -> None:
    """The cluster configuration's ``user_lists`` and ``xuser_lists`` say who may submit
    jobs (sge_gdi_add_job(); the scheduler does not look at them)."""
    attrs = core.config.global_conf.attrs
    users = f.split_list(attrs.get("user_lists", "NONE"))
    xusers = f.split_list(attrs.get("xuser_lists", "NONE"))
    if not users and not xusers:
        return

    def member(names: Iterable[str]) -> bool:
        sets = (core.config.usersets.get(name) for name in names)
        return any(s is not None and (who.user in s.entries or f"@{who.group}" in s.entries)
                   for s in sets)  # fmt: skip

    if member(xusers) or (users and not member(users)):
        raise PermissionDenied(f"job rejected: {who.user}@{who.host} is not allowed to submit jobs")


def check_deadline(core: Core, who: Identity, spec: JobSpec) -> None:
    """A deadline (``-dl``) may be set only by a deadline user."""
    if spec.deadline and not is_deadline_user(core, who):
        raise PermissionDenied(
            f'job rejected: the user "{who.user}" is no deadline initiation user'
        )


def check_checkpointing(spec: JobSpec) -> None:
    """``-c`` needs a ``-ckpt`` environment, and ``-ckpt`` with ``-c n`` is a contradiction
    (sge_job_verify_adjust(): ``n`` among the letters, other letters without one)."""
    occasion = spec.ckpt_occasion or ""
    if spec.ckpt:
        if "n" in occasion:
            raise InvalidRequest('job rejected: checkpointing with "-c n" requested')
    elif occasion.replace("n", "") or spec.ckpt_interval:
        raise InvalidRequest(
            "job rejected: checkpointing without checkpointing environment requested"
        )


def check_task_concurrency(job: Job, changes: dict[str, Any]) -> None:
    """qalter -tc of more than 0 is for array jobs only (the text is Grid Engine's)."""
    if int(changes.get("tc") or 0) > 0 and job.array is None:
        raise InvalidRequest('ERROR! invalid option argument "task concurrency"')


def check_predecessor_refs(job_id: int, refs: Iterable[str]) -> None:
    """A reference that starts with a digit is a job id: not a task, not the job's own id.

    Grid Engine's qmaster refuses ``1.2`` as a job it cannot find and the job's own id
    as its own predecessor, for ``-hold_jid`` and ``-hold_jid_ad`` alike.
    """
    for ref in refs:
        number = job_number(ref)
        if number is None:
            continue
        if "." in ref:
            raise InvalidRequest(f'denied: job "{ref}" not found')
        if number == job_id:
            raise InvalidRequest(f'denied: job "{job_id}" may not be it\'s own jobnet predecessor')


def hold_split(core: Core, job: Job, refs: list[str]) -> tuple[list[int], list[str]]:
    """The jobs a hold list waits for, and the numeric references naming none."""
    blocking: list[int] = []
    exited: list[str] = []
    for ref in refs:
        number = job_number(ref)
        if number is not None:
            if number in core.jobs:
                blocking.append(number)
            else:
                exited.append(ref)
            continue
        blocking.extend(core.jobs.matching(job.owner.user, ref) - {job.job_id})
    return sorted(set(blocking)), exited


_AD_NEEDS_ARRAYS = 'Can only specify "-hold_jid_ad" option with an array job (using "-t" option)'


def check_array_holds(
    core: Core, job_id: int, owner: str, spec: JobSpec, array: TaskRange | None
) -> None:
    """``-hold_jid_ad``: only for an array job, and only on arrays of the same task range.

    As Grid Engine's ``job_verify_predecessors_ad``: a predecessor that is not an array
    job is refused with the same text as a job without ``-t``, before its range is compared.
    """
    refs = list(spec.hold_jid_ad or ())
    if not refs:
        return
    if array is None:
        raise InvalidRequest(_AD_NEEDS_ARRAYS)
    check_predecessor_refs(job_id, refs)
    for ref in refs:
        number = job_number(ref)
        if number is not None:
            found = [core.jobs[number]] if number in core.jobs else []
        else:
            found = [core.jobs[i] for i in sorted(core.jobs.matching(owner, ref))]
        for predecessor in found:
            if predecessor.array is None:
                raise InvalidRequest(_AD_NEEDS_ARRAYS)
            if predecessor.array != array:
                raise InvalidRequest(
                    "This array job must have the same range of sub-tasks as the dependent "
                    "array job specified with -hold_jid_ad"
                )
