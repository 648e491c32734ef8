"""The Job State Monitor's registry, cache and datum, fed lines directly (no seg process)."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path

import pytest

from qmaster.events.seg import Cursor
from qmaster.jsm import AlreadyRegisteredError, JobStateMonitor, NotRegisteredError, load_datum

Call = tuple[Hashable, int, int, int]


class Clock:
    """A hand-driven monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def calls() -> list[Call]:
    """What the listener received."""
    return []


@pytest.fixture
def clock() -> Clock:
    """The monitor's clock."""
    return Clock()


def monitor(tmp_path: Path, calls: list[Call], clock: Clock) -> JobStateMonitor:
    """A monitor that is never started: lines are fed by hand."""
    return JobStateMonitor(
        ["seg"], tmp_path / "datum", lambda *a: calls.append(a), cache_ttl=60, clock=clock
    )


def test_registered_job_events_reach_the_listener_with_its_key(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """An event for a registered id is delivered with that id's key."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.register("42", "mjr-a")
    jsm.handle_line("001;100;42;2;0;100.1\n")
    jsm.handle_line("001;101;43;2;0;101.1\n")
    assert calls == [("mjr-a", 100, 2, 0)]


def test_double_registration_and_unknown_unregistration_fail(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """Registering an id twice or unregistering an unknown id raises."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.register("42", "a")
    with pytest.raises(AlreadyRegisteredError):
        jsm.register("42", "b")
    jsm.unregister("42")
    with pytest.raises(NotRegisteredError):
        jsm.unregister("42")


def test_unregistered_job_gets_no_more_events(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """After unregister, the listener hears nothing about the job."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.register("42", "a")
    jsm.unregister("42")
    jsm.handle_line("001;100;42;8;0;100.1")
    assert calls == []


def test_registering_after_events_replays_the_cache(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """Events that came before registration are delivered, in order, on registration."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.handle_line("001;100;42;1;0;100.1")
    jsm.handle_line("001;101;42;2;0;101.1")
    assert calls == []
    jsm.register("42", "k")
    assert calls == [("k", 100, 1, 0), ("k", 101, 2, 0)]
    assert jsm.cached("42") == []


def test_unclaimed_events_expire(tmp_path: Path, calls: list[Call], clock: Clock) -> None:
    """Cached events older than cache_ttl are dropped and never delivered."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.handle_line("001;100;42;1;0;100.1")
    clock.now += 30
    jsm.handle_line("001;130;42;2;0;130.1")
    clock.now += 40
    assert jsm.expire() == 1
    jsm.register("42", "k")
    assert calls == [("k", 130, 2, 0)]


def test_datum_is_just_before_the_oldest_unclaimed_event(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """The persisted datum replays the oldest cached event; with none, it follows the last."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.register("1", "k")
    jsm.handle_line("001;100;1;2;0;100.1")
    assert load_datum(tmp_path / "datum") == Cursor(100, 1)
    jsm.handle_line("001;100;7;2;0;100.2")
    jsm.handle_line("001;105;1;8;0;105.1")
    assert load_datum(tmp_path / "datum") == Cursor(100, 1)
    jsm.register("7", "j")
    assert load_datum(tmp_path / "datum") == Cursor(105, 1)


def test_restarted_monitor_recovers_its_datum(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """A new monitor on the same datum file asks seg to replay from the saved cursor."""
    first = monitor(tmp_path, calls, clock)
    first.handle_line("001;100;9;1;0;100.4")
    second = monitor(tmp_path, calls, clock)
    assert second.datum == Cursor(100, 3)
    assert second._command()[-2:] == ["-t", "100.3"]


def test_replayed_events_are_not_delivered_twice(
    tmp_path: Path, calls: list[Call], clock: Clock
) -> None:
    """After a seg restart, events at or before the last handled cursor are dropped."""
    jsm = monitor(tmp_path, calls, clock)
    jsm.register("1", "k")
    jsm.handle_line("001;100;1;1;0;100.1")
    jsm.handle_line("001;100;1;2;0;100.2")
    jsm.handle_line("001;100;1;2;0;100.2")
    jsm.handle_line("001;101;1;8;0;101.1")
    assert calls == [("k", 100, 1, 0), ("k", 100, 2, 0), ("k", 101, 8, 0)]


def test_failing_listener_does_not_stop_the_monitor(tmp_path: Path, clock: Clock) -> None:
    """An exception in the listener is logged and later events still arrive."""
    seen: list[int] = []

    def listener(key: Hashable, ts: int, state: int, code: int) -> None:
        seen.append(state)
        if state == 1:
            raise RuntimeError("boom")

    jsm = JobStateMonitor(["seg"], tmp_path / "datum", listener, clock=clock)
    jsm.register("1", "k")
    jsm.handle_line("001;100;1;1;0;100.1")
    jsm.handle_line("001;101;1;2;0;101.1")
    assert seen == [1, 2]
