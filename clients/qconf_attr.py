"""qconf's attribute verbs: ``-aattr -mattr -rattr -dattr`` (``-Aattr``... read the
attribute lines from a file) and ``-purge``; one ``conf_attr`` request per object.

The qmaster builds the changed object and checks it as ``-M*`` would.
"""

from __future__ import annotations

from collections.abc import Callable

from clients.common.errors import ClientError
from clients.common.output import EXIT_ERROR, EXIT_OK, err, exit_code, print_answers
from clients.common.shell import Transport
from clients.submit.world import read_text

ATTR_OBJECTS = {"queue": "cqueue", "exechost": "exechost", "pe": "pe", "ckpt": "ckpt",
                "hostgroup": "hostgroup", "resource_quota": "rqs"}  # fmt: skip
"""The objects Grid Engine's attribute verbs accept, and their kinds."""
MODES = {"a": "append", "m": "change", "r": "set", "d": "remove"}


def _names(text: str) -> list[str]:
    return [n for n in text.split(",") if n]


def _send(transport: Transport, args: dict[str, object], targets: list[str]) -> int:
    code = EXIT_OK
    for name in targets:
        reply = transport("conf_attr", {**args, "name": name})
        print_answers(reply.answers)
        code = max(code, exit_code(reply.answers))
    return code


def attr_verb(switch: str) -> Callable[[Transport, list[str]], int]:
    """``-?attr obj attr val ids`` or, with a capital letter, ``-?attr obj fname ids``."""
    from_file = switch[1].isupper()
    mode = MODES[switch[1].lower()]

    def run(transport: Transport, words: list[str]) -> int:
        kind = ATTR_OBJECTS.get(words[0])
        if kind is None:
            err(f'Modification of object "{words[0]}" not supported')
            return EXIT_ERROR
        args: dict[str, object] = {"kind": kind, "mode": mode}
        if from_file:
            text = read_text(words[1])
            if text is None:
                raise ClientError(f'file "{words[1]}" does not exist')
            args.update(text=text, source=words[1])
        else:
            args["pairs"] = [[words[1], words[2]]]
        return _send(transport, args, _names(words[-1]))

    return run


def purge(transport: Transport, words: list[str]) -> int:
    """``-purge queue attr_nm|* queue@host|queue@@hgroup``: drop host-specific values."""
    if words[0] != "queue":
        err(f'Modification of object "{words[0]}" not supported')
        return EXIT_ERROR
    args: dict[str, object] = {"kind": "cqueue", "mode": "purge", "pairs": [[words[1], ""]]}
    return _send(transport, args, _names(words[2]))
