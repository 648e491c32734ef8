"""qrsub: ask the qmaster for an advance reservation.

Options come from ``common/sge_ar_request``, ``$HOME/.sge_ar_request`` and
the command line, in rising precedence (:mod:`clients.ar.world`), and are
parsed by :mod:`clients.ar.grammar`. The request goes out as ``ar_submit``.
As Grid Engine's qrsub does, every answer (errors included) is printed on
stdout: ``Your advance reservation 1 has been granted``, exit 0; a refusal
exits 25 when the qmaster says "try again later" (``max_advance_reservations``)
and 1 otherwise. Bad switches are reported on stderr, exit 1.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import click

from clients.ar.grammar import ArState, apply_ar_tokens, window_problem
from clients.ar.usage import QRSUB_USAGE
from clients.ar.world import AR_REQUEST_FILE, default_tokens
from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, exit_code, out, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of

NO_OPTIONS = "ERROR! no option argument"


def build_ar_request(
    argv: Sequence[str], *, year: int, file_tokens: Sequence[str] = ()
) -> dict[str, Any]:
    """The ``ar_submit`` arguments for the default-file tokens and then ``argv``."""
    tokens = [*file_tokens, *argv]
    if not tokens:
        raise ClientError(f"{QRSUB_USAGE.rstrip()}\n{NO_OPTIONS}")
    state = ArState()
    apply_ar_tokens(tokens, state, year)
    return {"ar": state.spec, "verify": state.verify}


def _environment() -> Mapping[str, str]:
    return os.environ


@click.command(
    "qrsub",
    cls=GeCommand,
    usage_text=QRSUB_USAGE,
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qrsub_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Submit an advance reservation."""
    request = build_ar_request(
        argv,
        year=time.localtime().tm_year,
        file_tokens=default_tokens(_environment(), AR_REQUEST_FILE),
    )
    problem = window_problem(request["ar"])
    if problem is not None:
        out(problem)
        return EXIT_ERROR
    reply = transport_of(ctx)("ar_submit", request)
    print_answers(reply.answers, errors_to_stdout=True)
    return exit_code(reply.answers)


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qrsub with ``argv`` (default: the process arguments); return the exit code."""
    assert isinstance(qrsub_command, GeCommand)
    return qrsub_command.run(sys.argv[1:] if argv is None else argv, transport)
