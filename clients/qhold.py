"""qhold: Put holds on jobs (qhold(1)): the user hold unless -h says otherwise."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.holds import QHOLD_USAGE, change_holds


@click.command("qhold", cls=GeCommand, usage_text=QHOLD_USAGE)
@click.option("-h", "holds", multiple=True)
@click.option("-u", "users", multiple=True)
@click.argument("jobs", nargs=-1)
@click.pass_context
def qhold_command(
    ctx: click.Context, /, holds: tuple[str, ...], users: tuple[str, ...], jobs: tuple[str, ...]
) -> int:
    """Put holds on jobs (qhold(1)): the user hold unless -h says otherwise."""
    return change_holds(transport_of(ctx), jobs, users, holds, release=False)


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qhold with ``argv``; return the exit code."""
    assert isinstance(qhold_command, GeCommand)
    return qhold_command.run(sys.argv[1:] if argv is None else argv, transport)
