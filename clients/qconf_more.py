"""qconf's status, host group and daemon switches: ``-sss -secl -kec -sconfl``,
``-shgrp_resolved -shgrp_tree``, ``-sobjl``, ``-ke -kej -ks``.

minige's scheduler runs inside the qmaster, so ``-sss`` names the qmaster's host
and ``-ks`` is refused (``-km`` stops both). Its execution hosts are simulated:
``-ke`` shuts a host's execd down (its queue instances show ``u`` and take no
new jobs until the qmaster restarts), ``-kej`` also kills the jobs running there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import Any

from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, out, print_answers
from clients.common.shell import Transport

NO_EVENT_CLIENTS = "no event clients registered"


def _names(text: str) -> list[str]:
    return [n for n in text.split(",") if n]


_BREAK = re.compile(r"(,?) \\\n[ \t]*")


def as_shown(text: str) -> str:
    """An object's text as qconf prints it: with ``SGE_SINGLE_LINE`` set in the
    environment, Grid Engine leaves long lines whole, so each break is joined again."""
    if os.environ.get("SGE_SINGLE_LINE") is None:
        return text
    return _BREAK.sub(lambda m: m.group(1) or " ", text)


def show_scheduler_host(transport: Transport, _words: list[str]) -> int:
    """``-sss``: the host the scheduler runs on."""
    reply = transport("event_clients", {})
    print_answers(reply.answers)
    data: dict[str, Any] = reply.data or {}
    if not data.get("scheduler_host"):
        return max(EXIT_ERROR, exit_code(reply.answers))
    out(str(data["scheduler_host"]))
    return EXIT_OK


def render_event_clients(rows: list[dict[str, Any]]) -> str:
    """The ``-secl`` table: id, name and host of each event client."""
    lines = [f"{'ID':>8} {'NAME':<15} {'HOST':<25}".rstrip(), "-" * 50]
    lines += [f"{r['id']:>8} {r['name']:<15} {r['host']:<25}".rstrip() for r in rows]
    return "\n".join(lines)


def show_event_clients(transport: Transport, _words: list[str]) -> int:
    """``-secl``: the event clients (the scheduler and every qevent subscription)."""
    reply = transport("event_clients", {})
    print_answers(reply.answers)
    rows = list((reply.data or {}).get("clients") or [])
    if not rows:
        err(NO_EVENT_CLIENTS)
        return EXIT_ERROR
    out(render_event_clients(rows))
    return exit_code(reply.answers)


def kill_event_clients(transport: Transport, words: list[str]) -> int:
    """``-kec id_list|all``: end event client subscriptions."""
    reply = transport("event_kill", {"ids": _names(words[0])})
    print_answers(reply.answers)
    return exit_code(reply.answers)


def show_config_list(transport: Transport, _words: list[str]) -> int:
    """``-sconfl``: the configurations; minige has the global one only."""
    reply = transport("conf_show", {"kind": "global", "name": "global"})
    print_answers(reply.answers)
    if not reply.ok:
        return max(EXIT_ERROR, exit_code(reply.answers))
    out("global")
    return EXIT_OK


def _hostlist(transport: Transport, group: str) -> list[str] | None:
    reply = transport("conf_show", {"kind": "hostgroup", "name": group})
    if not reply.ok or not reply.data or "text" not in reply.data:
        print_answers(reply.answers)
        return None
    text = str(reply.data["text"]).replace("\\\n", " ")
    for line in text.splitlines():
        key, _, value = line.strip().partition(" ")
        if key == "hostlist":
            items = [i for i in value.replace(",", " ").split() if i]
            return [] if [i.upper() for i in items] == ["NONE"] else items
    return []


def _tree(transport: Transport, group: str, depth: int, seen: set[str], lines: list[str]) -> bool:
    lines.append("   " * depth + group)
    members = _hostlist(transport, group)
    if members is None:
        return False
    for item in members:
        if item.startswith("@") and item not in seen:
            if not _tree(transport, item, depth + 1, seen | {item}, lines):
                return False
        else:
            lines.append("   " * (depth + 1) + item)
    return True


def show_group_tree(transport: Transport, words: list[str]) -> int:
    """``-shgrp_tree @grp``: the group and its members, nested groups indented."""
    lines: list[str] = []
    if not _tree(transport, words[0], 0, {words[0]}, lines):
        return EXIT_ERROR
    out("\n".join(lines))
    return EXIT_OK


def show_group_resolved(transport: Transport, words: list[str]) -> int:
    """``-shgrp_resolved @grp``: every host of the group, nested groups resolved."""
    hosts: list[str] = []
    pending, seen = [words[0]], {words[0]}
    while pending:
        members = _hostlist(transport, pending.pop(0))
        if members is None:
            return EXIT_ERROR
        for item in members:
            if item.startswith("@"):
                if item not in seen:
                    seen.add(item)
                    pending.append(item)
            elif item not in hosts:
                hosts.append(item)
    out(" ".join(sorted(hosts)))
    return EXIT_OK


def kill_execds(*, jobs: bool) -> Callable[[Transport, list[str]], int]:
    """``-ke[j] host_list|all``: the simulated execds shut down (``-kej``: their jobs killed)."""

    def run(transport: Transport, words: list[str]) -> int:
        reply = transport("kill_execd", {"hosts": _names(words[0]), "jobs": jobs})
        print_answers(reply.answers)
        return exit_code(reply.answers)

    return run


def trigger_monitoring(transport: Transport, _words: list[str]) -> int:
    """``-tsm``: the next scheduler run writes its decisions to ``common/schedd_runlog``.
    parse_qconf.c prints every answer on stderr (answer_list_on_error_print_or_exit()),
    ``root@host triggers scheduler monitoring`` as the refusal of a user who is no manager
    (a warning in the qmaster), and goes on with exit status 0."""
    for answer in transport("sched_monitor", {}).answers:
        err(answer.text)
    return EXIT_OK


def kill_scheduler(_transport: Transport, _words: list[str]) -> int:
    """``-ks``: refused; minige's scheduler is part of the qmaster."""
    err("qconf -ks: minige's scheduler runs inside the qmaster; qconf -km stops both")
    return EXIT_ERROR


