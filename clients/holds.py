"""qhold and qrls: set or release holds of jobs (qhold(1), qrls(1)).

Both send the ``alter`` request ``qalter -h`` sends: qhold with the letters
``u o s``, qrls with ``U O S`` (remove). Without ``-h`` the user hold is meant.
``-u user_list`` picks the users' jobs (``*``: every user's) and ``all`` the
caller's own; each job is answered as qalter answers
(``modified hold of job 7``).
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Sequence
from typing import Any

from clients.common.errors import SEMANTIC, ClientError
from clients.common.jobtasks import invalid_job_task, is_job_task
from clients.common.output import exit_code, print_answers
from clients.common.shell import Transport

HOLD_USAGE = """\
usage: {name} [options] job_task_list
   [-h {{u|o|s}},...]                         {what}
   [-help]                                  print this help
   [-u user_list]                           {verb} all jobs of users specified in list

job_task_list            job_tasks[,job_tasks,...]
job_tasks                [job_id['.'task_id_range]|job_name|pattern]
task_id_range            task_id['-'task_id[':'step]]
user_list                user|pattern[,user|pattern,...]
"""
QHOLD_USAGE = HOLD_USAGE.format(name="qhold", what="hold type", verb="hold")
QRLS_USAGE = HOLD_USAGE.format(name="qrls", what="hold type to release", verb="release")


def _split(values: Sequence[str]) -> list[str]:
    return [item for value in values for item in value.split(",") if item]


def hold_letters(values: Sequence[str], *, release: bool) -> str:
    """The ``alter`` hold letters for ``-h`` values (``u``, ``o,s``, ``uos``...)."""
    letters = "".join(_split(values)) or "u"
    if any(c not in "uos" for c in letters):
        raise ClientError(f'ERROR! invalid hold type "{",".join(values)}"', show_usage=True)
    ordered = "".join(c for c in "uos" if c in letters)
    return ordered.upper() if release else ordered


def check_job_tasks(refs: Sequence[str]) -> None:
    """qalter, qhold and qrls refuse a bad job_tasks word before sending anything.

    qalter_parse_job_parameter() answers it, printed without a prefix; the exit
    code is the answer's status (STATUS_ESEMANTIC).
    """
    for ref in refs:
        if not is_job_task(ref):
            raise ClientError(invalid_job_task(ref), SEMANTIC)


def _me() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def job_refs(transport: Transport, jobs: Sequence[str], users: Sequence[str]) -> list[str]:
    """The job references to alter: those given, or the jobs of ``-u`` users / ``all``."""
    refs, names = _split(jobs), _split(users)
    if not refs and not names:
        raise ClientError("ERROR! no job id list specified", show_usage=True)
    check_job_tasks(refs)
    if "all" in refs:
        refs = [r for r in refs if r != "all"]
        names = names or [_me()]
    if not names:
        return refs
    reply = transport("job_list", {"users": None if "*" in names else names, "full": False})
    data: dict[str, Any] = reply.data or {}
    owned = sorted({int(row["job_id"]) for row in data.get("jobs") or []})
    if refs:  # -u with a list: only the listed jobs of those users
        return [r for r in refs if r.partition(".")[0] in {str(j) for j in owned}]
    return [str(j) for j in owned]


def change_holds(
    transport: Transport,
    jobs: Sequence[str],
    users: Sequence[str],
    holds: Sequence[str],
    *,
    release: bool,
) -> int:
    """Send one ``alter`` with the hold letters for every job named; print the answers."""
    letters = hold_letters(holds, release=release)
    refs = job_refs(transport, jobs, users)
    if not refs:
        return 0
    reply = transport("alter", {"job_ids": refs, "job": {}, "hold": letters})
    print_answers(reply.answers)
    return exit_code(reply.answers)
