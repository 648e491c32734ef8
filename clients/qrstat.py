"""qrstat: show advance reservations as Grid Engine does.

Without ``-ar``: a summary of the caller's own ARs (``-u $user`` is the
default; ``-u '*'`` shows everybody's). With ``-ar id,...``: the detailed
layout of each AR found, or ``Following advance reservations do not exist:``
and the ids (exit 1) when none is. ``-xml`` gives Grid Engine's document,
``-json``/``-fmt json`` Open Cluster Scheduler's JSON. Options are read from
``common/sge_qrstat`` and ``$HOME/.sge_qrstat`` before the command line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from clients.ar.jsondoc import render_json
from clients.ar.text import NOT_FOUND, render_details, render_not_found, render_summary
from clients.ar.usage import QRSTAT_USAGE
from clients.ar.world import QRSTAT_FILE, current_user, default_tokens
from clients.ar.xml import render_xml
from clients.common.conventions import asks_for_version, show_version
from clients.common.errors import invalid_argument
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of

FORMATS = {"plain": "text", "text": "text", "json": "json", "xml": "xml"}
USER_PLACEHOLDER = "$user"


def _words(values: Sequence[str]) -> list[str]:
    return [item for value in values for item in value.split(",") if item]


def list_request(ar_ids: Sequence[str], users: Sequence[str], me: str) -> dict[str, Any]:
    """The ``ar_list`` arguments: ``-ar`` ignores the user filter, as Grid Engine's does."""
    ids = _words(ar_ids)
    if ids:
        return {"users": None, "ar_ids": ids}
    names = [me if n == USER_PLACEHOLDER else n for n in _words(users)] or [me]
    return {"users": None if "*" in names else names, "ar_ids": None}


def choose_format(*, xml: bool, as_json: bool, fmt: str | None) -> str:
    """``text``, ``xml`` or ``json`` from the format switches (the last word wins)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise invalid_argument(fmt)
        return FORMATS[fmt]
    return "json" if as_json else "xml" if xml else "text"


def render(data: Mapping[str, Any], ids: Sequence[str], *, fmt: str, explain: bool) -> int:
    """Print an ``ar_list`` reply; the exit code is 1 when ``-ar`` found nothing."""
    rows = list(data.get("ars") or [])
    detail = bool(ids)
    missing = [str(m) for m in data.get("missing") or []] or list(ids)
    none_found = detail and not rows
    if fmt == "json":
        sys.stdout.write(render_json(rows, detail=detail, explain=explain))
        if none_found:
            err(f"{NOT_FOUND}\n{', '.join(missing)}")
    elif fmt == "xml":
        sys.stdout.write(render_xml(rows, detail=detail, explain=explain, missing=missing))
    elif none_found:
        sys.stdout.write(render_not_found(missing))
    elif detail:
        sys.stdout.write(render_details(rows))
    else:
        sys.stdout.write(render_summary(rows, explain=explain))
    return EXIT_ERROR if none_found else EXIT_OK


def _environment() -> Mapping[str, str]:
    return os.environ


@click.command("qrstat", cls=GeCommand, usage_text=QRSTAT_USAGE)
@click.option("-ar", "ar_ids", multiple=True)
@click.option("-u", "users", multiple=True)
@click.option("-explain", "explain", is_flag=True)
@click.option("-xml", "xml", is_flag=True)
@click.option("-json", "--json", "as_json", is_flag=True)
@click.option("-fmt", "fmt")
@click.pass_context
def qrstat_command(ctx: click.Context, /, **opts: Any) -> int:
    """Show advance reservations."""
    fmt = choose_format(xml=opts["xml"], as_json=opts["as_json"], fmt=opts["fmt"])
    args = list_request(opts["ar_ids"], opts["users"], current_user(_environment()))
    reply = transport_of(ctx)("ar_list", args)
    if not reply.ok:
        print_answers(reply.answers)
        return exit_code(reply.answers)
    ids = args["ar_ids"] or []
    return render(reply.data or {}, ids, fmt=fmt, explain=bool(opts["explain"]))


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qrstat with the default files' options and ``argv``; return the exit code."""
    assert isinstance(qrstat_command, GeCommand)
    args = list(sys.argv[1:] if argv is None else argv)
    if asks_for_version(args):  # before the sge_qrstat files' options
        return show_version()
    tokens = default_tokens(_environment(), QRSTAT_FILE)
    return qrstat_command.run([*tokens, *args], transport)
