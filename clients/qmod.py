"""qmod: change the state of queue instances and jobs (qmod(1)).

``qmod -d all.q@host1`` disables a queue instance, ``-e`` enables it; ``-s``/``-us``
suspend and unsuspend queue instances or jobs, ``-c`` clears their error state,
``-r`` reschedules running jobs; ``-sj``/``-sq`` (and the like) say whether the
words are jobs or queues; ``-f`` forces; ``-t range`` gives the tasks of the job
word before it (``qmod -sj arr -t 2-3``). The command line is read in Grid Engine's
two stages (qmod.c, sge_parse_cmdline_qmod() and sge_parse_qmod()):

1. an option's words run up to the next word starting with ``-``; an option
   without one is ``ERROR! -d option must have argument`` (no usage); an
   unknown word, or a bad ``-t``, ends the reading with the usage and its
   message; the long names (``--disable``, ``--suspendjob`` ...) are aliases;
2. the options are taken in Grid Engine's order (``-c -cj -cq -d -r -rj -rq -e
   -s -sj -sq -us -usj -usq``), not the command line's. Queue lists are comma
   separated; job words are read whole by sge_parse_jobtasks(), so ``1abc``,
   ``0`` or ``1,2`` is ``ERROR! 1abc is a invalid job-task identifier``.
   ``-help`` prints the usage on stdout and, beside any other option, then
   says ``ERROR! too many options`` (exit 1).

Every complaint goes to stderr, unprefixed, exit 1, and nothing is sent; with
no action at all (``qmod -f``) nothing is sent and qmod ends with 0. The
qmaster's answer for each target is printed on stdout, as Grid Engine's qmod
prints them; exit 1 when any is an error.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import click

from clients.common.conventions import help_text
from clients.common.errors import ClientError
from clients.common.jobtasks import invalid_job_task, is_job_task, with_tasks
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, out, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.submit import values as V

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

ORDER = ("c", "cj", "cq", "d", "r", "rj", "rq", "e", "s", "sj", "sq", "us", "usj", "usq")
"""The actions in the order sge_parse_qmod() takes them (its ``options[]``)."""
ACTIONS = frozenset(ORDER)
QUEUE_ACTIONS = frozenset({"cq", "d", "rq", "e", "sq", "usq"})
"""The actions whose words are queues (QUEUE_DO_ACTION): comma separated lists."""
LONG_NAMES = {
    "--help": "-help", "--force": "-f", "--clear": "-c", "--clearjob": "-cj",
    "--clearqueue": "-cq", "--suspend": "-s", "--suspendjob": "-sj", "--suspendqueue": "-sq",
    "--unsuspend": "-us", "--unsuspendjob": "-usj", "--unsuspendqueue": "-usq",
    "--disable": "-d", "--reschedulejob": "-rj", "--reschedulequeue": "-rq",
    "--reschedule": "-r", "--enable": "-e",
}  # fmt: skip
NO_OPTION_ARGUMENT = "ERROR! no option argument"
TOO_MANY_OPTIONS = "ERROR! too many options"
T_NEEDS_RANGES = "ERROR! -t option must have a list of task id ranges"


def lonely(text: str) -> str:
    """MSG_JOB_LONELY_TOPTION_S: a ``-t`` no job word precedes."""
    return f"found lonely '-t {text}' option (The -t option needs a leading job name)."


@dataclass(slots=True)
class Element:
    """One entry of the parsed command line: an action with its words, or a ``-t``."""

    action: str
    words: list[str] = field(default_factory=list)
    tasks: str = ""


@dataclass(slots=True)
class QmodLine:
    """What qmod sends: (action, targets) in Grid Engine's order, and ``-f``."""

    steps: list[tuple[str, list[str]]] = field(default_factory=list)
    force: bool = False
    help: bool = False


class Refused(ClientError):
    """A bad command line: the messages (after the usage when it asks for it), exit 1."""

    def __init__(self, messages: Sequence[str], *, show_usage: bool = False) -> None:
        super().__init__("\n".join(messages), EXIT_ERROR, show_usage=show_usage)


