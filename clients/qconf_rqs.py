"""qconf's resource quota set switches: -arqs -Arqs -mrqs -Mrqs -srqs -srqsl -drqs.

As resource_quota_qconf.c: ``-arqs [name,..]`` opens new sets (rqs_set_defaults():
``enabled FALSE``, ``limit to slots=0``) in ``$EDITOR``; ``-mrqs name,..`` edits those
sets and ``-mrqs`` alone all of them, which then replace every set (SGE_GDI_REPLACE), as
``-Mrqs FILE`` does; ``-Mrqs FILE name,..`` modifies only the named sets of the file.
``-srqs`` alone prints every set, ``-srqs name,..`` those found ("No resource quota set
found" when none is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients.common.editor import edit_text
from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, err, exit_code, out, print_answers
from clients.common.shell import Transport
from clients.submit.world import read_text

Run = Callable[[Transport, list[str]], int]


def _send(transport: Transport, text: str, source: str, *, add: bool, select: str) -> int:
    args: dict[str, Any] = {"kind": "rqs", "text": text, "source": source}
    if add:
        args["add"] = True
    if select:
        args["select"] = select
    reply = transport("conf_modify", args)
    print_answers(reply.answers)
    return exit_code(reply.answers)


def edit_rqs(*, add: bool) -> Run:
    """``-arqs [names]`` and ``-mrqs [names]``: the sets in ``$EDITOR``, then sent."""

    def run(transport: Transport, words: list[str]) -> int:
        names = words[0] if words else ""
        args: dict[str, Any] = {"kind": "rqs", "name": names or ("template" if add else "")}
        if add:
            args["template"] = True
        reply = transport("conf_show", args)
        data = reply.data or {}
        if not reply.ok or not data.get("text"):
            print_answers(reply.answers)
            return max(EXIT_ERROR, exit_code(reply.answers))
        text = edit_text(str(data["text"]))
        return _send(transport, text, "-", add=add, select="" if add else names)

    return run


def add_rqs_file(transport: Transport, words: list[str]) -> int:
    """``-Arqs FILE``: add every set of the file."""
    text = read_text(words[0])
    if text is None:
        raise ClientError(f'file "{words[0]}" does not exist')
    return _send(transport, text, words[0], add=True, select="")


def modify_rqs_file(transport: Transport, words: list[str]) -> int:
    """``-Mrqs FILE [names]``: modify the named sets of the file, or replace all sets."""
    text = read_text(words[0])
    if text is None:
        raise ClientError(f'file "{words[0]}" does not exist')
    return _send(transport, text, words[0], add=False, select=words[1] if len(words) > 1 else "")


def show_rqs(transport: Transport, words: list[str]) -> int:
    """``-srqs [names]``: the sets' text."""
    from clients.qconf import print_shown

    reply = transport("conf_show", {"kind": "rqs", "name": words[0] if words else ""})
    code = 0 if reply.data is None else print_shown("rqs", reply.data)
    print_answers(reply.answers)
    return max(code, exit_code(reply.answers))


def list_rqs(transport: Transport, words: list[str]) -> int:
    """``-srqsl``: the sets' names ("no resource quota set list defined" when none)."""
    reply = transport("conf_show", {"kind": "rqs", "name": None})
    names = list((reply.data or {}).get("names") or [])
    print_answers(reply.answers)
    if reply.data is not None and not names:
        err("no resource quota set list defined")
        return EXIT_ERROR
    if names:
        out("\n".join(names))
    return exit_code(reply.answers)


def delete_rqs(transport: Transport, words: list[str]) -> int:
    """``-drqs name,..``: delete each named set."""
    code = 0
    for name in (n for n in words[0].split(",") if n):
        reply = transport("conf_delete", {"kind": "rqs", "name": name, "members": []})
        print_answers(reply.answers)
        code = max(code, exit_code(reply.answers))
    return code


RQS_VERBS: dict[str, tuple[int, Run]] = {
    "-srqsl": (0, list_rqs),
    "-drqs": (1, delete_rqs),
    "-arqs": (-1, edit_rqs(add=True)),
    "-Arqs": (1, add_rqs_file),
    "-mrqs": (-1, edit_rqs(add=False)),
    "-Mrqs": (-2, modify_rqs_file),
    "-srqs": (-1, show_rqs),
}
"""Switch: (arity, run); -1 one optional word, -2 one word and an optional second."""
