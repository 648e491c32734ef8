"""qrls: Release holds of jobs (qrls(1)): the user hold unless -h says otherwise."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.holds import QRLS_USAGE, change_holds


@click.command("qrls", cls=GeCommand, usage_text=QRLS_USAGE)
@click.option("-h", "holds", multiple=True)
@click.option("-u", "users", multiple=True)
@click.argument("jobs", nargs=-1)
@click.pass_context
def qrls_command(
    ctx: click.Context, /, holds: tuple[str, ...], users: tuple[str, ...], jobs: tuple[str, ...]
) -> int:
    """Release holds of jobs (qrls(1)): the user hold unless -h says otherwise."""
    return change_holds(transport_of(ctx), jobs, users, holds, release=True)


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qrls with ``argv``; return the exit code."""
    assert isinstance(qrls_command, GeCommand)
    return qrls_command.run(sys.argv[1:] if argv is None else argv, transport)
