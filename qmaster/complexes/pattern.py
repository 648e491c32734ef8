"""RESTRING patterns: the wildcard syntax of the complex attribute specification.

A requested RESTRING value is a set of alternatives separated by ``|``. The bar
splits at the top level only and cannot be escaped, so ``[linux|solaris]``
means ``[linux`` or ``solaris]``. Inside one alternative:

- ``*`` matches any run of characters, the empty one included;
- ``?`` matches exactly one character;
- ``[...]`` matches one character of a set or range (``[a-c]``, ``[!x]``
  negates); a ``[`` with no closing ``]`` is an ordinary character;
- ``\\`` makes the next character ordinary (``\\*``, ``\\?``, ``\\\\``);
- every other character, ``.`` included, stands for itself.
"""

from __future__ import annotations

import re
from functools import lru_cache


def _bracket(text: str, start: int) -> tuple[str, int] | None:
    """The regex class for ``text[start] == '['`` and the index after it, or None."""
    end = text.find("]", start + 2 if text[start + 1 : start + 2] in ("!", "^") else start + 1)
    if end < 0:
        return None
    body = text[start + 1 : end]
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    if not body:
        return None
    escaped = body.replace("\\", "\\\\").replace("]", "\\]").replace("^", "\\^")
    return ("[^" if negate else "[") + escaped + "]", end + 1


def _alternative(text: str) -> str:
    parts: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            parts.append(re.escape(text[i + 1 : i + 2] or "\\"))
            i += 2
            continue
        if char == "*":
            parts.append(".*")
        elif char == "?":
            parts.append(".")
        elif char == "[" and (found := _bracket(text, i)) is not None:
            parts.append(found[0])
            i = found[1]
            continue
        else:
            parts.append(re.escape(char))
        i += 1
    return "".join(parts)


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """A compiled regex that matches exactly what ``pattern`` allows."""
    alternatives = "|".join(f"(?:{_alternative(alt)})" for alt in pattern.split("|"))
    return re.compile(f"(?:{alternatives})\\Z", re.DOTALL)


def pattern_matches(pattern: str, value: str) -> bool:
    """True when ``value`` matches the RESTRING request ``pattern``."""
    return compile_pattern(pattern).match(value) is not None
