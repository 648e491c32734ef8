"""qselect: the queue instances that match a selection, one per line, for scripts.

``qmod -d $(qselect -l arch=lx-amd64)``. Sends ``queue_select``. As Grid
Engine's qselect, it ends with 1 when no queue instance is left; when ``-q``,
``-U`` or ``-pe`` left none, it says so (``no queues remaining after -q queue
selection``).

Grid Engine's qselect is qstat in qselect mode (qstat_cmdline.c,
switch_list_qstat_parse_from_cmdline()), and reads its command line so:
an option's words run up to the next word starting with ``-`` (``-q a b``,
``-l arch=x mem=y``; of several ``-qs`` words the last counts); an option
without one is ``ERROR! -q option must have argument`` (no usage, the rest
is still read); any other word ends the reading with the usage and
``invalid option argument "x"``. ``-cb`` is taken and changes nothing in
qselect's output; ``-help`` prints the usage (exit 0) once the command line
reads. Every complaint goes to stderr, exit 1, nothing is sent.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.qstat_usage import qstat_usage
from clients.common.shell import GeCommand, Transport, transport_of
from qmaster.gdi.values import ValueRefused, name_list, resource_list
from qmaster.qstat_args import parse_queue_states

QSELECT_USAGE = qstat_usage("qselect").rstrip("\n")

VALUED = ("-l", "-pe", "-q", "-qs", "-U")
"""The options whose words run to the next option (parse_until_next_opt())."""


def read_qselect(argv: Sequence[str]) -> tuple[dict[str, list[str]], bool]:
    """Stage 1: every valued option's words, and whether ``-help`` was given."""
    values: dict[str, list[str]] = {name: [] for name in VALUED}
    errors: list[str] = []
    wants_help = False
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in ("-help", "-cb"):
            wants_help, i = wants_help or word == "-help", i + 1
        elif word in VALUED:
            i += 1
            if i == len(argv) or not argv[i] or argv[i].startswith("-"):
                errors.append(f"ERROR! {word} option must have argument")
                continue
            while i < len(argv) and not argv[i].startswith("-"):
                values[word].append(argv[i])
                i += 1
        else:
            lines = [*errors, f'invalid option argument "{word}"']
            raise ClientError("\n".join(lines), EXIT_ERROR, show_usage=True)
    if errors:
        raise ClientError("\n".join(errors), EXIT_ERROR)
    return values, wants_help


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


def _states(values: Sequence[str]) -> str | None:
    """-qs: each word read (qinstance_state_from_string()), the last one counts."""
    for value in values:
        try:
            parse_queue_states(value)
        except ValueError as exc:
            raise ClientError(str(exc)) from None
    return values[-1] if values else None


@click.command(
    "qselect",
    cls=GeCommand,
    usage_text=QSELECT_USAGE,
    asks_for_help=lambda args: False,  # -help counts once the command line reads
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qselect_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Print the selected queue instances."""
    values, wants_help = read_qselect(argv)
    if wants_help:
        sys.stdout.write(f"GE 6.2u5\n{QSELECT_USAGE}\n")
        return EXIT_OK
    args: dict[str, Any] = {
        "queues": _list(values["-q"]),
        "resources": _resources(values["-l"]),
        "pes": _list(values["-pe"]),
        "users": _list(values["-U"]),
        "states": _states(values["-qs"]),
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
