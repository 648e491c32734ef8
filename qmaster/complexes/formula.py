"""The ``load_formula`` of sched_conf(5): a weighted sum of load values.

Syntax (no blanks): ``{w1|load_val1[*w1]}[{+|-}{w2|load_val2[*w2]}[{+|-}...]]``,
e.g. ``np_load_avg``, ``load_avg*2+mem_used*0.5``, ``np_load_short-1``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_TERM = re.compile(
    r"([+-]?)([A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d*)?|\.\d+)(?:\*(\d+(?:\.\d*)?|\.\d+))?"
)

Term = tuple[float, str | None]
"""A signed weight and the attribute it weighs (None: a constant)."""


class FormulaError(ValueError):
    """A load formula that cannot be read."""


def parse_formula(text: str) -> tuple[Term, ...]:
    """The terms of a load formula; raises :class:`FormulaError`."""
    terms: list[Term] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TERM.match(text, pos)
        if match is None or (terms and not match.group(1)):
            raise FormulaError(f'invalid load_formula "{text}"')
        sign = -1.0 if match.group(1) == "-" else 1.0
        word, weight = match.group(2), float(match.group(3) or 1.0)
        if word[0].isalpha() or word[0] == "_":
            terms.append((sign * weight, word))
        else:
            terms.append((sign * float(word) * weight, None))
        pos = match.end()
    if not terms:
        raise FormulaError(f'invalid load_formula "{text}"')
    return tuple(terms)


def check_formula(text: str) -> None:
    """Raise ``ValueError`` for a load formula that cannot be read."""
    parse_formula(text)


def evaluate(terms: tuple[Term, ...], value: Callable[[str], float | None]) -> float | None:
    """The formula's value, or None when an attribute it names has no value."""
    total = 0.0
    for weight, name in terms:
        if name is None:
            total += weight
            continue
        found = value(name)
        if found is None:
            return None
        total += weight * found
    return total
