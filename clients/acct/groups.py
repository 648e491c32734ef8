"""The rows of a grouped qacct table (``-h -q -g -o -P -D -pe -slots -ar`` without a value).

While the file streams, a record's row is found by a compact key: just the
grouped fields as they stand on the line (the host in lower case, since Grid
Engine compares host names without case). At the end the compact keys are
expanded into the table's full keys: ``(host, queue, group, owner, project,
department, pe, slots, ar)``, ``None`` (or 0) where a column is not grouped.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from clients.acct import record as r

GroupKey = tuple[object, ...]
Totals = list[float]

# flag -> (field index, value when the line ends before it), in the table's column order
_FIELDS: tuple[tuple[str, int, bytes], ...] = (
    ("queue", r.QNAME, b""),
    ("group", r.GROUP, b""),
    ("owner", r.OWNER, b""),
    ("project", r.PROJECT, b""),
    ("department", r.DEPARTMENT, b""),
    ("granted_pe", r.GRANTED_PE, b"none"),
    ("slots", r.SLOTS, b"0"),
    ("ar", r.ARID, b"0"),
)
_NUMBERS = frozenset({"slots", "ar"})


class Grouper:
    """Sums of the usage columns per group of records."""

    def __init__(self, flags: set[str]) -> None:
        self.by_host = "host" in flags
        self.fields = [(flag, i, d) for flag, i, d in _FIELDS if flag in flags]
        self.rows: dict[tuple[bytes, ...], Totals] = {}
        self.hosts: dict[bytes, bytes] = {}
        self.key_of = self._key_function()

    def _key_function(self) -> Callable[[list[bytes]], tuple[bytes, ...]]:
        fields = [(i, d) for _, i, d in self.fields]
        last = max((i for i, _ in fields), default=0)
        pick = itemgetter(*(i for i, _ in fields), 0, 0)  # always a tuple; two extra ignored
        width = len(fields)
        by_host = self.by_host

        def key(f: list[bytes]) -> tuple[bytes, ...]:
            if len(f) > last:
                parts: tuple[bytes, ...] = pick(f)[:width]
            else:
                n = len(f)
                parts = tuple(f[i] if n > i else d for i, d in fields)
            return (f[r.HOSTNAME].lower(), *parts) if by_host else parts

        return key

    def add(self, f: list[bytes], usage: tuple[float, ...]) -> None:
        """Add one record's usage to its row."""
        key = self.key_of(f)
        row = self.rows.get(key)
        if row is None:
            self.rows[key] = list(usage)
            if self.by_host:
                self.hosts.setdefault(key[0], f[r.HOSTNAME])
            return
        row[0] += usage[0]
        row[1] += usage[1]
        row[2] += usage[2]
        row[3] += usage[3]
        row[4] += usage[4]
        row[5] += usage[5]
        row[6] += usage[6]

    def totals(self) -> Totals:
        """The sums over every row."""
        return [sum(row[i] for row in self.rows.values()) for i in range(7)]

    def table_rows(self) -> dict[GroupKey, Totals]:
        """The rows under the table's full keys."""
        out: dict[GroupKey, Totals] = {}
        for compact, sums in self.rows.items():
            key = self._expand(compact)
            row = out.get(key)
            if row is None:
                out[key] = list(sums)
            else:
                for i, value in enumerate(sums):
                    row[i] += value
        return out

    def _expand(self, compact: tuple[bytes, ...]) -> GroupKey:
        values = list(compact)
        host = values.pop(0) if self.by_host else None
        given = dict(zip((flag for flag, _, _ in self.fields), values, strict=True))
        full: list[object] = [host]
        for flag, _, _ in _FIELDS:
            value = given.get(flag)
            if flag in _NUMBERS:
                full.append(r.atol(value) if value is not None else 0)
            else:
                full.append(value)
        return tuple(full)
