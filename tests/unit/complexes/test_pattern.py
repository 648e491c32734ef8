"""RESTRING wildcard patterns: the specification's syntax, checked by examples and properties."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.complexes.pattern import ExpressionError, check_expression, pattern_matches

PLAIN = st.text(alphabet="abcxyz.-_0123456789", min_size=0, max_size=12)


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("linux|solaris", "solaris", True),
        ("[linux|solaris]", "[linux", True),
        ("[linux|solaris]", "solaris]", True),
        ("[linux|solaris]", "l", False),
        ("lx-*", "lx-", True),
        ("lx-?", "lx-", False),
        ("a.c", "abc", False),
        ("a\\*c", "a*c", True),
        ("a\\*c", "abc", False),
        ("a\\?", "a?", True),
        ("a\\\\", "a\\", True),
        ("node[1-3]", "node2", True),
        ("node[1-3]", "node4", False),
        ("node[!1]", "node2", True),
        ("*", "", True),
    ],
)
def test_examples(pattern: str, value: str, expected: bool) -> None:
    """The documented meanings of *, ?, ., [..], \\ and top-level |."""
    assert pattern_matches(pattern, value) is expected


@given(PLAIN)
def test_plain_text_matches_only_itself(text: str) -> None:
    """A pattern without special characters matches exactly its own text."""
    assert pattern_matches(text, text)
    assert not pattern_matches(text, text + "x")


@given(st.lists(PLAIN.filter(bool), min_size=1, max_size=4), PLAIN)
def test_bar_is_or_of_alternatives(alternatives: list[str], value: str) -> None:
    """a|b|c matches a value exactly when one alternative does."""
    expected = any(pattern_matches(a, value) for a in alternatives)
    assert pattern_matches("|".join(alternatives), value) is expected


@given(st.text(alphabet="ab*?", max_size=8), st.text(alphabet="ab", max_size=8))
def test_star_and_question_agree_with_fnmatch(pattern: str, value: str) -> None:
    """Without brackets or escapes, * and ? behave as shell globbing does."""
    assert pattern_matches(pattern, value) is fnmatch.fnmatchcase(value, pattern)


@given(PLAIN)
def test_escaped_star_is_literal(text: str) -> None:
    """\\* stands for a star: it matches '*' and nothing else there."""
    assert pattern_matches(text + "\\*", text + "*")
    assert not pattern_matches(text + "\\*", text + "x")


@pytest.mark.parametrize(
    ("expression", "value", "expected"),
    [
        ("!sol*", "linux", True),
        ("!sol*", "solaris", False),
        ("lx*&*64", "lx-amd64", True),
        ("lx*&*64", "lx-x86", False),
        ("sol*|lx*&*64", "solaris", True),
        ("(sol*|lx*)&*64", "solaris", False),
        ("!(a|b)", "c", True),
        ("!!a", "a", True),
    ],
)
def test_operators(expression: str, value: str, expected: bool) -> None:
    """!, & and | with parentheses; & binds tighter than |."""
    assert pattern_matches(expression, value) is expected


@pytest.mark.parametrize("expression", ["[z-a]x", "lx&", "|a", "(a", "a)", "!", "a&&b", "()"])
def test_expressions_that_cannot_be_read(expression: str) -> None:
    """Reversed ranges, dangling operators and unbalanced parentheses are errors."""
    with pytest.raises(ExpressionError):
        check_expression(expression)
