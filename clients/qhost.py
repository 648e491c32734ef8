"""qhost: the execution hosts with their load values, queues and jobs, as Grid Engine shows them.

Sends ``host_list`` and renders the reply with :mod:`clients.qhost_render`:
Grid Engine 6.2u5's text layout or its ``-xml`` document (``-cb`` adds the
sockets and cores a host reports as ``m_socket``/``m_core``). ``-u`` implies
``-j``, as in Grid Engine. ``-help`` prints the usage on stdout and, as
qhost.c does, ends with exit code 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from clients.common.errors import ClientError
from clients.common.output import EXIT_OK, exit_code, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.qhost_render.text import render_text
from clients.qhost_render.xml import render_xml
from qmaster.gdi.values import ValueRefused, name_list, resource_list

QHOST_USAGE = """\
usage: qhost [options]
  [-cb]                      show topology based information (socket/core)
  [-help]                    print this help
  [-h hostlist]              display only selected hosts
  [-q]                       display queues hosted by host
  [-j]                       display jobs hosted by host
  [-l attr=val,...]          request the given resources
  [-F [resource_attribute]]  show (selected) resources
  [-u user[,user,...]]       show only jobs for user
  [-xml]                     display the information in XML-Format"""


class QhostCommand(GeCommand):
    """qhost's shell: its lists run to the next option (``-help`` ends with 1: its ErrorStyle)."""

    def run(self, argv: Sequence[str] | None, transport: Transport | None = None) -> int:
        """Parse ``argv``, run qhost and return its exit code."""
        args = list(sys.argv[1:] if argv is None else argv)
        return super().run(gather_lists(args), transport)


#: options whose argument runs until the next option (qhost.c's ``parse_until_next_opt``)
UNTIL_NEXT_OPTION = frozenset({"-h", "-u", "-F"})


def gather_lists(args: Sequence[str]) -> list[str]:
    """``-h host1 host2`` as ``-h host1,host2``: the words up to the next option are one list."""
    out: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        out.append(token)
        i += 1
        if token in UNTIL_NEXT_OPTION:
            words = []
            while i < len(args) and not args[i].startswith("-"):
                words.append(args[i])
                i += 1
            if words:
                out.append(",".join(words))
    return out


def _wanted(values: Sequence[str]) -> list[str] | None:
    """``-F`` names; None when ``-F`` came without a list (every value)."""
    names = [n for value in values for n in name_list(value)]
    return names or None


def _keep_resources(hosts: list[dict[str, Any]], wanted: list[str] | None) -> None:
    """Keep only the ``-F`` values asked for, by name or shortcut."""
    if wanted is None:
        return
    for host in hosts:
        host["resources"] = [
            r for r in host.get("resources") or [] if r[1] in wanted or r[3] in wanted
        ]


def _args(opts: dict[str, Any]) -> dict[str, Any]:
    users = [u for value in opts["users"] for u in name_list(value)]
    hosts = [h for value in opts["hosts"] for h in name_list(value)]
    resources: dict[str, str] = {}
    for value in opts["resources"]:
        try:
            resources.update(resource_list(value))
        except ValueRefused as exc:
            raise ClientError(exc.message) from None
    return {
        "hosts": hosts or None,
        "resources": resources or None,
        "users": users or None,
        "queues": bool(opts["queues"]),
        "jobs": bool(opts["jobs"] or users),
    }


@click.command("qhost", cls=QhostCommand, usage_text=QHOST_USAGE)
@click.option("-cb", "binding", is_flag=True)
@click.option("-h", "hosts", multiple=True)
@click.option("-q", "queues", is_flag=True)
@click.option("-j", "jobs", is_flag=True)
@click.option("-l", "resources", multiple=True)
@click.option("-F", "full", multiple=True, is_flag=False, flag_value="")
@click.option("-u", "users", multiple=True)
@click.option("-xml", "xml", is_flag=True)
@click.pass_context
def qhost_command(ctx: click.Context, /, **opts: Any) -> int:
    """Show the execution hosts."""
    args = _args(opts)
    reply = transport_of(ctx)("host_list", args)
    if not reply.ok:
        print_answers(reply.answers)
        return exit_code(reply.answers)
    hosts = list((reply.data or {}).get("hosts") or [])
    resources = bool(opts["full"])
    wanted = _wanted(opts["full"]) if resources else None
    _keep_resources(hosts, wanted)
    render = render_xml if opts["xml"] else render_text
    sys.stdout.write(
        render(
            hosts,
            queues=args["queues"],
            jobs=args["jobs"],
            wanted=wanted,
            resources=resources,
            binding=bool(opts["binding"]),
        )
    )
    return EXIT_OK


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qhost with ``argv``; return the exit code."""
    assert isinstance(qhost_command, QhostCommand)
    return qhost_command.run(sys.argv[1:] if argv is None else argv, transport)
