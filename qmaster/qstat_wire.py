"""qstat's compact job rows on the wire, for the qmaster and the client (standard library only).

A compact row is the ten values of :data:`FIELDS` in that order, then, when
the options added anything (``-ext`` columns, ``-r`` requirements, ``-g t``'s
``master``...), one dict of those keys. :func:`expand` gives back the dict
:func:`compact` was given, but for its submit and start times: whole seconds
(every layout prints seconds, and a float with its fraction costs a JSON encoder
five times what an int does).
"""

from __future__ import annotations

import math
from typing import Any

FIELDS = (
    "job_id", "prior", "name", "owner", "state",
    "submit_time", "start_time", "queue", "slots", "tasks",
)  # fmt: skip
_FIELD_SET = frozenset(FIELDS)
_QUEUE = FIELDS.index("queue")
_SUBMIT, _START = FIELDS.index("submit_time"), FIELDS.index("start_time")

Row = list[Any]


def second(epoch: float) -> int:
    """A time as the compact rows carry it: the second it falls in."""
    return math.floor(epoch)


def compact(row: dict[str, Any]) -> Row:
    """A row dict as its list: the ten fields (times in whole seconds), then a dict of
    the other keys if any."""
    values: Row = [row[k] for k in FIELDS]
    for at in (_SUBMIT, _START):
        if values[at] is not None:
            values[at] = second(values[at])
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
