"""Dispatch order follows Grid Engine's priority: POSIX priority, urgency and tickets, weighted."""

from __future__ import annotations

import pytest

from qmaster.core.holds import set_holds
from qmaster.core.taskholds import NO_HOLDS
from qmaster.core.view import build_view
from schedd import PeState, schedule
from schedd.priority import Weights, normalized, priorities
from schedd.urgency import urgency, urgency_slots
from tests.unit.core.helpers import ALICE, T0, make_core, submit
from tests.unit.schedd.helpers import job, placed, queue, table, view


def _first(weights: Weights, *jobs, now: float = 100.0) -> int:  # type: ignore[no-untyped-def]
    """The job that gets the only free slot."""
    t = table()
    qs = [queue(t, "all.q", "h1", 1, pe_list="pe")]
    v = view(t, qs, list(jobs), pes=[PeState("pe", 10, "$pe_slots")], weights=weights)
    return next(iter(placed(schedule(v, now))))


def test_normalised_values_span_zero_to_one_and_ties_are_a_half() -> None:
    """Urgency is normalised over the pending jobs (equal: 0.5); -p over its fixed range."""
    assert normalized([-10.0, 0.0, 10.0]) == [0.0, 0.5, 1.0]
    assert normalized([3.0, 3.0]) == [0.5, 0.5]
    w = Weights(priority=1.0, urgency=0.1, ticket=0.01)
    assert priorities([0, 10], [1000.0, 1000.0], [0.0, 0.0], w) == pytest.approx(
        [1024 / 2048 + 0.05 + 0.005, 1034 / 2048 + 0.05 + 0.005]
    )


def test_resource_urgency_puts_a_wider_job_first() -> None:
    """With equal -p, a job asking for more slots (urgency 1000 each) is more urgent."""
    wide = job(2, pe_name="pe", pe_min=1, pe_max=1)
    narrow = job(1)
    assert _first(Weights(), narrow, wide) == 1  # both 1 slot: the older one
    wider = job(3, pe_name="pe", pe_min=2, pe_max=2)
    t = table()
    qs = [queue(t, "all.q", "h1", 2, pe_list="pe")]
    v = view(t, qs, [job(1), wider], pes=[PeState("pe", 10, "$pe_slots")], weights=Weights())
    assert list(placed(schedule(v, 100.0))) == [3]


def test_waiting_time_outweighs_posix_priority_when_configured() -> None:
    """weight_priority 0 and weight_waiting_time > 0: the job waiting longest goes first."""
    w = Weights(priority=0.0, urgency=1.0, ticket=0.0, waiting_time=1.0)
    old, young = job(1, priority=-100, submit_time=0.0), job(2, priority=100, submit_time=50.0)
    assert _first(w, young, old) == 1
    assert _first(Weights(), young, old) == 2  # the default weights favour -p


def test_a_near_deadline_makes_a_job_urgent() -> None:
    """A job whose deadline is close goes before an older job without one."""
    assert _first(Weights(), job(1), job(2, deadline=110.0)) == 2
    assert urgency(0.0, 0.0, 200.0, 100.0, Weights(deadline=3600.0)) == pytest.approx(36.0)


@pytest.mark.parametrize(
    ("rule", "expected"), [("min", 2.0), ("max", 8.0), ("avg", 5.0), ("4", 4.0)]
)
def test_pe_urgency_slots(rule: str, expected: float) -> None:
    """urgency_slots of sge_pe(5): min, max, avg or a fixed number."""
    assert urgency_slots(rule, 2, 8) == expected


def test_the_cell_weights_come_from_the_scheduler_configuration() -> None:
    """The core hands the pass sched_conf's weights (the default cell: Grid Engine's install)."""
    core = make_core()
    assert build_view(core, T0).weights == Weights(1.0, 0.1, 0.01, 0.0, 3_600_000.0)


@pytest.mark.no_validate_state  # changes the job behind the core's back
def test_the_core_hands_the_deadline_to_the_pass() -> None:
    """A job's dl (epoch seconds) reaches the scheduler as its deadline."""
    core = make_core()
    submit(core, ALICE, h=True)
    set_holds(core.jobs[1], NO_HOLDS)
    core.jobs[1].spec = core.jobs[1].spec.changed(deadline=int(T0) + 60)
    core.jobs[1].request_memo = None
    assert [j.deadline for j in build_view(core, T0).jobs] == [T0 + 60]