SOBJL_KINDS = {"queue": "cqueue", "queue_domain": "cqueue", "queue_instance": "cqueue",
               "exechost": "exechost", "pe": "pe", "ckpt": "ckpt", "hostgroup": "hostgroup"}  # fmt: skip
_OVERRIDE = re.compile(r"\[([^=\]]+)=([^\]]*)\]")


def _pairs(text: str) -> list[tuple[str, str]]:
    joined = text.replace("\\\n", " ")
    pairs = []
    for line in joined.splitlines():
        key, _, value = line.strip().partition(" ")
        if key and not key.startswith("#"):
            pairs.append((key, " ".join(value.split())))
    return pairs


def _matches(obj: str, name: str, text: str, attr_pat: str, value_pat: str) -> list[str]:
    """The names ``-sobjl`` prints for one object (a queue may give domains and instances)."""
    found: list[str] = []
    for key, value in _pairs(text):
        if not fnmatchcase(key, attr_pat):
            continue
        default = value.split("[", 1)[0].strip().rstrip(",").strip()
        overrides = _OVERRIDE.findall(value)
        if obj in ("queue", "exechost", "pe", "ckpt", "hostgroup"):
            candidates = [(name, default if obj == "queue" else value)]
        else:
            wanted_group = obj == "queue_domain"
            candidates = [(f"{name}@{k.strip()}", v.strip()) for k, v in overrides
                          if k.strip().startswith("@") == wanted_group]  # fmt: skip
        found += [n for n, v in candidates if fnmatchcase(v, value_pat) and n not in found]
    return found


def show_object_list(transport: Transport, words: list[str]) -> int:
    """``-sobjl obj_nm attr_nm val``: the objects whose attribute matches (patterns allowed)."""
    obj, attr_pat, value_pat = words
    kind = SOBJL_KINDS.get(obj)
    if kind is None:
        err(f'Modification of object "{obj}" not supported')
        return EXIT_ERROR
    reply = transport("conf_show", {"kind": kind, "name": None})
    names = list((reply.data or {}).get("names") or [])
    lines: list[str] = []
    for name in names:
        shown = transport("conf_show", {"kind": kind, "name": name})
        text = str((shown.data or {}).get("text") or "")
        lines += _matches(obj, name, text, attr_pat, value_pat)
    if lines:
        out("\n".join(lines))
    return EXIT_OK


def shutdown(transport: Transport, _words: list[str]) -> int:
    """``-km``: ask the qmaster to stop."""
    reply = transport("shutdown", {})
    print_answers(reply.answers)
    return exit_code(reply.answers)
