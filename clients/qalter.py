"""qalter: change the submit options of pending jobs.

The qsub switches are parsed with the same grammar (no request files, no
script); only the keys given are sent with ``alter``, and the qmaster's
answers (``modified hard resource list of job 12`` ...) are printed on stdout,
refusals included, as Grid Engine's qalter prints them; a bad command line
is ``qalter: ERROR! ...`` on stderr with the parser's status as exit code.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.errors import SEMANTIC, ClientError
from clients.common.jobtasks import check_job_tasks
from clients.common.output import GE_STATUS, exit_code, first_status, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.submit.build import SubmitRequest, build_qalter
from clients.submit.grammar import asks_for_help
from clients.submit.jsv_run import apply_client_jsvs
from clients.submit.usage import QALTER_USAGE
from clients.submit.world import real_inputs
from qmaster.gdi.answers import Status


@click.command(
    "qalter",
    cls=GeCommand,
    usage_text=QALTER_USAGE,
    asks_for_help=lambda args: asks_for_help(args, qalter=True),
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qalter_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Alter pending jobs."""
    if not argv:
        raise ClientError("ERROR! no option argument", show_usage=True)
    return alter(transport_of(ctx), argv, "qalter")


def check_task_words(request: SubmitRequest) -> None:
    """qalter_parse_job_parameter(): a ``-t`` no job word took is lonely (with no job word
    at all, an unused option); tasks named without ``-h`` are refused, as only a hold is
    kept per task. Printed without prefix, the exit code is the answer's status."""
    if request.lonely_tasks is not None:
        if request.job_ids:
            text = request.lonely_tasks
            raise ClientError(
                f"found lonely '-t {text}' option (The -t option needs a leading job name).",
                SEMANTIC,
            )
        raise ClientError(f"Unknown option -t {request.lonely_tasks}", GE_STATUS[Status.ENOIMP])
    if request.tasked and request.hold is None:
        raise ClientError(
            "denied: the selected option works only on jobs and not on tasks",
            GE_STATUS[Status.EUNKNOWN],
        )


_HEAD = frozenset({"job_number", "submission_time", "owner", "uid", "group", "gid"})
_GIVEN = {"notify": "notify", "jobshare": "js", "script_file": "CMDNAME"}
"""Lines qstat -j prints for every job, shown by -verify only when the request sets them."""


def shown_request(spec: dict[str, object], verify: str = "n") -> str:
    """``-verify``: the request as cull_show_job(request, FLG_QALTER) prints it, in
    ``qstat -j``'s layout without the job's own lines (no job number): the fields the
    request sets, the ``job_name`` it always carries (empty without -N), the env_list it
    carries for -verify (a bare empty line without -v) and ``verify_suitable_queues``
    (-w; nothing for the ``n`` qalter sends by default)."""
    from clients.qstat_render.detail import render_detail  # only -verify shows a request

    ops = spec.get("context_ops")
    if isinstance(ops, list):  # the variables -ac/-sc set (-dc removes, nothing to show)
        spec = {**spec, "ac": {name: value for op, name, value in ops if op == "+"}}
    job = {**spec, "w": verify}
    shown = render_detail({"job_id": "", "submission_time": 0, "job": job}).splitlines()[1:]
    lines = []
    for line in shown:
        key = line.split(":", 1)[0]
        if key == "env_list" and not spec.get("v"):
            lines.append("")  # no list: show_job.c prints only its newline
        elif key not in _HEAD and (key not in _GIVEN or _GIVEN[key] in spec):
            lines.append(line)
    return "\n".join(lines) + "\n"


def alter(transport: Transport, argv: Sequence[str], prog: str) -> int:
    """qalter.c's work for qalter, qhold and qrls: parse, check the job words, send, print."""
    request = build_qalter(argv, real_inputs(), prog)
    check_job_tasks(request.job_ids)
    check_task_words(request)
    if not request.job_ids and request.users is None:
        raise ClientError("ERROR! no job id list specified", show_usage=True)
    if request.show_only:  # qalter.c: cull_show_job(request, FLG_QALTER), nothing sent
        sys.stdout.write(shown_request(request.spec, request.verify))
        return 0
    apply_client_jsvs(request, "qalter", rejected_prefix="Unable to modify job: ")
    args: dict[str, object] = {
        "job_ids": request.job_ids,
        "job": request.spec,
        "verify": request.verify,
    }
    if request.hold is not None:
        args["hold"] = request.hold
    if request.users is not None:
        args["users"] = request.users
    reply = transport("alter", args)
    # qalter.c prints every answer, refusals included, on stdout
    print_answers(reply.answers, errors_to_stdout=True)
    if prog == "qalter":
        return exit_code(reply.answers)
    return first_status(reply.answers)  # qhold, qrls: the status itself


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qalter with ``argv``; return the exit code."""
    assert isinstance(qalter_command, GeCommand)
    return qalter_command.run(sys.argv[1:] if argv is None else argv, transport)
