"""qrdel: delete advance reservations (ids, names or patterns; ``-u`` for users' ARs).

Sends ``ar_delete`` and prints the qmaster's answer for each AR on stdout
(``alice has deleted advance_reservation 1``, ``denied: advance_reservation
"7" does not exist`` ...); exit 1 when any answer is an error. With nothing to
delete: the usage on stderr, exit 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.ar.usage import QRDEL_USAGE
from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of


def split_words(values: Sequence[str]) -> list[str]:
    """Comma separated words from several arguments, in order."""
    return [item for value in values for item in value.split(",") if item]


def delete_request(ars: Sequence[str], users: Sequence[str], force: bool) -> dict[str, Any]:
    """The ``ar_delete`` arguments; refuses a call that names nothing to delete."""
    ids, names = split_words(ars), split_words(users)
    if not ids and not names:
        raise ClientError("ERROR! no option argument", show_usage=True)
    return {"ar_ids": ids, "users": names or None, "force": force}


@click.command("qrdel", cls=GeCommand, usage_text=QRDEL_USAGE)
@click.option("-f", "--force", "force", is_flag=True)
@click.option("-u", "users", multiple=True)
@click.argument("ars", nargs=-1)
@click.pass_context
def qrdel_command(
    ctx: click.Context, /, force: bool, users: tuple[str, ...], ars: tuple[str, ...]
) -> int:
    """Delete advance reservations."""
    reply = transport_of(ctx)("ar_delete", delete_request(ars, users, force))
    print_answers(reply.answers, errors_to_stdout=True)
    return EXIT_OK if reply.ok else EXIT_ERROR


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qrdel with ``argv``; return the exit code."""
    assert isinstance(qrdel_command, GeCommand)
    return qrdel_command.run(sys.argv[1:] if argv is None else argv, transport)
