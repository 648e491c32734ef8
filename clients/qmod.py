"""qmod: change the state of queue instances and jobs (qmod(1)).

``qmod -d all.q@host1`` disables a queue instance, ``-e`` enables it; ``-s``/``-us``
suspend and unsuspend queue instances or jobs, ``-c`` clears their error state,
``-r`` reschedules running jobs; ``-sj``/``-sq`` (and the like) say whether the
words are jobs or queues; ``-f`` forces. Each word list may be comma or blank
separated. The qmaster's answer for each target is printed on stdout, as Grid
Engine's qmod prints them; exit 1 when any is an error. ``-t`` (a task range
for a job named by name) is not supported and refused.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.errors import ClientError, invalid_argument
from clients.common.output import EXIT_OK, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of

QMOD_USAGE = """\
usage: qmod [options]
   [-c job_wc_queue_list]  clear error state
   [-cj job_list]          clear job error state
   [-cq wc_queue_list]     clear queue error state
   [-d wc_queue_list]      disable
   [-e wc_queue_list]      enable
   [-f]                    force action
   [-help]                 print this help
   [-r job_wc_queue_list]  reschedule jobs (running in queue)
   [-rj job_list]          reschedule jobs
   [-rq wc_queue_list]     reschedule all jobs in a queue
   [-s job_wc_queue_list]  suspend
   [-sj job_list]          suspend jobs
   [-sq wc_queue_list]     suspend queues
   [-us job_wc_queue_list] unsuspend
   [-usj job_list]         unsuspend jobs
   [-usq wc_queue_list]    unsuspend queues

job_wc_queue_list          {job_tasks|wc_queue}[{','|' '}{job_tasks|wc_queue}[{','|' '}...]]
job_list                   {job_tasks}[{','|' '}job_tasks[{','|' '}...]]
job_tasks                  {{job_id'.'task_id_range}|job_name|pattern}[' -t 'task_id_range]
task_id_range              task_id['-'task_id[':'step]]
wc_cqueue                  wildcard expression matching a cluster queue
wc_host                    wildcard expression matching a host
wc_hostgroup               wildcard expression matching a hostgroup
wc_qinstance               wc_cqueue@wc_host
wc_qdomain                 wc_cqueue@wc_hostgroup
wc_queue                   wc_cqueue|wc_qdomain|wc_qinstance
wc_queue_list              wc_queue[','wc_queue[','...]]
"""

ACTIONS = frozenset(
    {"c", "cj", "cq", "d", "e", "r", "rj", "rq", "s", "sj", "sq", "us", "usj", "usq"}
)


def plan(argv: Sequence[str]) -> tuple[list[tuple[str, list[str]]], bool]:
    """The actions with their targets, in order, and whether ``-f`` was given."""
    steps: list[tuple[str, list[str]]] = []
    force = False
    for token in argv:
        if token == "-f":
            force = True
        elif token.startswith("-") and token[1:] in ACTIONS:
            steps.append((token[1:], []))
        elif token.startswith("-") or not steps:
            raise invalid_argument(token)
        else:
            steps[-1][1].extend(word for word in token.split(",") if word)
    if not steps:
        raise ClientError("ERROR! no option argument", show_usage=True)
    for action, words in steps:
        if not words:
            raise ClientError(f"ERROR! -{action} option must have argument", show_usage=True)
    return steps, force


@click.command(
    "qmod",
    cls=GeCommand,
    usage_text=QMOD_USAGE,
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qmod_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Modify queue instance and job states."""
    transport = transport_of(ctx)
    steps, force = plan(argv)
    code = EXIT_OK
    for action, targets in steps:
        reply = transport("qmod", {"action": action, "targets": targets, "force": force})
        print_answers(reply.answers, errors_to_stdout=True)  # qmod prints every answer there
        code = max(code, exit_code(reply.answers))
    return code


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qmod with ``argv``; return the exit code."""
    assert isinstance(qmod_command, GeCommand)
    return qmod_command.run(sys.argv[1:] if argv is None else argv, transport)
