"""Value parsers of sge_types(1)."""

from __future__ import annotations

import contextlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.complexes.types import ValueType
from qmaster.complexes.values import (
    ValueParseError,
    format_memory,
    format_time,
    parse_bool,
    parse_memory,
    parse_time,
    parse_value,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("512", 512), ("1k", 1000), ("1K", 1024), ("2m", 2_000_000), ("2M", 2 * 1024**2),
     ("1g", 10**9), ("1G", 1024**3), ("1.5G", 1.5 * 1024**3), ("INFINITY", math.inf)],
)  # fmt: skip
def test_memory_multipliers(text: str, expected: float) -> None:
    """Memory specifiers use k/m/g as powers of 1000 and K/M/G as powers of 1024."""
    assert parse_memory(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1e3", 1000), ("1.5e3K", 1_536_000), ("2E1", 20), ("0x10", 16), ("010", 8), ("0", 0)],
)  # fmt: skip
def test_memory_is_read_by_the_number_parser(text: str, expected: float) -> None:
    """As sge_parse_num_val reads a value: an exponent (strtod), hex and octal (strtol)."""
    assert parse_memory(text) == expected


@pytest.mark.parametrize(("text", "expected"), [("1e2", 100), ("1.5e1", 15), ("1e1k", 10_000)])
def test_time_seconds_may_have_an_exponent(text: str, expected: float) -> None:
    """A number of seconds is read as strtod reads it, multiplier and all."""
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1::1", 3601), ("0:0:15", 15), ("::", 0), ("1:30:0", 5400), ("90", 90), ("0x10", 16),
     ("010", 8), ("INFINITY", math.inf)],
)  # fmt: skip
def test_time_forms(text: str, expected: float) -> None:
    """Time is h:m:s with empty fields allowed, or seconds in decimal, hex or octal."""
    assert parse_time(text) == expected


@pytest.mark.parametrize("text", ["1:2:3:4", "a", "1:x:3", "-5", "08", ""])
def test_bad_time_is_refused(text: str) -> None:
    """A malformed time names the value and the TIME type."""
    with pytest.raises(ValueParseError, match="TIME expected"):
        parse_time(text)


@pytest.mark.parametrize("text", ["12x", "G", "1.2.3", "-1", "1e", "0e3", "08", "1:00"])
def test_bad_memory_is_refused(text: str) -> None:
    """A malformed memory value is refused with a GE-style message."""
    with pytest.raises(ValueParseError, match=f'"{text}" - MEMORY expected'):
        parse_memory(text)


@pytest.mark.parametrize(("text", "expected"), [("TRUE", 1.0), ("false", 0.0), ("1", 1.0),
                                                ("No", 0.0), ("yes", 1.0)])  # fmt: skip
def test_bool_words(text: str, expected: float) -> None:
    """Booleans accept true/false, yes/no and 1/0 in any case."""
    assert parse_bool(text) == expected


def test_cstring_and_host_compare_without_case() -> None:
    """CSTRING and HOST values are compared case-insensitively; STRING keeps its case."""
    assert parse_value(ValueType.CSTRING, "ABC") == "abc"
    assert parse_value(ValueType.HOST, "Host1") == "host1"
    assert parse_value(ValueType.STRING, "ABC") == "ABC"


def test_parse_value_error_is_a_value_error() -> None:
    """Callers can catch a bad value as ValueError."""
    with pytest.raises(ValueError, match="INT expected"):
        parse_value(ValueType.INT, "1.5x")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2.5", 2.5), (".5", 0.5), ("3", 3), ("010", 8), ("0x10", 16), ("1k", 1000),
     ("1.5K", 1536), ("1:00:00", 3600), ("TRUE", 1), ("false", 0), ("-2.5", -2.5),
     ("-010", -10), ("-0x10", -16), ("-0", 0), ("infinity", math.inf)],
)  # fmt: skip
def test_int_values_are_read_by_the_number_parser(text: str, expected: float) -> None:
    """An INT is read as Grid Engine 6.2u5's parse_ulong_val(TYPE_INT) reads it: its one
    number parser (sge_parse_num_val), keeping the double, so ``license=2.5`` is 2.5 (the
    testsuite's resource_reservation check.60 submits such requests and expects them run);
    minige used to refuse a fraction here."""
    assert parse_value(ValueType.INT, text) == expected


@pytest.mark.parametrize("text", ["", "x", "2.5x", "-", "--1", "- 1", "-1:0:0", "-INFINITY", "0x"])  # fmt: skip
def test_int_values_that_are_no_number_are_refused(text: str) -> None:
    """What sge_parse_num_val refuses (no number, a bad trailer) stays an INT type error."""
    with pytest.raises(ValueParseError, match="INT expected"):
        parse_value(ValueType.INT, text)


@given(st.integers(min_value=0, max_value=2**50))
def test_memory_round_trip(number: int) -> None:
    """Formatting a byte count and reading it back gives the same number."""
    assert parse_memory(format_memory(number)) == number


@given(st.integers(min_value=0, max_value=10**7))
def test_time_round_trip(seconds: int) -> None:
    """Formatting seconds as h:mm:ss and reading them back gives the same seconds."""
    assert parse_time(format_time(seconds)) == seconds


@given(
    st.integers(min_value=0, max_value=999),
    st.integers(min_value=0, max_value=59),
    st.integers(min_value=0, max_value=59),
)
def test_time_fields_add_up(h: int, m: int, s: int) -> None:
    """h:m:s is read as hours, minutes and seconds."""
    assert parse_time(f"{h}:{m}:{s}") == h * 3600 + m * 60 + s


@given(st.text(alphabet="0123456789kKmMgGx.:-", max_size=8))
def test_memory_parser_never_crashes(text: str) -> None:
    """Any input either parses to a non-negative number or raises ValueParseError."""
    with contextlib.suppress(ValueParseError):
        assert parse_memory(text) >= 0
