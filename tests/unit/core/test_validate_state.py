"""validate_state: a consistent core passes; each kind of corruption is named."""

from __future__ import annotations

import heapq

import pytest

from qmaster.core import Core
from qmaster.core.jobs import Task
from qmaster.core.outcome import SpoolDelta
from qmaster.core.spool_image import SpoolImage
from qmaster.core.states import TaskState
from qmaster.core.taskids import TaskIds
from qmaster.core.validate import CHECKS, InvalidState, problems
from tests.unit.ar.helpers import HOUR, ar_core, qrsub
from tests.unit.core.helpers import ALICE, T0, make_core, run_until, submit

pytestmark = pytest.mark.no_validate_state  # these tests corrupt cores on purpose


def _running_core() -> tuple[Core, SpoolImage]:
    core = make_core()
    image = SpoolImage.of_core(core)
    image.apply(submit(core, ALICE, T0, CMDARGS=["100"], t_min=1, t_max=3).spool)
    for out in run_until(core, T0 + 1):
        image.apply(out.spool)
    return core, image


def _problems_of(core: Core, image: SpoolImage | None = None) -> list[str]:
    return problems(core, image)


def test_a_consistent_core_with_running_tasks_passes() -> None:
    """A core driven only through handle and tick has no problems, spool included."""
    core, image = _running_core()
    assert _problems_of(core, image) == []
    core.validate_state(image)


def test_a_lost_booking_is_named() -> None:
    """A running task whose booking was dropped shows up as booking nothing."""
    core, _ = _running_core()
    core.booked.release((1, 1))
    found = _problems_of(core)
    assert "bookings: task 1.1 is r and books nothing" in found
    with pytest.raises(InvalidState, match="books nothing"):
        core.validate_state()


def test_a_level_total_out_of_step_is_named() -> None:
    """The per-level totals must be the sum of the tasks' bookings."""
    core, _ = _running_core()
    qi = str(core.jobs[1].tasks[1].queue)
    core.booked.used[("queue", qi)]["slots"] += 1
    assert any("booked slots at ('queue'" in p for p in _problems_of(core))


def test_running_slots_out_of_step_are_named() -> None:
    """The slots kept per host for the load model must be those its running tasks hold."""
    core, _ = _running_core()
    host = str(core.jobs[1].tasks[1].queue).partition("@")[2]
    assert core.booked.running[host] >= 1
    core.booked.running[host] += 1
    assert any(p.startswith(f"bookings: running slots on {host}: kept") for p in _problems_of(core))


def test_a_task_both_pending_and_known_is_named() -> None:
    """A task id may not be pending and have a task object at once."""
    core, _ = _running_core()
    job = core.jobs[1]
    job.pending.add(1)
    assert "pending sets: job 1: tasks [1] are pending and have a task object" in _problems_of(core)


def test_a_running_task_without_its_end_timer_is_named() -> None:
    """A running task must have an end timer at or before its planned end."""
    core, _ = _running_core()
    core._timers = [t for t in core._timers if (t.job_id, t.task_id) != (1, 2)]
    heapq.heapify(core._timers)
    assert any("task 1.2 runs with no end timer" in p for p in _problems_of(core))


def test_a_start_time_without_its_timer_is_named() -> None:
    """A job waiting for its -a time must have the timer that wakes it."""
    core = make_core()
    submit(core, ALICE, T0, a="203001010000.00")
    core._timers.clear()
    assert any("waits for its start time" in p for p in _problems_of(core))


def test_a_finished_job_left_in_memory_is_named() -> None:
    """A job whose tasks have all finished must be gone."""
    core = make_core()
    submit(core, ALICE, T0)
    job = core.jobs[1]
    job.pending = TaskIds()
    job.tasks[0] = Task(0, TaskState.FINISHED, end_time=T0)
    assert any("every task has finished" in p for p in _problems_of(core))


def test_a_row_changed_after_it_was_spooled_is_named() -> None:
    """Memory changed without a spool write shows up as a differing row."""
    core, image = _running_core()
    core.jobs[1].tasks[1].exit_status = 3
    assert "spool: task (1, 1): spooled row differs from memory in ['exit_status']" in (
        _problems_of(core, image)
    )
    image.apply(SpoolDelta(jobs={1: None}))
    assert "spool: job 1: in memory, not spooled" in _problems_of(core, image)


def test_an_ar_booking_out_of_step_is_named() -> None:
    """A running AR books what it reserved minus what its jobs hold."""
    core = ar_core()
    qrsub(core, a=T0 + 60, d=HOUR)
    run_until(core, T0 + 61)
    core.booked.release((-1, 0))
    assert any("advance reservation 1 (r) books {}" in p for p in _problems_of(core))


def test_a_hold_bit_out_of_step_with_the_spec_is_named() -> None:
    """The spec's h (what a JSV sees) follows the user hold."""
    core = make_core()
    submit(core, ALICE, T0, h=True)
    core.jobs[1].holds = {}
    assert any("user hold False" in p for p in _problems_of(core))


def test_a_new_check_is_one_entry_in_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check registered in CHECKS runs with the others, its problems named after it."""
    monkeypatch.setitem(CHECKS, "extra", lambda core: ["something is off"])
    assert _problems_of(make_core()) == ["extra: something is off"]
