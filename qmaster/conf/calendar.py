"""Calendars (calendar_conf(5)): when queues are disabled (``off``) or suspended.

A queue names a calendar in its ``calendar`` attribute. The calendar's
``year`` entries (days of the year) take precedence over its ``week`` entries
(days of the week); where neither says anything, the queue is ``on``. An entry
without a state means ``off``. Times are the local time of the qmaster host.

    calendar_name    night
    year             24.12.2026=off 1.1.2027-2.1.2027
    week             mon-fri=18-24,0-6=suspended sat-sun=off
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

from qmaster.conf import fields as f
from qmaster.conf.model import Attr, ConfObject, Format
from qmaster.conf.names import check_key
from qmaster.digits import is_digits

STATES = ("on", "off", "suspended")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
DAY = 86400
WHOLE_DAY: tuple[tuple[int, int], ...] = ((0, DAY),)
_TIME = re.compile(r"^(\d{1,2})(?::(\d{1,2}))?(?::(\d{1,2}))?$")
_LOOKAHEAD_DAYS = 400


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry: the days it covers (ordinals or weekdays), its time ranges, its state."""

    days: tuple[tuple[int, int], ...]
    times: tuple[tuple[int, int], ...]
    state: str


def _daytime(text: str, entry: str) -> int:
    m = _TIME.match(text)
    if not m:
        raise ValueError(f'invalid daytime "{text}" in "{entry}"')
    h, mi, s = (int(g or 0) for g in m.groups())
    if h > 24 or mi > 59 or s > 59 or (h == 24 and (mi or s)):
        raise ValueError(f'invalid daytime "{text}" in "{entry}"')
    return h * 3600 + mi * 60 + s


def _times(text: str, entry: str) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for item in text.split(","):
        first, dash, last = item.partition("-")
        if not dash:
            raise ValueError(f'daytime range "{item}" needs a start and an end in "{entry}"')
        a, b = _daytime(first, entry), _daytime(last, entry)
        if a == b:
            raise ValueError(f'empty daytime range "{item}" in "{entry}"')
        out.extend([(a, b)] if a < b else [(a, DAY), (0, b)])
    return tuple(out)


def _weekday(text: str, entry: str) -> int:
    if text.lower() not in WEEKDAYS:
        raise ValueError(f'invalid weekday "{text}" in "{entry}"')
    return WEEKDAYS.index(text.lower())


def _yearday(text: str, entry: str) -> int:
    parts = text.split(".")
    try:
        if len(parts) != 3:
            raise ValueError
        month = parts[1].lower()
        m = MONTHS.index(month) + 1 if month in MONTHS else int(month)
        return date(int(parts[2]), m, int(parts[0])).toordinal()
    except ValueError:
        raise ValueError(f'invalid year day "{text}" in "{entry}"') from None


def _days(text: str, entry: str, one: object) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for item in text.split(","):
        first, dash, last = item.partition("-")
        a = one(first, entry)  # type: ignore[operator]
        b = one(last, entry) if dash else a  # type: ignore[operator]
        out.append((int(a), int(b)))
    return tuple(out)


def _is_state(text: str) -> bool:
    return text.lower() in STATES


def parse_entry(text: str, weekly: bool) -> Entry:
    """One ``days[=times][=state]`` entry (a week entry may also leave out the days)."""
    parts = text.split("=")
    if len(parts) > 3 or not all(parts):
        raise ValueError(f'invalid calendar entry "{text}"')
    state = "off"
    if _is_state(parts[-1]):
        state = parts.pop().lower()
    day_of = _weekday if weekly else _yearday
    days: tuple[tuple[int, int], ...] = ()
    times = WHOLE_DAY
    if parts and not (weekly and is_digits(parts[0][:1])):
        days = _days(parts.pop(0), text, day_of)
    if parts:
        times = _times(parts.pop(0), text)
    if parts or (not weekly and not days):
        raise ValueError(f'invalid calendar entry "{text}"')
    return Entry(days or ((0, 6),), times, state)


def parse_entries(text: str, weekly: bool) -> tuple[Entry, ...]:
    """The entries of a ``year`` or ``week`` value (``NONE``: none)."""
    if f.is_none(text):
        return ()
    return tuple(parse_entry(item, weekly) for item in text.split())


def _check_year(text: str) -> None:
    parse_entries(text, weekly=False)


def _check_week(text: str) -> None:
    parse_entries(text, weekly=True)


CALENDAR_FORMAT = Format(
    kind="calendar",
    attrs=(
        Attr("calendar_name", None, check_key("calendar")),
        Attr("year", "NONE", _check_year),
        Attr("week", "NONE", _check_week),
    ),
    column=17,
)


class CalendarConf(ConfObject):
    """A calendar; queues name it in ``calendar``."""

    FORMAT = CALENDAR_FORMAT

    def entries(self) -> tuple[tuple[Entry, ...], tuple[Entry, ...]]:
        """The year entries and the week entries (parsed once per text)."""
        return _entries(self.attrs["year"], self.attrs["week"])


@lru_cache(maxsize=256)
def _entries(year: str, week: str) -> tuple[tuple[Entry, ...], tuple[Entry, ...]]:
    return parse_entries(year, weekly=False), parse_entries(week, weekly=True)


def queues_using(cqueues: Mapping[str, ConfObject], name: str) -> list[str]:
    """The cluster queues whose ``calendar`` (or a host's value of it) names ``name``."""
    found = []
    for qname, queue in sorted(cqueues.items()):
        if "calendar" in queue.FORMAT.host_overrides:
            hv = queue.host_values("calendar")
            values = [hv.default, *hv.overrides.values()]
        else:
            values = [queue.attrs["calendar"]]
        if name in values:
            found.append(qname)
    return found


def _covers(days: tuple[tuple[int, int], ...], value: int, cycle: int | None) -> bool:
    for a, b in days:
        if a <= b and a <= value <= b:
            return True
        if cycle is not None and a > b and (value >= a or value <= b):
            return True
    return False


def _match(entries: tuple[Entry, ...], day: int, second: int, cycle: int | None) -> str | None:
    for e in entries:
        if _covers(e.days, day, cycle) and any(a <= second < b for a, b in e.times):
            return e.state
    return None


def state_at(cal: CalendarConf, moment: datetime) -> str:
    """``on``, ``off`` or ``suspended`` at a local time."""
    year, week = cal.entries()
    second = moment.hour * 3600 + moment.minute * 60 + moment.second
    found = _match(year, moment.toordinal(), second, None)
    if found is None:
        found = _match(week, moment.weekday(), second, 7)
    return found or "on"


def _boundaries(cal: CalendarConf) -> list[int]:
    year, week = cal.entries()
    marks = {0}
    for e in year + week:
        for a, b in e.times:
            marks.update((a, b % DAY))
    return sorted(marks)


def next_change(cal: CalendarConf, moment: datetime) -> datetime | None:
    """The first local time after ``moment`` at which the calendar's state changes."""
    now_state = state_at(cal, moment)
    marks = _boundaries(cal)
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    for d in range(_LOOKAHEAD_DAYS):
        day = midnight + timedelta(days=d)
        for mark in marks:
            at = day + timedelta(seconds=mark)
            if at > moment and state_at(cal, at) != now_state:
                return at
    return None
