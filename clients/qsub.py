"""qsub: submit a batch job to the qmaster.

Options come from the default request files, the script's ``#$`` lines and
the command line (see :mod:`clients.submit.build`); the result is sent with
``submit``. The answer is printed as the qmaster wrote it, ``-terse`` prints
only the id, and a refusal ends with ``Unable to run job: <reason>.`` and
``Exiting.`` on stderr, exit 25 for the job limits and 1 otherwise.

qsub reads its own command line, so it runs without click (see
:mod:`clients.common.guard`), and imports what only ``-verify`` and ``-sync y``
need when they are asked for: the start of a ``qsub`` process is part of every
submission's round trip.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clients.common.errors import ClientError
from clients.common.guard import Transport, default_transport, guarded, without_end_of_options
from clients.common.output import EXIT_OK, err, exit_code, out, print_answers
from clients.common.pipes import closes_quietly
from clients.submit.build import build_qsub
from clients.submit.grammar import asks_for_help, option_table
from clients.submit.jsv_run import apply_client_jsvs, user_and_group
from clients.submit.usage import QSUB_USAGE
from clients.submit.words import request_tokens
from clients.submit.world import read_text, real_inputs
from qmaster.cell import Cell
from qmaster.gdi.answers import Quality
from qmaster.gdi.client import Reply


def terse_id(data: Any) -> str | None:
    """The id ``-terse`` prints: ``1``, or ``5.1-10:1`` for an array job."""
    if not isinstance(data, dict) or data.get("job_id") is None:
        return None
    tasks = data.get("tasks")
    return f"{data['job_id']}.{tasks}" if tasks else str(data["job_id"])


def report_submit(reply: Reply, terse: bool) -> int:
    """Print the qmaster's reply to a submit as qsub does; return the exit code."""
    if any(a.is_error for a in reply.answers):
        # japi_send_job(): every answer of the refusal, one a line (-o a:/x -e b:/y: both)
        reason = "\n".join(a.text.rstrip("\n") for a in reply.answers if a.text)
        err(f"Unable to run job: {reason}.\nExiting.")
        return exit_code(reply.answers)
    ident = terse_id(reply.data) if terse else None
    if ident is not None:
        print_answers(a for a in reply.answers if a.quality != Quality.INFO)
        out(ident)
    else:
        print_answers(reply.answers)
    return report_immediate(reply.data)


def report_immediate(data: Any) -> int:
    """``-now y``: the qmaster's decision on the immediate job, as qsub prints it."""
    if not isinstance(data, dict) or "immediate" not in data:
        return EXIT_OK
    err("Waiting for immediate job to be scheduled.")
    if data["immediate"]:
        err(f"\nYour immediate job {terse_id(data)} has been successfully scheduled.")
        return EXIT_OK
    err("\nYour qsub request could not be scheduled, try again later.")
    return 1


def qsub_command(argv: Sequence[str], transport: Transport) -> int:
    """Submit a job."""
    inputs = real_inputs()
    request = build_qsub(argv, inputs)
    apply_client_jsvs(request, "qsub", rejected_prefix="Unable to run job: ")
    if request.show_only:
        from clients.qstat_render.detail import render_detail  # only -verify shows a job

        out(render_detail(verify_detail(request.spec)).rstrip("\n"))
        return EXIT_OK
    since = None  # -sync y reads only the accounting records written after the submission
    if request.sync:
        from clients.submit.sync import accounting_mark

        since = accounting_mark(_accounting(inputs.env))
    reply = transport("submit", {"job": request.spec, "verify": request.verify})
    if request.verify in ("v", "p") and any(
        a.text.startswith("verification: ") for a in reply.answers
    ):
        print_answers(reply.answers)  # the reasons per level, then the verdict (as qalter)
        return exit_code(reply.answers)
    code = report_submit(reply, request.terse)
    if code != EXIT_OK or request.verify in ("v", "p") or not request.sync or not reply.data:
        return code
    from clients.submit.sync import wait_for_end  # only -sync y waits

    job_id, tasks = int(reply.data["job_id"]), _task_ids(request.spec)
    assert since is not None
    return wait_for_end(transport, job_id, tasks, _accounting(inputs.env), since=since)


def _accounting(env: dict[str, str]) -> Path:
    return Cell.from_env(env).common / "accounting"


def _task_ids(spec: dict[str, Any]) -> list[int]:
    if spec.get("t_min") is None:
        return []
    first, last = int(spec["t_min"]), int(spec.get("t_max") or spec["t_min"])
    return list(range(first, last + 1, int(spec.get("t_step") or 1)))


def verify_detail(spec: dict[str, Any]) -> dict[str, Any]:
    """``-verify``: the job as ``qstat -j`` would show it, not yet numbered."""
    user, group = user_and_group()
    return {
        "job_id": "unassigned",
        "submission_time": time.time(),
        "owner": user,
        "uid": os.getuid(),
        "group": group,
        "gid": os.getgid(),
        "account": spec.get("A") or "sge",
        "job": spec,
    }


def asks_for_help_with_files(args: Sequence[str], seen: frozenset[str] = frozenset()) -> bool:
    """``-help`` on the command line or in a ``-@`` file it names: Grid Engine reads a
    ``-@`` file's options into the command line, so qsub prints its usage (exit 0)."""
    if asks_for_help(args):
        return True
    table = option_table(qalter=False)
    i = 0
    while i < len(args) and (option := table.get(args[i])) is not None:
        path = args[i + 1] if args[i] == "-@" and i + 1 < len(args) else None
        if path is not None and path not in seen and (text := read_text(path)) is not None:
            try:
                if asks_for_help_with_files(request_tokens(text), seen | {path}):
                    return True
            except ClientError:  # the file's words are refused when the options are read
                return False
        i += 1 + option.arity_at(args[i + 1 :])
    return False


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qsub with ``argv`` (default: the process arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    return guarded(
        "qsub",
        QSUB_USAGE,
        args,
        asks_for_help_with_files,
        lambda: qsub_command(without_end_of_options(args), transport or default_transport),
    )
