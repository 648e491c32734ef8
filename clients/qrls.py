"""qrls: release holds of jobs (qrls(1)): qalter removing the user hold unless -h says otherwise."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.holds import QRLS_USAGE, change_holds
from clients.submit.grammar import asks_for_help


@click.command(
    "qrls",
    cls=GeCommand,
    usage_text=QRLS_USAGE,
    asks_for_help=lambda args: asks_for_help(args, qalter=True),
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qrls_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Release holds of jobs (qrls(1)): the user hold unless -h says otherwise."""
    return change_holds(transport_of(ctx), argv, "qrls")


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qrls with ``argv``; return the exit code."""
    assert isinstance(qrls_command, GeCommand)
    return qrls_command.run(sys.argv[1:] if argv is None else argv, transport)
