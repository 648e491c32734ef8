"""Advance reservations of a replay: a file of qrsub command lines.

Each line holds qrsub's switches, read with qrsub's own grammar (``-a``/``-e``
dates are local time, as qrsub reads them). A line may start with ``@T``: the
reservation is asked for T seconds (or ``h:m:s``) after the trace's start
(default: at the start), so ``@3600 -d 7200 -pe mpi 16`` holds 16 slots from
the second hour to the fourth. ``#`` lines and blank lines are skipped. The
reservations are asked for by ``root`` (a manager), so ``arusers`` does not
limit them; a refused one is reported with the qmaster's answer.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.ar.grammar import ArState, apply_ar_tokens
from qmaster.complexes.values import parse_time
from qmaster.gdi.values import ValueRefused
from qmaster.sim.mapping import MappingError


@dataclass(frozen=True, slots=True)
class ArLine:
    """One reservation to ask for: when (seconds after the trace's start) and what."""

    at: float
    spec: dict[str, Any]
    line: int


def read_ars(path: Path, year: int) -> list[ArLine]:
    """The reservations of ``path`` in the order they are asked for; MappingError names a bad line."""
    found: list[ArLine] = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            found.append(_line(text, number, year))
        except (ValueRefused, ValueError) as exc:
            message = exc.message if isinstance(exc, ValueRefused) else str(exc)
            raise MappingError(f"{path}:{number}: {message}") from None
    return sorted(found, key=lambda ar: (ar.at, ar.line))


def _line(text: str, number: int, year: int) -> ArLine:
    words = shlex.split(text)
    at = 0.0
    if words and words[0].startswith("@"):
        at = parse_time(words.pop(0)[1:])
    state = ArState()
    apply_ar_tokens(words, state, year)
    return ArLine(at, state.spec, number)
