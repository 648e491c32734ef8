"""The acceptance examples E1 and E2 of the complex attribute specification."""

from __future__ import annotations

from schedd import PeState, schedule
from tests.unit.schedd.helpers import job, placed, queue, table, view


def test_e1_fixed_value_is_per_slot_and_not_used_up() -> None:
    """E1: a 4-slot job requesting t01=10 fits q1 (5 slots, t01<=20); q1 keeps t01=20 and 1 slot."""
    t = table("t01 t01 INT <= YES NO 0 0")
    q1 = queue(t, "q1", "h1", 5, t01="20", pe_list="pe")
    j1 = job(1, pe_name="pe", pe_min=4, pe_max=4, hard_resources={"t01": "10"})
    v = view(t, [q1], [j1], pes=[PeState("pe", 100, "$fill_up")])
    plan = schedule(v, 0.0)
    assert placed(plan) == {1: (("q1@h1", 4),)}
    assert q1.free == 1
    assert q1.queue_level.values["t01"] == 20.0
    assert "t01" not in q1.queue_level.used


def test_e1_a_request_above_the_fixed_value_never_fits() -> None:
    """E1: t01 allows requests between 0 and 20; a request of 21 cannot run there."""
    t = table("t01 t01 INT <= YES NO 0 0")
    q1 = queue(t, "q1", "h1", 5, t01="20")
    plan = schedule(view(t, [q1], [job(1, hard_resources={"t01": "21"})]), 0.0)
    assert plan.orders == []
    assert plan.reasons[1][0].text == (
        '(-l t01=21) cannot run in queue "q1@h1" because it offers only qf:t01=20.000000'
    )


def test_e2_consumable_is_booked_per_slot_across_queues() -> None:
    """E2: t02=20 x 4 slots spreads 2 on q2, 1 on q3, 1 on q4 and books 20 per slot."""
    t = table("t02 t02 INT <= YES YES 0 0")
    q2 = queue(t, "q2", "h2", 5, t02="40", pe_list="pe")
    q3 = queue(t, "q3", "h3", 1, t02="40", pe_list="pe")
    q4 = queue(t, "q4", "h4", 3, t02="40", pe_list="pe")
    j2 = job(2, pe_name="pe", pe_min=4, pe_max=4, hard_resources={"t02": "20"})
    v = view(t, [q2, q3, q4], [j2], pes=[PeState("pe", 100, "$fill_up")])
    plan = schedule(v, 0.0)
    assert dict(placed(plan)[2]) == {"q2@h2": 2, "q3@h3": 1, "q4@h4": 1}
    left = {q.cqueue: (q.free, q.queue_level.available("t02")) for q in (q2, q3, q4)}
    assert left == {"q2": (3, 0.0), "q3": (0, 20.0), "q4": (2, 20.0)}


def test_e2_debits_name_every_level_and_amount() -> None:
    """E2: the order carries the per-queue bookings the core will book and release."""
    t = table("t02 t02 INT <= YES YES 0 0")
    q2 = queue(t, "q2", "h2", 5, t02="40", pe_list="pe")
    j2 = job(2, pe_name="pe", pe_min=2, pe_max=2, hard_resources={"t02": "20"})
    plan = schedule(view(t, [q2], [j2], pes=[PeState("pe", 100, "$fill_up")]), 0.0)
    assert set(plan.orders[0].debits) == {
        ("queue", "q2@h2", "t02", 40.0),
        ("queue", "q2@h2", "slots", 2.0),
        ("pe", "pe", "slots", 2.0),
    }
