"""qquota: the resource quota limits that apply to a user, and what is used of them.

As Grid Engine's qquota (qquota.c, sge_qquota.c): it reads the resource quota sets, what
running jobs use of each limit, the complex attributes and the usersets and host groups,
and prints a line per enabled rule and limit that matches the selection: by default the
calling user's; ``-u``, ``-P``, ``-pe``, ``-q`` and ``-h`` choose others (comma lists,
wildcards, ``@userset``, ``@hostgroup``), ``-l`` the limits shown; ``-xml`` prints the
same as XML. A word that is no option ends the reading with the usage and ``invalid
option argument``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.ar.world import current_user
from clients.common.errors import ClientError
from clients.common.output import EXIT_OK, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.qquota_rows import Selection, quota_lines, render_text, render_xml, usersets_of
from qmaster.complexes.table import ComplexTable
from qmaster.rqs.model import parse_sets

QQUOTA_USAGE = """\
usage: qquota [options]
  [-help]                              print this help
  [-h wc_host_list|wc_hostgroup_list]  display only selected hosts
  [-l resource_attributes]             request the given resources
  [-u wc_user]                         display only selected users
  [-pe wc_pe_list]                     display only selected parallel environments
  [-P wc_project_list]                 display only selected projects
  [-q wc_cqueue_list]                  display only selected queues
  [-xml]                               display the information in XML-Format

resource_attributes      resource_name,resource_name,...
wc_cqueue                wildcard expression matching a cluster queue
wc_cqueue_list           wc_cqueue[,wc_cqueue,...]
wc_host                  wildcard expression matching a host
wc_host_list             wc_host[,wc_host,...]
wc_hostgroup             wildcard expression matching a hostgroup
wc_hostgroup_list        wc_hostgroup[,wc_hostgroup,...]
wc_pe                    wildcard expression matching a parallel environment
wc_pe_list               wc_pe[,wc_pe,...]
wc_project               wildcard expression matching a project
wc_project_list          wc_project[,wc_project,...]"""

VALUED = ("-h", "-l", "-u", "-pe", "-P", "-q")


def read_qquota(argv: Sequence[str]) -> tuple[dict[str, list[str]], bool, bool]:
    """The valued options' comma lists (repeats add up), ``-xml`` and ``-help``."""
    values: dict[str, list[str]] = {}
    xml = wants_help = False
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "-help":
            wants_help = True
        elif word == "-xml":
            xml = True
        elif word in VALUED:
            if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                raise ClientError(f"ERROR! {word} option must have argument", show_usage=True)
            i += 1
            values.setdefault(word, []).extend(n for n in argv[i].split(",") if n)
        else:
            raise ClientError(f'invalid option argument "{word}"', show_usage=True)
        i += 1
    return values, xml, wants_help


def selection(values: dict[str, list[str]], me: str) -> Selection:
    """The rule filters qquota matches with (the calling user when no ``-u``)."""
    return Selection(
        users=values.get("-u") or [me],
        projects=values.get("-P") or [None],
        pes=values.get("-pe") or [None],
        queues=values.get("-q") or ["*"],
        hosts=values.get("-h") or ["*"],
        resources=values.get("-l"),
    )


@click.command(
    "qquota",
    cls=GeCommand,
    usage_text=QQUOTA_USAGE,
    asks_for_help=lambda args: False,  # -help counts once the command line reads
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qquota_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Print the resource quota limits and their use."""
    values, xml, wants_help = read_qquota(argv)
    if wants_help:
        sys.stdout.write(f"GE 6.2u5\n{QQUOTA_USAGE}\n")
        return EXIT_OK
    transport = transport_of(ctx)
    reply = transport("conf_show", {"kind": "rqs", "name": "", "usage": True})
    data: dict[str, Any] = reply.data or {}  # no set at all: nothing to show
    sets = parse_sets(str(data.get("text") or ""), "qmaster")
    complexes = transport("conf_show", {"kind": "complex"})
    if not complexes.ok:
        print_answers(complexes.answers)
        return exit_code(complexes.answers)
    table = ComplexTable.parse(str((complexes.data or {})["text"]))
    sel = selection(values, current_user(os.environ))
    lines = quota_lines(sets, data.get("usage") or [], table, usersets_of(data), sel)
    sys.stdout.write(render_xml(lines) if xml else render_text(lines))
    return EXIT_OK


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qquota with ``argv``; return the exit code."""
    assert isinstance(qquota_command, GeCommand)
    return qquota_command.run(sys.argv[1:] if argv is None else argv, transport)
