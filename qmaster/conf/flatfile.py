"""Grid Engine's ``name value`` flat-file format: reading with continuations, writing aligned.

A line is an attribute name, white space, and the value. ``#`` starts a comment
line. A line ending in a backslash continues on the next one. Writing pads the
names to a column and wraps long values after a list separator, continuing the
line with `` \\`` as ``qconf`` does.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from qmaster.conf.errors import ConfigError

WRAP_AT = 80
_TOKEN_RE = re.compile(r"[^, ]+[, ]?|[, ]")


class Pair(NamedTuple):
    """One attribute of a flat file and the line it starts on."""

    key: str
    value: str
    line: int


def _join(head: str, tail: str) -> str:
    if not head or head.endswith(","):
        return head + tail
    return f"{head} {tail}"


def _logical_lines(text: str) -> list[tuple[int, str]]:
    lines: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if pending is None and (not line or line.startswith("#")):
            continue
        continued = line.endswith("\\")
        part = line[:-1].rstrip() if continued else line
        pending = (number, part) if pending is None else (pending[0], _join(pending[1], part))
        if not continued:
            lines.append(pending)
            pending = None
    if pending is not None:
        lines.append(pending)
    return lines


def read_pairs(text: str, path: str) -> list[Pair]:
    """The attributes of a flat file in order; a line without a value is a :class:`ConfigError`."""
    pairs: list[Pair] = []
    for number, line in _logical_lines(text):
        key, _, value = line.partition(" ") if " " in line else line.partition("\t")
        key, value = key.strip(), value.strip()
        if not value:
            raise ConfigError(path, number, f'missing value for attribute "{key}"')
        pairs.append(Pair(key, value, number))
    return pairs


def _wrap(value: str, indent: int, first_room: int) -> list[str]:
    tokens = _TOKEN_RE.findall(value)
    lines: list[str] = []
    current = ""
    room = first_room
    for token in tokens:
        if current and len(current) + len(token.rstrip()) > room:
            lines.append(current.rstrip() + " \\")
            current = ""
            room = WRAP_AT - indent - 2
        current += token
    lines.append(current.rstrip())
    return lines


def render_pairs(pairs: list[tuple[str, str]], column: int) -> str:
    """``name value`` lines with values starting at ``column``, long ones wrapped."""
    out: list[str] = []
    for key, value in pairs:
        prefix = key.ljust(column - 1) + " "
        parts = _wrap(value, len(prefix), WRAP_AT - len(prefix) - 2)
        out.append(prefix + parts[0])
        out.extend(" " * len(prefix) + part for part in parts[1:])
    return "\n".join(out) + "\n"
