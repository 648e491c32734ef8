"""What qalter answers for each changed attribute, in Grid Engine 6.2u5's words and order.

Read from ``mod_job_attributes()`` (``sge_job_qmaster.c``) and the texts of
``msg_qmaster.h``: most attributes answer ``modified <what> of job <id>``
(``MSG_SGETEXT_MOD_JOBS_SU``); override tickets, priority, job share and the
advance reservation answer who set them to what; the hold lists name the
blocking and exited jobs. The answers come in the order of that function,
not in the order of the switches. A hold change answers only when the hold
changes, once per task of an array job (``modified hold of job-array task
5.2``). Grid Engine prints the task concurrency
value where the job id belongs (``modified task concurrency of job 5`` for
``-tc 5``); that is kept, as scripts may match it.

``-c`` changes the checkpoint interval or occasion without an answer, as in
Grid Engine, whose ``mod_job_attributes()`` has no branch for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from qmaster.core.jobs import Identity, Job

SILENT = frozenset({"c_interval", "c_occasion", "CMDNAME"})

_MODIFIED: tuple[tuple[str, str], ...] = (
    ("dl", "deadline time"),
    ("a", "start time"),
    ("A", "account"),
    ("cwd", "working directory"),
    ("wd", "working directory"),
    ("ckpt", "checkpointing environment"),
    ("e", "stderr path list"),
    ("i", "stdin path list"),
    ("R", "reservation behaviour"),
    ("j", "output merge behaviour"),
    ("l_hard", "hard resource list"),
    ("l_soft", "soft resource list"),
    ("m", "mail options"),
    ("M", "mail list"),
    ("N", "job name"),
    ("hold_jid", ""),
    ("hold_jid_ad", ""),
    ("notify", "notify behaviour"),
    ("o", "stdout path list"),
    ("P", "project"),
    ("pe_name", "parallel environment"),
    ("pe_min", "slot range"),
    ("binding", "binding"),
    ("q_hard", "hard queue list"),
    ("q_soft", "soft queue list"),
    ("masterq", "master hard queue list"),
    ("r", "restart behaviour"),
    ("S", "shell list"),
    ("v", "environment"),
    ("CMDARGS", "script arguments"),
    ("ac", "context"),
    ("tc", "task concurrency"),
    ("h", "hold"),
)

_SET_BY: tuple[tuple[str, str], ...] = (
    ("ot", "override tickets"),
    ("p", "scheduling priority"),
    ("js", "job share"),
    ("ar", "job advance reservation"),
)

_ALIASES = {"pe_max": "pe_min", "context_ops": "ac", "V": "v"}


def _key(name: str) -> str:
    if name.startswith("binding_"):
        return "binding"
    return _ALIASES.get(name, name)


def alter_texts(
    who: Identity,
    job: Job,
    changes: Mapping[str, Any],
    hold_tasks: list[int],
    holds: Callable[[list[str]], tuple[list[int], list[str]]],
) -> list[str]:
    """The answers for ``changes`` applied to ``job``, whose tasks ``hold_tasks`` have
    their holds changed (in the order to answer them).

    ``holds`` splits a hold list into the ids of existing jobs it names and
    the references that name none (for the hold list answers).
    """
    keys = {_key(name) for name in changes if name not in SILENT and name != "h"}
    if hold_tasks:
        keys.add("h")
    texts = [
        f"{who.user}@{who.host} sets {what} of job {job.job_id} to {changes[key]}"
        for key, what in _SET_BY
        if key in keys
    ]
    for key, what in _MODIFIED:
        if key not in keys:
            continue
        if key in ("hold_jid", "hold_jid_ad"):
            texts.append(_hold_text(key, job, holds(list(changes[key] or []))))
        elif key == "pe_name":
            texts.append(f"modified {what} of job {job.job_id}")
            texts.append(f"modified slot range of job {job.job_id}")
        elif key == "pe_min" and "pe_name" in keys:
            continue
        elif key == "tc":
            texts.append(f"modified {what} of job {changes['tc']}")
        elif key == "h":
            texts.extend(_hold_texts(job, hold_tasks))
        else:
            texts.append(f"modified {what} of job {job.job_id}")
    return texts


def _hold_texts(job: Job, tasks: list[int]) -> list[str]:
    """``modified hold``: one line per task whose hold changed (of an array job)."""
    if job.array is None:
        return [f"modified hold of job {job.job_id}"]
    return [f"modified hold of job-array task {job.job_id}.{t}" for t in tasks]


def _hold_text(key: str, job: Job, split: tuple[list[int], list[str]]) -> str:
    blocking, exited = split
    kind = "job id hold list" if key == "hold_jid" else "job id hold array list"
    return (
        f"modified {kind} of job {job.job_id}\n"
        f"   blocking jobs: {','.join(str(j) for j in blocking)}\n"
        f"   exited jobs:   {','.join(exited)}"
    )
