"""qconf: show and change the cluster configuration.

The switches are handled in the order given, each one a GDI request:
``-s*`` print the object's text (``conf_show``) or its names one per line,
``-M*`` send a file's text for the qmaster to validate (``conf_modify``),
``-au/-du/-am/-dm`` change user sets and the manager list, ``-ao/-ah/-as`` (and
``-d*``) the operator, administrative and submit host lists, ``-km`` stops the
qmaster. The attribute verbs live in :mod:`clients.qconf_attr`, the status and
daemon switches in :mod:`clients.qconf_more`. Answers are printed as Grid
Engine prints them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click

from clients import qconf_more as more
from clients.common.editor import edit_text
from clients.common.errors import ClientError, invalid_argument, missing_argument
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, out, print_answers
from clients.common.pipes import closes_quietly
from clients.common.shell import GeCommand, Transport, transport_of
from clients.qconf_attr import attr_verb, purge
from clients.qconf_rqs import RQS_VERBS
from clients.qconf_usage import qconf_usage
from clients.submit.world import read_text

EMPTY_LIST = {
    "cqueue": "no cqueue list defined",
    "userset": "no userset list defined",
    "hostgroup": "no host group list defined",
    "exechost": "no execution host list defined",
    "pe": "no pe list defined",
    "manager": "no manager list defined",
    "project": "no project list defined",
    "ckpt": "no ckpt interface definition defined",
    "operator": "no operator list defined",
    "adminhost": "no admin host list defined",
    "submithost": "no submit host list defined",
    "user": "no user list defined",
    "calendar": "no calendar defined",
}


@dataclass(frozen=True, slots=True)
class Action:
    """One qconf switch: its words (``-1`` for one optional word) and its request."""

    arity: int
    run: Callable[[Transport, list[str]], int]


def show(
    kind: str, fixed_name: str | None = None, *, template: bool = False
) -> Callable[[Transport, list[str]], int]:
    """A ``-s*`` switch: print the object's text, or the list of names.

    With ``template`` and no name the qmaster sends the object's defaults (``-sq``).
    """

    def run(transport: Transport, words: list[str]) -> int:
        name = words[0] if words else fixed_name
        args: dict[str, Any] = {"kind": kind, "name": name}
        if template and not words:
            args["template"] = True
        reply = transport("conf_show", args)
        code = EXIT_OK if reply.data is None else print_shown(kind, reply.data)
        print_answers(reply.answers)
        return max(code, exit_code(reply.answers))

    return run


def show_each(kind: str) -> Callable[[Transport, list[str]], int]:
    """``-suser a,b``: show each named object of a comma list."""
    one = show(kind)

    def run(transport: Transport, words: list[str]) -> int:
        code = EXIT_OK
        for name in (n for n in words[0].split(",") if n):
            code = max(code, one(transport, [name]))
        return code

    return run


def print_shown(kind: str, data: dict[str, Any]) -> int:
    """Print a ``conf_show`` payload: the text, or the names one per line."""
    if "text" in data:
        sys.stdout.write(more.as_shown(str(data["text"])))
        return EXIT_OK
    names = list(data.get("names") or [])
    if not names:
        err(EMPTY_LIST.get(kind, f"no {kind} list defined"))
        return EXIT_ERROR
    out("\n".join(names))
    return EXIT_OK


def modify(kind: str, *, add: bool = False) -> Callable[[Transport, list[str]], int]:
    """A ``-M*`` switch (``-A*`` with ``add``): send the file's text for the qmaster to check
    and store; -M* changes an existing object, -A* adds a new one."""

    def run(transport: Transport, words: list[str]) -> int:
        text = read_text(words[0])
        if text is None:
            raise ClientError(f'file "{words[0]}" does not exist')
        args = {"kind": kind, "text": text, "source": words[0]}
        reply = transport("conf_modify", {**args, "add": True} if add else args)
        print_answers(reply.answers)
        return exit_code(reply.answers)

    return run


def edit(kind: str, *, add: bool = False) -> Callable[[Transport, list[str]], int]:
    """``-a*``/``-m*``: open the object (for -a*, the defaults) in ``$EDITOR``, then send it."""

    def run(transport: Transport, words: list[str]) -> int:
        args: dict[str, Any] = {"kind": kind, "name": words[0] if words else None}
        if add:
            args["template"] = True
        reply = transport("conf_show", args)
        data = reply.data or {}
        if not reply.ok or "text" not in data or not data["text"]:
            print_answers(reply.answers)
            return max(EXIT_ERROR, exit_code(reply.answers))
        payload = {"kind": kind, "text": edit_text(str(data["text"])), "source": "-"}
        reply = transport("conf_modify", {**payload, "add": True} if add else payload)
        print_answers(reply.answers)
        return exit_code(reply.answers)

    return run


def members(op: str, kind: str, *, named: bool) -> Callable[[Transport, list[str]], int]:
    """``-au/-du`` (users into named sets) and ``-am/-dm`` (the manager list)."""

    def run(transport: Transport, words: list[str]) -> int:
        users = [u for u in words[0].split(",") if u]
        targets = [n for n in words[1].split(",") if n] if named else [kind]
        code = EXIT_OK
        for target in targets:
            for user in users:  # one request per pair, as Grid Engine's qconf sends them
                reply = transport(op, {"kind": kind, "name": target, "members": [user]})
                print_answers(reply.answers)
                code = max(code, exit_code(reply.answers))
        return code

    return run


def remove(kind: str) -> Callable[[Transport, list[str]], int]:
    """``-dq``, ``-de``, ``-dp``, ``-dul``, ``-dhgrp``: delete whole objects (comma list)."""

    def run(transport: Transport, words: list[str]) -> int:
        code = EXIT_OK
        for name in (n for n in words[0].split(",") if n):
            reply = transport("conf_delete", {"kind": kind, "name": name, "members": []})
            print_answers(reply.answers)
            code = max(code, exit_code(reply.answers))
        return code

    return run


ACTIONS: dict[str, Action] = {
    "-sc": Action(0, show("complex")),
    "-Mc": Action(1, modify("complex")),
    "-sq": Action(-1, show("cqueue", template=True)),
    "-Mq": Action(1, modify("cqueue")),
    "-sql": Action(0, show("cqueue")),
    "-se": Action(1, show("exechost")),
    "-Me": Action(1, modify("exechost")),
    "-sel": Action(0, show("exechost")),
    "-sp": Action(1, show("pe")),
    "-Mp": Action(1, modify("pe")),
    "-spl": Action(0, show("pe")),
    "-sconf": Action(-1, show("global", "global")),
    "-Mconf": Action(1, modify("global")),
    "-ssconf": Action(0, show("sched", "sched")),
    "-Msconf": Action(1, modify("sched")),
    "-su": Action(1, show("userset")),
    "-Mu": Action(1, modify("userset")),
    "-au": Action(2, members("conf_add", "userset", named=True)),
    "-du": Action(2, members("conf_delete", "userset", named=True)),
    "-sm": Action(0, show("manager")),
    "-am": Action(1, members("conf_add", "manager", named=False)),
    "-dm": Action(1, members("conf_delete", "manager", named=False)),
    "-sul": Action(0, show("userset")),
    "-shgrp": Action(1, show("hostgroup")),
    "-shgrpl": Action(0, show("hostgroup")),
    "-Mhgrp": Action(1, modify("hostgroup")),
    "-Aq": Action(1, modify("cqueue", add=True)),
    "-Ae": Action(1, modify("exechost", add=True)),
    "-Ap": Action(1, modify("pe", add=True)),
    "-Au": Action(1, modify("userset", add=True)),
    "-Ahgrp": Action(1, modify("hostgroup", add=True)),
    "-dq": Action(1, remove("cqueue")),
    "-de": Action(1, remove("exechost")),
    "-dp": Action(1, remove("pe")),
    "-dul": Action(1, remove("userset")),
    "-dhgrp": Action(1, remove("hostgroup")),
    "-km": Action(0, more.shutdown),
    "-aprj": Action(0, edit("project", add=True)),
    "-Aprj": Action(1, modify("project", add=True)),
    "-mprj": Action(1, edit("project")),
    "-Mprj": Action(1, modify("project")),
    "-sprj": Action(1, show("project")),
    "-sprjl": Action(0, show("project")),
    "-dprj": Action(1, remove("project")),
    "-ackpt": Action(1, edit("ckpt", add=True)),
    "-Ackpt": Action(1, modify("ckpt", add=True)),
    "-mckpt": Action(1, edit("ckpt")),
    "-Mckpt": Action(1, modify("ckpt")),
    "-sckpt": Action(1, show("ckpt")),
    "-sckptl": Action(0, show("ckpt")),
    "-dckpt": Action(1, remove("ckpt")),
    "-acal": Action(1, edit("calendar", add=True)),
    "-Acal": Action(1, modify("calendar", add=True)),
    "-mcal": Action(1, edit("calendar")),
    "-Mcal": Action(1, modify("calendar")),
    "-scal": Action(1, show("calendar")),
    "-scall": Action(0, show("calendar")),
    "-dcal": Action(1, remove("calendar")),
    "-aq": Action(-1, edit("cqueue", add=True)),
    "-mq": Action(1, edit("cqueue")),
    "-ae": Action(-1, edit("exechost", add=True)),
    "-me": Action(1, edit("exechost")),
    "-ap": Action(1, edit("pe", add=True)),
    "-mp": Action(1, edit("pe")),
    "-mu": Action(1, edit("userset")),
    "-ahgrp": Action(-1, edit("hostgroup", add=True)),
    "-mhgrp": Action(1, edit("hostgroup")),
    "-mc": Action(0, edit("complex")),
    "-mconf": Action(-1, edit("global")),
    "-msconf": Action(0, edit("sched")),
    **{f"-{v}attr": Action(4, attr_verb(f"-{v}attr")) for v in "amrd"},
    **{f"-{v}attr": Action(3, attr_verb(f"-{v}attr")) for v in "AMRD"},
    "-purge": Action(3, purge),
    "-sh": Action(0, show("adminhost")),
    "-ah": Action(1, members("conf_add", "adminhost", named=False)),
    "-dh": Action(1, members("conf_delete", "adminhost", named=False)),
    "-ss": Action(0, show("submithost")),
    "-as": Action(1, members("conf_add", "submithost", named=False)),
    "-ds": Action(1, members("conf_delete", "submithost", named=False)),
    "-so": Action(0, show("operator")),
    "-ao": Action(1, members("conf_add", "operator", named=False)),
    "-do": Action(1, members("conf_delete", "operator", named=False)),
    "-auser": Action(0, edit("user", add=True)),
    "-Auser": Action(1, modify("user", add=True)),
    "-muser": Action(1, edit("user")),
    "-Muser": Action(1, modify("user")),
    "-suser": Action(1, show_each("user")),
    "-suserl": Action(0, show("user")),
    "-duser": Action(1, remove("user")),
    "-sss": Action(0, more.show_scheduler_host),
    "-secl": Action(0, more.show_event_clients),
    "-kec": Action(1, more.kill_event_clients),
    "-sconfl": Action(0, more.show_config_list),
    "-shgrp_tree": Action(1, more.show_group_tree),
    "-shgrp_resolved": Action(1, more.show_group_resolved),
    "-ke": Action(1, more.kill_execds(jobs=False)),
    "-kej": Action(1, more.kill_execds(jobs=True)),
    "-ks": Action(0, more.kill_scheduler),
    "-tsm": Action(0, more.trigger_monitoring),
    "-sobjl": Action(3, more.show_object_list),
    **{switch: Action(arity, run) for switch, (arity, run) in RQS_VERBS.items()},
}


def plan(argv: Sequence[str]) -> list[tuple[Action, list[str]]]:
    """Split argv into switches and their words, rejecting what qconf does not know."""
    if not argv:
        raise ClientError("ERROR! no option argument", show_usage=True)
    steps: list[tuple[Action, list[str]]] = []
    i = 0
    while i < len(argv):
        action = ACTIONS.get(argv[i])
        if action is None:
            raise invalid_argument(argv[i])
        if action.arity < 0:  # -1: one optional word; -2: one word and an optional one
            words = [w for w in argv[i + 1 : i + 1 - action.arity] if not w.startswith("-")]
            if len(words) < -1 - action.arity:
                raise missing_argument(argv[i])
        else:
            words = list(argv[i + 1 : i + 1 + action.arity])
            if len(words) < action.arity:
                raise missing_argument(argv[i])
        steps.append((action, words))
        i += 1 + len(words)
    return steps


@click.command(
    "qconf",
    cls=GeCommand,
    usage_text=qconf_usage(ACTIONS),
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def qconf_command(ctx: click.Context, argv: tuple[str, ...]) -> int:
    """Show or change the configuration."""
    transport = transport_of(ctx)
    code = EXIT_OK
    for action, words in plan(argv):
        code = max(code, action.run(transport, words))
    return code


@closes_quietly
def main(argv: Sequence[str] | None = None, *, transport: Transport | None = None) -> int:
    """Run qconf with ``argv``; return the exit code."""
    assert isinstance(qconf_command, GeCommand)
    return qconf_command.run(sys.argv[1:] if argv is None else argv, transport)