def read_words(argv: Sequence[str]) -> tuple[list[Element], bool, bool]:
    """Stage 1 (sge_parse_cmdline_qmod): the elements, ``-f`` and ``-help``."""
    if not argv:
        raise Refused([NO_OPTION_ARGUMENT], show_usage=True)
    elements: list[Element] = []
    errors: list[str] = []
    force = wants_help = False
    i = 0
    while i < len(argv):
        word = argv[i]
        name = LONG_NAMES.get(word, word)
        if name == "-help":
            wants_help, i = True, i + 1
        elif name == "-f":
            force, i = True, i + 1
        elif name.startswith("-") and name[1:] in ACTIONS:
            i += 1  # parse_until_next_opt(): its words run up to the next option
            if i == len(argv) or not argv[i] or argv[i].startswith("-"):
                errors.append(f"ERROR! {word} option must have argument")
                continue
            element = Element(name[1:])
            while i < len(argv) and not argv[i].startswith("-"):
                element.words.append(argv[i])
                i += 1
            elements.append(element)
        elif word == "-t":
            if i + 1 == len(argv):
                raise Refused([*errors, T_NEEDS_RANGES], show_usage=True)
            try:
                first, last, step = V.task_range(argv[i + 1])
            except ClientError as exc:
                raise Refused([*errors, exc.message], show_usage=True) from None
            elements.append(Element("t", tasks=f"{first}-{last}:{step}"))
            elements[-1].words.append(argv[i + 1])
            i += 2
        else:
            raise Refused([*errors, f'ERROR! invalid option argument "{word}"'], show_usage=True)
    if errors:
        raise Refused(errors)
    return elements, force, wants_help


def _job_words(element: Element, tasks: Element | None, errors: list[str]) -> list[str] | None:
    """parse_multi_jobtaskslist() for one option: its words, the last with the ``-t`` tasks."""
    targets: list[str] = []
    for index, word in enumerate(element.words):
        if not is_job_task(word):
            errors.append(invalid_job_task(word))
            return None
        last = index == len(element.words) - 1
        targets.append(with_tasks(word, tasks.tasks) if tasks and last else word)
    return targets


def plan(elements: list[Element]) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """Stage 2 (sge_parse_qmod): the steps in Grid Engine's order, and its complaints."""
    rest = list(elements)
    steps: list[tuple[str, list[str]]] = []
    errors: list[str] = []
    for action in ORDER:
        mine = [e for e in rest if e.action == action]
        refused = False
        for element in mine:
            at = rest.index(element)
            rest.remove(element)
            if action in QUEUE_ACTIONS:
                words = [w for word in element.words for w in word.split(",") if w]
                steps.append((action, words))
                continue
            follows = rest[at] if at < len(rest) and rest[at].action == "t" else None
            if follows is not None:
                rest.remove(follows)
            targets = _job_words(element, follows, errors)
            if targets is None:
                refused = True
            else:
                steps.append((action, targets))
        left = [e for e in rest if e.action == "t"]
        if mine and action not in QUEUE_ACTIONS and not refused and left:
            errors.append(lonely(left[0].words[0]))  # parse_multi_jobtaskslist(): -t left over
            rest = [e for e in rest if e.action != "t"]
    left = [e for e in rest if e.action == "t"]
    if left:
        errors.append(lonely(left[0].words[0]))
    return steps, errors


def parse_qmod(argv: Sequence[str]) -> QmodLine:
    """qmod's command line, read as Grid Engine's qmod reads it (without ``-help``'s effect)."""
    elements, force, wants_help = read_words(argv)
    if wants_help:
        return QmodLine(force=force, help=True, steps=[(e.action, []) for e in elements])
    steps, errors = plan(elements)
    if errors:
        raise Refused(errors)
    return QmodLine(steps, force)


@click.command(
    "qmod",
    cls=GeCommand,
    usage_text=QMOD_USAGE,
    asks_for_help=lambda args: False,  # -help is read in stage 2 (parse_qmod)
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qmod_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Modify queue instance and job states."""
    line = parse_qmod(argv)
    if line.help:
        out(help_text(QMOD_USAGE))
        if line.steps or line.force:  # sge_parse_qmod(): whatever -help left is too many
            err(TOO_MANY_OPTIONS)
            return EXIT_ERROR
        return EXIT_OK
    transport = transport_of(ctx)
    code = EXIT_OK
    for action, targets in line.steps:
        reply = transport("qmod", {"action": action, "targets": targets, "force": line.force})
        print_answers(reply.answers, errors_to_stdout=True)  # qmod prints every answer there
        code = max(code, exit_code(reply.answers))
    return code


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qmod with ``argv``; return the exit code."""
    assert isinstance(qmod_command, GeCommand)
    return qmod_command.run(sys.argv[1:] if argv is None else argv, transport)
