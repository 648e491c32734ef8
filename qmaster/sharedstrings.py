"""A JSON decoder whose objects share their keys and string values with earlier ones.

100,000 job specifications of the same user hold one copy of ``SGE_O_PATH``,
of ``sleep`` and of ``all.q``, not 100,000 (a fifth of the memory a waiting job
takes). Recovery decodes every spooled row with one (:mod:`qmaster.spool.database`);
the GDI server decodes every request with a bounded one
(:func:`qmaster.gdi.server.parse_envelope`), so jobs submitted since the daemon
started share their strings too, and no stream of distinct names can grow it
without end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Decode = Callable[[str], Any]


class SharedStrings:
    """Decode JSON; equal keys and string values of the objects become one object.

    ``limit``: at most that many strings are remembered (the table starts afresh when
    full), and none longer than ``longest`` characters; ``None``: every string, for
    as long as the decoder lives.
    """

    def __init__(self, limit: int | None = None, longest: int = 1024) -> None:
        self._seen: dict[str, str] = {}
        self._limit = limit
        self._longest = longest if limit is not None else None
        hook = self._object if limit is None else self._bounded
        self.decode: Decode = json.JSONDecoder(object_pairs_hook=hook).decode

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen = self._seen.setdefault
        return {seen(k, k): seen(v, v) if type(v) is str else v for k, v in pairs}

    def _bounded(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if self._limit is not None and len(self._seen) >= self._limit:
            self._seen = {}
        seen, longest = self._seen.setdefault, self._longest or 0
        return {
            seen(k, k): seen(v, v) if type(v) is str and len(v) <= longest else v for k, v in pairs
        }
