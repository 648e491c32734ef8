"""The usage table qacct prints without ``-j N``: a total, or one row per group.

Column widths follow Grid Engine's qacct: each grouping column is as wide as
its title plus one, widened to the longest value plus one; a value given on
the command line sets the width of its column; the slot and AR columns are 5
wide, 6 as soon as there is a grouped row (Grid Engine measures ``%5u`` of
every row's slots and AR id, 0 when not grouped). Without rows (a total
wallclock of 0) only the titles are printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from clients.acct import texts
from clients.acct.options import Options
from clients.acct.render import TITLE, pad, slot_cell, usage_row
from clients.acct.scan import Scan

# (option attribute, flag, title, group-key index)
_TEXT_COLUMNS = (
    ("host", "host", texts.HOST, 0),
    (None, "queue", texts.QUEUE, 1),
    ("group", "group", texts.GROUP, 2),
    ("owner", "owner", texts.OWNER, 3),
    ("project", "project", texts.PROJECT, 4),
    ("department", "department", texts.DEPARTMENT, 5),
    ("granted_pe", "granted_pe", texts.PE, 6),
)


@dataclass(slots=True)
class Column:
    """One grouping column of the table."""

    title: str
    width: int
    given: str | None
    index: int


def _text_columns(opts: Options, scan: Scan) -> list[Column]:
    columns = []
    for attr, flag, title, index in _TEXT_COLUMNS:
        given = getattr(opts, attr) if attr else None
        if given is None and flag not in opts.flags:
            continue
        width = max(len(given) + 1 if given is not None else 0, len(title) + 1)
        for key in scan.groups:
            value = key[index]
            if isinstance(value, bytes):
                shown = scan.hosts.get(value, value) if index == 0 else value
                width = max(width, len(shown.decode("utf-8", "replace")) + 1)
        columns.append(Column(title, width, given, index))
    return columns


def _number_width(scan: Scan, index: int) -> int:
    width = 5
    for key in scan.groups:
        number = key[index]
        assert isinstance(number, int)
        width = max(width, len(f"{number & 0xFFFFFFFF:5d}") + 1)
    return width


def _cell(column: Column, key: tuple[object, ...] | None, scan: Scan) -> str:
    if column.given is not None:
        return pad(column.width, column.given)
    value = key[column.index] if key is not None else None
    if isinstance(value, bytes):
        if column.index == 0:
            value = scan.hosts.get(value, value)
        return pad(column.width, value.decode("utf-8", "replace"))
    return pad(column.width, "")


def render_table(opts: Options, scan: Scan) -> str:
    """The usage table for a finished scan."""
    columns = _text_columns(opts, scan)
    slots_w, ar_w = _number_width(scan, 7), _number_width(scan, 8)
    show_slots = opts.slots > 0 or "slots" in opts.flags
    show_ar = opts.ar_number > 0 or "ar" in opts.flags
    head = "".join(pad(c.width, c.title) for c in columns)
    head += pad(slots_w, texts.SLOTS) if show_slots else ""
    head += pad(slots_w, texts.AR) if show_ar else ""
    out = [] if head else [texts.TOTAL]
    out += [head + TITLE, "=" * (len(head) + len(TITLE))]
    if not scan.totals[0]:
        return "\n".join(out) + "\n"
    keys: list[tuple[object, ...] | None] = [None]
    if opts.grouped:
        keys = [*sorted(scan.groups, key=_sort_key)]
    for key in keys:
        cells = "".join(_cell(c, key, scan) for c in columns)
        if show_slots:
            number = opts.slots if opts.slots > 0 else _key_int(key, 7)
            cells += slot_cell(slots_w, number)
        if show_ar:
            number = opts.ar_number if opts.ar_number > 0 else _key_int(key, 8)
            cells += slot_cell(ar_w, number)
        values = scan.groups[key] if key is not None else scan.totals
        out.append(cells + usage_row(values))
    return "\n".join(out) + "\n"


def _key_int(key: tuple[object, ...] | None, index: int) -> int:
    value = key[index] if key is not None else 0
    return value if isinstance(value, int) else 0


def _sort_key(key: tuple[object, ...]) -> tuple[tuple[bytes, int], ...]:
    """Rows in Grid Engine's order: host, queue, group, owner, project, department, PE, slots, AR."""
    parts: list[tuple[bytes, int]] = []
    for value in key:
        parts.append(
            (value, 0)
            if isinstance(value, bytes)
            else (b"", value if isinstance(value, int) else 0)
        )
    return tuple(parts)
