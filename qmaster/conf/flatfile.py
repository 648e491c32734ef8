"""Grid Engine's ``name value`` flat-file format: reading with continuations, writing aligned.

A line is an attribute name, white space, and the value. ``#`` starts a comment
line. A line ending in a backslash continues on the next one. Writing pads the
names to a column and breaks a line longer than 80 characters where Grid
Engine's spool_flatfile_add_line_breaks() breaks it, continuing with `` \\``
(its testsuite checks the borders: lines of 78 to 81 characters).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from qmaster.conf.errors import ConfigError

WRAP_AT = 80
_BLANKS = re.compile(r"[ \t]+")


class Pair(NamedTuple):
    """One attribute of a flat file and the line it starts on."""

    key: str
    value: str
    line: int


def _join(head: str, tail: str) -> str:
    """GE's scanner: a continued part ends in one space, none after a comma; empty parts vanish."""
    if not tail:
        return head
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
        key, *rest = _BLANKS.split(line, maxsplit=1)
        value = rest[0].strip() if rest else ""
        if not value:
            raise ConfigError(path, number, f'missing value for attribute "{key}"')
        pairs.append(Pair(key, value, number))
    return pairs


_SPACE = " \t\n\r\v\f"


def _value_start(line: str) -> int:
    """Where the second word of ``line`` starts: past the name and the blanks or ``=``."""
    at = 0
    while at < len(line) and line[at] not in _SPACE and line[at] != "=":
        at += 1
    while at < len(line) and (line[at] in _SPACE or line[at] == "="):
        at += 1
    return at


def _break_at(rest: str, first: bool, word: int) -> int:
    """Grid Engine's break point: the last blank (or comma short of the end) that leaves
    room for `` \\``, else the first one past it; -1 when there is none."""
    limit = WRAP_AT - 2 if first else WRAP_AT - word - 2
    index = limit
    while index > (word if first else 0):
        char = rest[index] if index < len(rest) else ""
        if char and (char in _SPACE or (index < limit and char == ",")):
            return index
        index -= 1
    if index < len(rest) and (rest[index] in _SPACE or rest[index] == ","):
        return index
    for index in range(limit, len(rest)):
        if rest[index] in _SPACE or rest[index] == ",":
            return index
    return -1


def add_line_breaks(line: str) -> str:
    """One ``name value`` line broken as Grid Engine's spool_flatfile_add_line_breaks()
    breaks it: at a blank (dropped) or after a comma, each continuation ending in
    `` \\`` and indented to the value's column; a word too long for a line stays whole."""
    if len(line) <= WRAP_AT:
        return line
    word = _value_start(line)
    indent = " \\\n" + " " * word
    parts: list[str] = []
    rest, first = line, True
    while len(rest) > (WRAP_AT if first else WRAP_AT - word):
        if not first:
            rest = rest.lstrip(_SPACE)
        index = _break_at(rest, first, word)
        if index < 0:
            break
        keep = index + 1 if rest[index] == "," else index
        parts.append(rest[:keep] + indent)
        rest, first = rest[index + 1 :], False
    parts.append(rest)
    return "".join(parts)


def render_pairs(pairs: list[tuple[str, str]], column: int) -> str:
    """``name value`` lines with values starting at ``column`` (0: one blank after the
    name, as Grid Engine prints a host group), long ones broken as Grid Engine does."""
    out = [add_line_breaks(key.ljust(column - 1) + " " + value) for key, value in pairs]
    return "\n".join(out) + "\n"
