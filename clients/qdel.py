"""qdel: delete jobs (ids, ``id.task-range``, names, patterns, or ``all`` with ``-u``).

As Grid Engine's qdel, every word that is not ``-f``, ``-u``, ``-t`` or
``-help`` names jobs (so ``qdel -x`` looks for a job called ``-x``), and
``-t range`` restricts the jobs of the word before it to those tasks
(``qdel 5 -t 3-4``, ``qdel 'sl*' -t 2``; of a comma list, its last job). A word
is a comma separated list (empty items dropped). Names and patterns select the
caller's own jobs; ``all`` is a name like any other (6.2u5's qdel sends no
"all jobs" request). A word starting with a digit that is no job number
(``1abc``, ``0``) is refused before anything is sent, as sge_parse_jobtasks()
refuses it. ``-f`` of a user who is no manager first deletes without force, then
after a minute forces it silently, as qdel.c does. Sends ``delete`` and prints
every answer of the qmaster on stdout, as qdel.c's printf() does (``alice has deleted job 1``, ``denied: job "7" does not
exist`` ...); exit 1 when any answer is an error.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from clients.common.conventions import help_text
from clients.common.errors import ClientError, missing_argument
from clients.common.jobtasks import invalid_job_task, is_job_task, with_tasks
from clients.common.output import EXIT_ERROR, err, exit_code, out, print_answers
from clients.common.pipes import closes_quietly
from clients.common.sge_usage import sge_usage
from clients.common.shell import GeCommand, Transport, transport_of
from clients.submit import values as V

NO_OPTION_ARGUMENT = "ERROR! no option argument"

QDEL_USAGE = sge_usage("qdel")


def split_list(values: Sequence[str]) -> list[str]:
    """Comma separated words from several arguments, in order."""
    return [item for value in values for item in value.split(",") if item]


@dataclass(slots=True)
class QdelLine:
    """qdel's command line: job references (with their ``-t`` ranges), users, force."""

    refs: list[str] = field(default_factory=list)
    users: list[str] = field(default_factory=list)
    force: bool = False
    last_jobs: list[int] = field(default_factory=list)

    def add_jobs(self, word: str) -> None:
        """A job_tasks word: ids, ``id.range``, names or patterns, comma separated.

        sge_parse_cmdline_qdel() splits it with str_list_parse_from_string(), which
        drops empty items: ``qdel ''`` names no job at all."""
        words = split_list([word])
        self.refs.extend(words)
        self.last_jobs = [len(self.refs) - 1] if words else []

    def add_tasks(self, text: str) -> None:
        """``-t range`` restricts the last job of the word before it to those tasks
        (parse_multi_jobtaskslist(): ``qdel 1,2 -t 3`` is job 1 and task 3 of job 2);
        a job id's own range is kept beside it (``qdel 7.1 -t 2``: tasks 1 and 2)."""
        if not self.last_jobs:
            raise ClientError(
                f"error: found lonely '-t {text}' option (The -t option needs a leading job name)."
            )
        first, last, step = V.task_range(text)
        for index in self.last_jobs:
            self.refs[index] = with_tasks(self.refs[index], f"{first}-{last}:{step}")
        self.last_jobs = []


def parse_qdel(argv: Sequence[str]) -> QdelLine:
    """Read qdel's words as Grid Engine's qdel does: any word not a switch is a job."""
    line = QdelLine()
    words = iter(argv)
    for word in words:
        if word in ("-f", "--force"):
            line.force = True
        elif word == "-u":
            users = next(words, None)
            if users is not None:
                line.users.extend(split_list([users]))
        elif word == "-t":
            text = next(words, None)
            if text is None:
                raise missing_argument("-t", "ERROR! -t option must have a list of task id ranges")
            line.add_tasks(text)
        elif word != "-help":
            line.add_jobs(word)
    return line


def delete_args(line: QdelLine) -> dict[str, Any]:
    """The ``delete`` request for a command line, checked as qdel checks it."""
    if not line.refs and not line.users:
        raise NothingToDelete()
    for ref in line.refs:  # sge_parse_qdel: before anything is sent
        if not is_job_task(ref):
            raise ClientError(f"error: {invalid_job_task(ref)}")
    return {"job_ids": line.refs, "users": line.users or None, "force": line.force}


class NothingToDelete(ClientError):
    """qdel without jobs: the usage on stderr, ``ERROR! no option argument`` on stdout."""

    def __init__(self) -> None:
        super().__init__("", show_usage=True)


@click.command(
    "qdel",
    cls=GeCommand,
    usage_text=QDEL_USAGE,
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qdel_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Delete jobs."""
    try:
        args = delete_args(parse_qdel(argv))
    except NothingToDelete:
        err(help_text(QDEL_USAGE).rstrip("\n"))
        out(NO_OPTION_ARGUMENT)
        return EXIT_ERROR
    transport = transport_of(ctx)
    if args["force"] and not (transport("ping", {}).data or {}).get("manager", False):
        return _forced_by_a_user(transport, args)
    reply = transport("delete", args)
    print_answers(reply.answers, errors_to_stdout=True)  # qdel.c: printf() of every answer
    return exit_code(reply.answers)


FORCE_WAIT = (12, 5.0)  # qdel.c's delete_mode 7: twelve dots, five seconds apart


def _forced_by_a_user(transport: Transport, args: dict[str, Any]) -> int:
    """``-f`` of a user who is no manager (qdel.c's delete_mode 7, then 5): the jobs are
    deleted without force and the answers printed; after a minute of dots the forced
    deletion is sent and its answers are not printed (the qmaster refuses it unless
    ``qmaster_params ENABLE_FORCED_QDEL``). Exit 1 when any answer of either is an error."""
    first = transport("delete", {**args, "force": False})
    print_answers(first.answers, errors_to_stdout=True)
    dots, pause = FORCE_WAIT
    for _ in range(dots):
        sys.stdout.write(".")
        sys.stdout.flush()
        time.sleep(pause)
    sys.stdout.write("\n")
    second = transport("delete", args)
    failed = any(a.is_error for a in (*first.answers, *second.answers))
    return EXIT_ERROR if failed else 0


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qdel with ``argv``; return the exit code."""
    assert isinstance(qdel_command, GeCommand)
    return qdel_command.run(sys.argv[1:] if argv is None else argv, transport)
