"""Grid Engine's qmaster checks of a configuration object added or changed by qconf:
its name, and the ``$variables`` of a parallel environment's start and stop commands.

The qmaster checks a new cluster queue, parallel environment, checkpointing
environment, access list or calendar with verify_str_key() (its KEY_TABLE):
at most 512 characters, not starting with ``.`` or ``#``, and not one of the
keywords NONE, ALL or TEMPLATE (in any case), none of its list and path characters
anywhere. A name holding one of those is refused already where the object's text
is read (:func:`check_key`), with the qmaster's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from qmaster.conf.errors import Refused

MAX_VERIFY_STRING: Final = 512
CHECKED_KINDS: Final = frozenset({"cqueue", "pe", "ckpt", "userset", "calendar"})
_FIRST: Final = {".": "Dot", "#": "Hash"}
_KEYWORDS: Final = ("NONE", "ALL", "TEMPLATE")
# KEY_TABLE's mid_characters in its order; a printable one is shown as ('c').
_MID: Final = (
    ("\n", "Return"), ("\t", "Tabulator"), ("\r", "Carriage return"), (" ", "Space"),
    ("/", "Slash"), (":", "Colon"), ("'", "Quote"), ('"', "Double quote"),
    ("\\", "Backslash"), ("[", "Brackets"), ("]", "Brackets"), ("{", "Braces"),
    ("}", "Braces"), ("|", "Pipe"), ("(", "Parenthesis"), (")", "Parenthesis"),
    ("@", "At"), ("%", "Percent"), (",", "Comma"),
)  # fmt: skip
_VARIABLE: Final = re.compile(r"\$([A-Za-z0-9_]*)")
_FS_PARTS: Final = ("host", "path", "tmp_path", "file_staging")
# What the qmaster adds after verify_str_key()'s own line, for some kinds.
_WRAPPERS: Final = {
    "cqueue": 'cluster queue name "{}" is not valid',
    "pe": 'Invalid character in pe name of pe "{}"',
}


def key_problem(name: str) -> str | None:
    """verify_str_key()'s message for ``name``, or None when the name is allowed."""
    if len(name) > MAX_VERIFY_STRING:
        return f"string is longer than {MAX_VERIFY_STRING}, this is not allowed for objectnames"
    if name[:1] in _FIRST:
        return f"{_FIRST[name[0]]} ('{name[0]}') not allowed as first character of objectname"
    for char, what in _MID:
        if char in name:
            shown = f" ('{char}')" if char.isprintable() else ""
            return f"{what}{shown} not allowed in objectname"
    if name.upper() in _KEYWORDS:
        return f'Keyword ("{name.upper()}") not allowed as objectname'
    return None


def name_refusals(kind: str, name: str) -> list[str]:
    """The error lines Grid Engine's qmaster answers when ``name`` is refused for a new
    object of ``kind`` (empty when it is accepted or the kind is not checked this way)."""
    problem = key_problem(name) if kind in CHECKED_KINDS else None
    if problem is None:
        return []
    wrapper = _WRAPPERS.get(kind)
    return [problem] + ([wrapper.format(name[:100])] if wrapper else [])


def check_key(kind: str) -> Callable[[str], None]:
    """The name check of a ``kind`` the qmaster checks with verify_str_key(): a name
    holding a character no name may hold is refused with the qmaster's lines."""

    def check(name: str) -> None:
        if any(char in name for char, _ in _MID):
            raise Refused("\n".join(name_refusals(kind, name)))

    return check


# The variables a PE's start_proc_args and stop_proc_args may name (config_file.c).
PE_VARIABLES: Final = frozenset(
    {
        *("pe_hostfile", "host", "job_owner", "job_id", "job_name", "pe", "pe_slots"),
        *("processors", "queue", "stdin_path", "stdout_path", "stderr_path", "merge_stderr"),
        *(f"fs_{s}_{part}" for s in ("stdin", "stdout", "stderr") for part in _FS_PARTS),
    }
)


def variables_problem(text: str, allowed: frozenset[str]) -> str | None:
    """replace_params()'s complaint about the ``$name`` words of ``text``, or None."""
    for match in _VARIABLE.finditer(text):
        name = match.group(1)
        if not name:
            return "variables need at least one character"
        if len(name) > 255:
            return f"referenced variable {name[:20]:>20.20}... expands max. length"
        if name not in allowed:
            return f'unknown variable "{name}"'
    return None


def pe_refusals(name: str, attrs: dict[str, str]) -> list[str]:
    """pe_validate()'s refusal of a PE's start_proc_args or stop_proc_args (NONE: none)."""
    for attr in ("start_proc_args", "stop_proc_args"):
        text = attrs.get(attr, "NONE")
        problem = None if text.lower() == "none" else variables_problem(text, PE_VARIABLES)
        if problem is not None:
            return [f'parameter {attr} of pe "{name[:100]}": {problem}']
    return []
