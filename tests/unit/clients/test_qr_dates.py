"""qrsub's date_time and TIME parsing: Grid Engine's rules, local time, DST edges."""

from __future__ import annotations

import calendar
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clients.ar.dates import date_time_epoch, hms, parse_time_value
from clients.common.errors import ClientError
from qmaster.complexes.values import parse_time
from qmaster.gdi.localtime import local_occurrences

from .ar_support import local_zone


def test_full_date_is_read_in_local_time() -> None:
    """CCYYMMDDhhmm.SS names that wall-clock time in the caller's zone."""
    with local_zone("Europe/Berlin"):
        epoch = date_time_epoch("202601011000.30", 2026)
    assert epoch == calendar.timegm((2026, 1, 1, 9, 0, 30))


def test_no_year_means_the_current_year() -> None:
    """MMDDhhmm takes the year given as current, even when that date has passed."""
    with local_zone("UTC"):
        assert date_time_epoch("01021200", 2031) == calendar.timegm((2031, 1, 2, 12, 0, 0))


@pytest.mark.parametrize(
    ("text", "year"),
    [("6901021200", 2069), ("7001021200", 1970), ("9901021200", 1999), ("0001021200", 2000)],
)
def test_two_digit_years_pivot_at_70(text: str, year: int) -> None:
    """YY below 70 is 20YY, 70 and above 19YY."""
    with local_zone("UTC"):
        assert time.gmtime(date_time_epoch(text, 2026)).tm_year == year


def test_seconds_suffix_is_honoured() -> None:
    """.SS sets the seconds; without it they are zero."""
    with local_zone("UTC"):
        assert date_time_epoch("01021200.45", 2026) - date_time_epoch("01021200", 2026) == 45


def test_new_york_spring_gap_is_an_error() -> None:
    """02:30 on the day New York skips that hour does not exist and is refused."""
    with local_zone("America/New_York"), pytest.raises(ClientError) as caught:
        date_time_epoch("202503090230", 2025)
    first, second = caught.value.message.splitlines()
    assert "does not exist" in first
    assert second == 'ERROR! Wrong date/time format "202503090230" specified to -a option'


def test_berlin_spring_gap_is_an_error() -> None:
    """02:30 on the day Berlin skips that hour is refused."""
    with local_zone("Europe/Berlin"), pytest.raises(ClientError):
        date_time_epoch("202603290230", 2026)


def test_new_york_fall_overlap_takes_the_first_occurrence() -> None:
    """01:30 on the day New York repeats that hour means the earlier one (still EDT)."""
    with local_zone("America/New_York"):
        epoch = date_time_epoch("202511020130", 2025)
        assert len(local_occurrences((2025, 11, 2, 1, 30, 0))) == 2
    assert epoch == calendar.timegm((2025, 11, 2, 5, 30, 0))


def test_berlin_fall_overlap_takes_the_first_occurrence() -> None:
    """02:30 on the day Berlin repeats that hour means the earlier one (still CEST)."""
    with local_zone("Europe/Berlin"):
        epoch = date_time_epoch("202610250230", 2026)
    assert epoch == calendar.timegm((2026, 10, 25, 0, 30, 0))


def test_day_past_month_end_rolls_over_as_mktime_does() -> None:
    """April 31 is May 1: Grid Engine checks only 1-31 and lets mktime normalise."""
    with local_zone("UTC"):
        assert date_time_epoch("04310900", 2026) == calendar.timegm((2026, 5, 1, 9, 0, 0))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("13011200", "Invalid month specification."),
        ("01321200", "Invalid day specification."),
        ("01002400", "Invalid day specification."),
        ("01012400", "Invalid hour specification."),
        ("01011260", "Invalid minute specification."),
        ("123", "Invalid format of date/hour-minute field."),
        ("0101120", "Invalid format of date/hour-minute field."),
        ("01011200.5", "Invalid format of seconds field."),
        ("01011200.61", "Invalid seconds specification."),
    ],
)
def test_bad_dates_give_only_the_option_line(text: str, reason: str) -> None:
    """qrsub shows only the -a option's complaint, not the date parser's reason."""
    with pytest.raises(ClientError) as caught:
        date_time_epoch(text, 2026)
    assert reason not in caught.value.message
    assert caught.value.message == f'ERROR! Wrong date/time format "{text}" specified to -a option'


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("3600", 3600),
        ("1:0:0", 3600),
        ("1:0", 60),  # [[h:]m:]s of sge_types(1): minutes and seconds
        ("2:30", 150),
        ("1::1", 3601),
        ("::", 0),
        (":30:", 1800),
        ("0x10", 16),
        ("010", 8),
        ("1.5", 1),
        ("0.5:0:0", 1800),
        ("2k", 2000),
        ("1K", 1024),
        ("INFINITY", 2**32 - 1),
    ],
)
def test_time_values(text: str, seconds: int) -> None:
    """-d reads TIME as Grid Engine's number parser does: h:m:s, numbers, multipliers."""
    assert parse_time_value(text) == seconds


@pytest.mark.parametrize("text", ["", "1:2:3:4", "a", "-5", "09", "1:x:0", "1x", ".", "1:0:0s"])
def test_bad_time_values(text: str) -> None:
    """Anything else (two fields too: Grid Engine's parser wants h:m:s) is the -d complaint."""
    with pytest.raises(ClientError) as caught:
        parse_time_value(text)
    assert caught.value.message == f'ERROR! Wrong time format "{text}" specified to -d option'


def test_durations_show_hours_past_99() -> None:
    """HH:MM:SS keeps counting hours beyond two digits."""
    assert hms(100 * 3600 + 61) == "100:01:01"
    assert hms(59) == "00:00:59"


@given(st.text(max_size=20))
def test_date_parser_never_crashes(text: str) -> None:
    """Any text either parses or is refused with a ClientError."""
    with local_zone("America/New_York"):
        try:
            date_time_epoch(text, 2026)
        except ClientError as exc:
            message = exc.message
        else:
            return
    assert "specified to -a option" in message


@given(st.text(max_size=20))
def test_time_parser_never_crashes(text: str) -> None:
    """Any text either gives non-negative seconds or is refused with a ClientError."""
    try:
        seconds = parse_time_value(text)
    except ClientError as exc:
        assert exc.message.endswith("specified to -d option")  # noqa: PT017
        return
    assert seconds >= 0


@given(st.integers(min_value=0, max_value=4_000_000_000))
def test_printed_local_time_parses_back(epoch: int) -> None:
    """A local time printed as CCYYMMDDhhmm.SS reads back to the same wall clock.

    In a repeated hour it reads back to the first occurrence, so never later.
    """
    with local_zone("Europe/Berlin"):
        text = time.strftime("%Y%m%d%H%M.%S", time.localtime(epoch))
        back = date_time_epoch(text, 2026)
        assert time.localtime(back)[:6] == time.localtime(epoch)[:6]
    assert back <= epoch
    assert epoch - back in (0, 3600)


@pytest.mark.parametrize("text", ["1::1", "90", "1.5", "2k", "0x10", "1:30:0"])
def test_qrsub_and_the_qmaster_read_time_alike(text: str) -> None:
    """-d and a TIME complex value read the same text as the same number of seconds."""
    assert parse_time_value(text) == int(parse_time(text))
