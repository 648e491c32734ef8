"""qselect: the queue instances that match a selection, one per line, for scripts.

``qmod -d $(qselect -l arch=lx-amd64)``. Sends ``queue_select``. As Grid
Engine's qselect, it ends with 1 when no queue instance is left; when ``-q``,
``-U`` or ``-pe`` left none, it says so (``no queues remaining after -q queue
selection``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from qmaster.gdi.values import ValueRefused, name_list, resource_list

QSELECT_USAGE = """\
usage: qselect [options]
        [-help]                           print this help
        [-l resource_list]                request the given resources
        [-pe pe_list]                     select only queues with one of these parallel environments
        [-q wc_queue_list]                print information on given queue
        [-qs {a|c|d|o|s|u|A|C|D|E|S}]     selects queues, which are in the given state(s)
        [-U user_list]                    select only queues where these users have access

pe_list                   pe[,pe,...]
resource_list             resource[=value][,resource[=value],...]
user_list                 user|@group[,user|@group],...]
wc_queue_list             wc_queue[,wc_queue,...]"""


def _list(values: Sequence[str]) -> list[str] | None:
    return [n for value in values for n in name_list(value)] or None


def _resources(values: Sequence[str]) -> dict[str, str] | None:
    found: dict[str, str] = {}
    for value in values:
        try:
            found.update(resource_list(value))
        except ValueRefused as exc:
            raise ClientError(exc.message) from None
    return found or None


@click.command("qselect", cls=GeCommand, usage_text=QSELECT_USAGE)
@click.option("-l", "resources", multiple=True)
@click.option("-pe", "pes", multiple=True)
@click.option("-q", "queues", multiple=True)
@click.option("-qs", "states")
@click.option("-U", "users", multiple=True)
@click.pass_context
def qselect_command(ctx: click.Context, /, **opts: Any) -> int:
    """Print the selected queue instances."""
    args = {
        "queues": _list(opts["queues"]),
        "resources": _resources(opts["resources"]),
        "pes": _list(opts["pes"]),
        "users": _list(opts["users"]),
        "states": opts["states"],
    }
    reply = transport_of(ctx)("queue_select", args)
    if not reply.ok:
        print_answers(reply.answers)
        return exit_code(reply.answers)
    names = (reply.data or {}).get("queues") or []
    sys.stdout.write("".join(f"{name}\n" for name in names))
    return EXIT_OK if names else EXIT_ERROR


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qselect with ``argv``; return the exit code."""
    assert isinstance(qselect_command, GeCommand)
    return qselect_command.run(sys.argv[1:] if argv is None else argv, transport)
