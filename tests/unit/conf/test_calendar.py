"""Calendars (calendar_conf(5)): parsing, the state at a time, the next change."""

from __future__ import annotations

from datetime import datetime

import pytest

from qmaster.conf.calendar import CalendarConf, next_change, state_at
from qmaster.conf.errors import ConfigError


def cal(year: str = "NONE", week: str = "NONE") -> CalendarConf:
    return CalendarConf.parse(f"calendar_name c\nyear {year}\nweek {week}\n")


MON_NOON = datetime(2026, 11, 23, 12, 0)  # a Monday


def test_week_entries_give_the_state_by_day_and_hour() -> None:
    """mon-fri=18-24,0-6=suspended: a weekday evening is suspended, noon is on."""
    c = cal(week="mon-fri=18-24,0-6=suspended sat-sun=off")
    assert state_at(c, MON_NOON) == "on"
    assert state_at(c, MON_NOON.replace(hour=19)) == "suspended"
    assert state_at(c, datetime(2026, 11, 28, 12)) == "off"


def test_an_entry_without_state_means_off() -> None:
    """An entry that names no state disables the queue (calendar_conf(5))."""
    assert state_at(cal(week="mon"), MON_NOON) == "off"
    assert state_at(cal(week="8-17"), MON_NOON) == "off"
    assert state_at(cal(week="8-17"), MON_NOON.replace(hour=18)) == "on"


def test_year_entries_take_precedence_over_week_entries() -> None:
    """A holiday in ``year`` beats the working-day ``week`` entry."""
    c = cal(year="23.11.2026=on", week="mon-fri=off")
    assert state_at(c, MON_NOON) == "on"
    assert state_at(c, datetime(2026, 11, 24, 12)) == "off"
    assert state_at(cal(year="1.dec.2026-3.12.2026=suspended"), datetime(2026, 12, 2, 1)) == (
        "suspended"
    )


def test_weekday_ranges_may_wrap_over_the_week_end() -> None:
    """fri-mon covers saturday and sunday."""
    c = cal(week="fri-mon=off")
    assert state_at(c, datetime(2026, 11, 29, 12)) == "off"
    assert state_at(c, datetime(2026, 11, 25, 12)) == "on"


def test_next_change_is_the_first_boundary_with_another_state() -> None:
    """From Monday noon, an evening suspension starts at 18:00 and ends at 6:00."""
    c = cal(week="mon-fri=18-24,0-6=suspended")
    assert next_change(c, MON_NOON) == MON_NOON.replace(hour=18)
    assert next_change(c, MON_NOON.replace(hour=19)) == datetime(2026, 11, 24, 6)
    assert next_change(cal(), MON_NOON) is None


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("week", "funday=off", 'invalid weekday "funday"'),
        ("week", "mon=25-26", 'invalid daytime "25"'),
        ("week", "mon=8=17=off", 'invalid calendar entry "mon=8=17=off"'),
        ("year", "31.02.2026=off", 'invalid year day "31.02.2026"'),
        ("year", "8-17=off", "invalid"),
    ],
)
def test_bad_entries_are_refused_with_the_reason(key: str, value: str, reason: str) -> None:
    """A calendar with a bad entry does not load, and says which entry."""
    with pytest.raises(ConfigError) as info:
        cal(**{key: value})
    assert reason in str(info.value)
