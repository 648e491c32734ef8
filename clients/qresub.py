"""qresub: submit copies of existing jobs (Grid Engine's qresub, submit(1)).

In Grid Engine qresub is qalter under another name (qalter.c, ``me_who``
QRESUB): the command line is read by qalter's parser, of which qresub takes
``-h hold_list`` and job words ``job_id['.'task_id_range]`` only; every other
switch is ``Unknown option -N x`` on stderr, one line each (STATUS_ENOIMP,
exit 5), ``-w``, ``-u`` and ``-terse`` included. Each job
is copied by the qmaster (``resubmit``: the same checks and server JSV as a
submission, a new job number, the caller as owner, no holds but those of
``-h``), and every answer is printed on stdout, refusals included, as qalter.c
prints them (``Your job 8 ("sleep") has been submitted``); the exit code is
the first answer's status that is not OK (``job "99" does not exist``:
STATUS_EUNKNOWN, 4), else 0. With ``-verify`` the request is shown as qalter
-verify shows it (cull_show_job) and nothing is copied, exit 0.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.errors import ClientError
from clients.common.jobtasks import check_job_tasks
from clients.common.output import GE_STATUS, first_status, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.qalter import check_task_words, shown_request
from clients.submit.build import build_qalter
from clients.submit.grammar import asks_for_help
from clients.submit.world import real_inputs
from qmaster.gdi.answers import Answer, Status

QRESUB_USAGE = """\
usage: qresub [options] job_task_list
   [-h hold_list]                           assign holds for jobs or tasks
   [-help]                                  print this help

hold_list               `n' `u' `s' `o' `U' `S' `O'
job_task_list           job_tasks[,job_tasks,...]
job_tasks               [job_id['.'task_id_range]]
task_id_range           task_id['-'task_id[':'step]]
"""

_FLAGS = frozenset({"-cwd", "-notify", "-hard", "-soft", "-V", "-verify", "-clear", "-terse"})
"""qsub switches without an argument: the others' argument is part of the complaint."""


def unknown_options(argv: Sequence[str]) -> list[str]:
    """qalter_parse_job_parameter() for QRESUB: every switch it does not take, with its
    argument (``-N x``), in command line order. It takes ``-h``, ``-help`` and
    ``-verify``; any other switch, ``-w v``, ``-u bob`` and ``-terse`` included, is left
    on its command line and complained about."""
    found = []
    words = iter(argv)
    for word in words:
        if word in ("-h", "-@"):  # -@: its file's switches are judged by what they set
            next(words, None)
        elif word.startswith("-") and word not in ("-help", "-verify"):
            arg = None if word in _FLAGS else next(words, None)
            found.append(word if arg is None else f"{word} {arg}")
    return found


@click.command(
    "qresub",
    cls=GeCommand,
    usage_text=QRESUB_USAGE,
    asks_for_help=lambda args: asks_for_help(args, qalter=True),
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qresub_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Submit copies of jobs."""
    if not argv:
        raise ClientError("ERROR! no option argument", show_usage=True)
    return resubmit(transport_of(ctx), argv)


def resubmit(transport: Transport, argv: Sequence[str]) -> int:
    """Parse as qalter.c does for qresub, copy each job, print every answer."""
    request = build_qalter(argv, real_inputs(), "qresub")
    check_job_tasks(request.job_ids)
    if request.show_only and request.job_ids:  # qalter.c: verify wins, nothing is copied
        sys.stdout.write(shown_request(request.spec, request.verify))
        return 0
    unknown = unknown_options(argv)
    if not unknown and set(request.spec) - {"h"}:  # set by an options file (-@)
        unknown = [word for word in argv if word == "-@"][:1]
    if unknown:
        text = "\n".join(f"Unknown option {word}" for word in unknown)
        raise ClientError(text, GE_STATUS[Status.ENOIMP])
    check_task_words(request)
    if not request.job_ids:
        raise ClientError("ERROR! no job id list specified", show_usage=True)
    answers: list[Answer] = []
    for ref in request.job_ids:  # one copy request per job word, in their order
        answers.extend(transport("resubmit", {"job_id": ref, "hold": request.hold}).answers)
    print_answers(answers, errors_to_stdout=True)
    return first_status(answers)


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qresub with ``argv``; return the exit code."""
    assert isinstance(qresub_command, GeCommand)
    return qresub_command.run(sys.argv[1:] if argv is None else argv, transport)
