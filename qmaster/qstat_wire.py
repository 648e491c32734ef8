"""qstat's compact job rows on the wire, for the qmaster and the client (standard library only).

A compact row is the ten values of :data:`FIELDS` in that order, then, when
the options added anything (``-ext`` columns, ``-r`` requirements, ``-g t``'s
``master``...), one dict of those keys. :func:`expand` gives back exactly the
dict :func:`compact` was given.
"""

from __future__ import annotations

from typing import Any

FIELDS = (
    "job_id", "prior", "name", "owner", "state",
    "submit_time", "start_time", "queue", "slots", "tasks",
)  # fmt: skip
_FIELD_SET = frozenset(FIELDS)
_QUEUE = FIELDS.index("queue")

Row = list[Any]


def compact(row: dict[str, Any]) -> Row:
    """A row dict as its list: the ten fields, then a dict of the other keys if any."""
    values: Row = [row[k] for k in FIELDS]
    if len(row) > len(FIELDS):
        values.append({k: v for k, v in row.items() if k not in _FIELD_SET})
    return values


def expand(values: Row) -> dict[str, Any]:
    """The row dict of a compact row (what :func:`compact` was given)."""
    row = dict(zip(FIELDS, values, strict=False))
    if len(values) > len(FIELDS):
        row.update(values[len(FIELDS)])
    return row


def in_queue(values: Row) -> bool:
    """Whether a compact row is a row in a queue (running, suspended, transferring...)."""
    return bool(values[_QUEUE])
