"""qdel: delete jobs (ids, ``id.task-range``, names, or ``all`` with ``-u``).

Sends ``delete`` and prints the qmaster's answer for each job
(``alice has deleted job 1``, ``denied: job "7" does not exist`` ...); exit 1
when any answer is an error.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.common.errors import ClientError, invalid_argument
from clients.common.output import exit_code, print_answers
from clients.common.shell import GeCommand, Transport, transport_of

QDEL_USAGE = """\
usage: qdel [options] job_task_list
   [-f]                                     force action
   [-help]                                  print this help
   [-u user_list]                           delete all jobs of users specified in list

job_task_list            job_tasks[,job_tasks,...]
job_tasks                [job_id['.'task_id_range]|job_name|pattern][' -t 'task_id_range]
task_id_range            task_id['-'task_id[':'step]]
user_list                user|pattern[,user|pattern,...]
"""


def split_list(values: Sequence[str]) -> list[str]:
    """Comma separated words from several arguments, in order."""
    return [item for value in values for item in value.split(",") if item]


def delete_args(jobs: Sequence[str], users: Sequence[str], force: bool) -> dict[str, Any]:
    """The ``delete`` request for these arguments, checked as qdel checks them."""
    ids, names = split_list(jobs), split_list(users)
    if not ids and not names:
        raise ClientError("ERROR! no option argument", show_usage=True)
    if "all" in ids and not names:
        raise invalid_argument("all")
    return {"job_ids": ids, "users": names or None, "force": force}


@click.command(
    "qdel",
    cls=GeCommand,
    usage_text=QDEL_USAGE,
    context_settings={"help_option_names": []},
)
@click.option("-f", "--force", "force", is_flag=True)
@click.option("-u", "users", multiple=True)
@click.argument("jobs", nargs=-1)
@click.pass_context
def qdel_command(
    ctx: click.Context, /, force: bool, users: tuple[str, ...], jobs: tuple[str, ...]
) -> int:
    """Delete jobs."""
    reply = transport_of(ctx)("delete", delete_args(jobs, users, force))
    print_answers(reply.answers)
    return exit_code(reply.answers)


def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qdel with ``argv``; return the exit code."""
    assert isinstance(qdel_command, GeCommand)
    return qdel_command.run(sys.argv[1:] if argv is None else argv, transport)
