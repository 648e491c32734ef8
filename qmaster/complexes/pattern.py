"""Requested string values: the wildcard expressions of sge_types(1).

Every string type (STRING, CSTRING, RESTRING, HOST) is requested with an
*expression*: patterns joined by ``|`` (or), ``&`` (and), ``!`` (not) and
grouped by ``(`` ``)``; ``&`` binds tighter than ``|``. The operators split
the text before anything else and cannot be escaped, so ``[linux|solaris]``
means ``[linux`` or ``solaris]``; ``!`` is an operator only where a pattern
begins (``node[!1]`` is one pattern). Inside one pattern:

- ``*`` matches any run of characters, the empty one included;
- ``?`` matches exactly one character;
- ``[...]`` matches one character of a set or range (``[a-c]``, ``[!x]``
  negates); a ``[`` with no closing ``]`` is an ordinary character;
- ``\\`` makes the next character ordinary (``\\*``, ``\\?``, ``\\\\``);
- every other character, ``.`` included, stands for itself.

An expression that cannot be read (an empty pattern, unbalanced parentheses,
a reversed range such as ``[z-a]``) raises :class:`ExpressionError`;
:func:`check_expression` is what request validation calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

Matcher = Callable[[str], bool]
_OPERATORS = frozenset("|&!()")


class ExpressionError(ValueError):
    """A requested string expression that cannot be compiled; the message says why."""


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


def _pattern_regex(text: str) -> str:
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


def _leaf(text: str, whole: str) -> Matcher:
    try:
        compiled = re.compile(f"(?:{_pattern_regex(text)})\\Z", re.DOTALL)
    except re.error as exc:
        raise ExpressionError(f'invalid expression "{whole}": {exc.msg}') from None
    return lambda value: compiled.match(value) is not None


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    word = ""
    for char in text:
        if char in _OPERATORS and not (char == "!" and word):
            if word:
                out.append(word)
            out.append(char)
            word = ""
        else:
            word += char
    if word:
        out.append(word)
    return out


class _Parser:
    """Recursive descent over the tokens: or := and {| and}; and := unary {& unary}."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def fail(self) -> ExpressionError:
        return ExpressionError(f'invalid expression "{self.text}"')

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail()
        self.pos += 1
        return token

    def parse(self) -> Matcher:
        if not self.tokens:
            return _leaf("", self.text)
        found = self.or_()
        if self.peek() is not None:
            raise self.fail()
        return found

    def or_(self) -> Matcher:
        terms = [self.and_()]
        while self.peek() == "|":
            self.take()
            terms.append(self.and_())
        return terms[0] if len(terms) == 1 else lambda v: any(t(v) for t in terms)

    def and_(self) -> Matcher:
        terms = [self.unary()]
        while self.peek() == "&":
            self.take()
            terms.append(self.unary())
        return terms[0] if len(terms) == 1 else lambda v: all(t(v) for t in terms)

    def unary(self) -> Matcher:
        token = self.take()
        if token == "!":
            inner = self.unary()
            return lambda v: not inner(v)
        if token == "(":
            inner = self.or_()
            if self.take() != ")":
                raise self.fail()
            return inner
        if token in _OPERATORS:
            raise self.fail()
        return _leaf(token, self.text)


@lru_cache(maxsize=4096)
def compile_expression(expression: str) -> Matcher:
    """A function telling whether a value matches ``expression``; raises :class:`ExpressionError`."""
    return _Parser(expression).parse()


def check_expression(expression: str) -> None:
    """Raise :class:`ExpressionError` when ``expression`` cannot be compiled."""
    compile_expression(expression)


def pattern_matches(pattern: str, value: str) -> bool:
    """True when ``value`` matches the requested expression ``pattern``."""
    return compile_expression(pattern)(value)
