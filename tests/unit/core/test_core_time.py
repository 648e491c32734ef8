"""The core's time only moves forward; a new core has nothing to do until told the time."""

from __future__ import annotations

import pytest

from qmaster.clock import VirtualClock
from qmaster.core import Core
from qmaster.core.machine import ClockWentBackwards
from qmaster.ticker import SteadyClock
from tests.unit.core.core_snapshot import snapshot
from tests.unit.core.helpers import ALICE, T0, make_core, request, states, submit


def test_a_new_core_has_no_deadline_until_it_learns_the_time() -> None:
    """A fresh core asks for no tick; its first stimulus starts the scheduling passes."""
    core = make_core()
    assert core.next_deadline() is None
    submit(core, ALICE, T0 + 5, CMDARGS=["100"])
    assert core.next_deadline() == T0 + 5
    core.tick(T0 + 5)
    assert states(core) == {"1": "t"}


def test_time_going_backwards_is_refused_and_changes_nothing() -> None:
    """A request or tick at an earlier time raises ClockWentBackwards; the state is as it was."""
    core = make_core()
    submit(core, ALICE, T0 + 10, CMDARGS=["100"])
    before = snapshot(core)
    with pytest.raises(ClockWentBackwards, match="time went backwards"):
        submit(core, ALICE, T0, CMDARGS=["100"])
    with pytest.raises(ClockWentBackwards):
        core.tick(T0 + 9)
    assert snapshot(core) == before
    assert core.now == T0 + 10
    request(core, ALICE, "job_list", T0 + 10)  # the same time again is fine


def test_a_recovered_core_starts_at_the_time_it_was_recovered() -> None:
    """Core.recover takes its now; a pass is due at once, and earlier times are refused."""
    core = make_core()
    again = Core.recover(core.config, core.settings, [], [], {}, T0 + 100)
    assert again.now == T0 + 100
    assert again.next_deadline() == T0 + 100
    with pytest.raises(ClockWentBackwards):
        again.tick(T0)


def test_the_daemons_clock_never_goes_back_for_the_core() -> None:
    """A wall clock stepped back hands the core its last time until the clock catches up."""
    clock = VirtualClock(T0)
    core = make_core()
    steady = SteadyClock(clock, lambda: core.now)
    core.tick(steady.now())
    clock.set(T0 - 3600)
    assert steady.now() == T0
    assert steady.behind
    core.tick(steady.now())
    clock.set(T0 + 1)
    assert steady.now() == T0 + 1
    assert not steady.behind
