"""Allocation rules of parallel environments, and reservation with backfilling."""

from __future__ import annotations

import pytest

from schedd import PeState, Running, schedule
from tests.unit.schedd.helpers import global_level, job, placed, queue, table, view


@pytest.mark.parametrize(
    ("rule", "slots", "expected"),
    [
        ("$fill_up", 5, {"all.q@h1": 4, "all.q@h2": 1}),
        ("$round_robin", 5, {"all.q@h1": 2, "all.q@h2": 2, "all.q@h3": 1}),
        ("$pe_slots", 3, {"all.q@h1": 3}),
        ("2", 4, {"all.q@h1": 2, "all.q@h2": 2}),
    ],
)
def test_allocation_rules_spread_slots(rule: str, slots: int, expected: dict[str, int]) -> None:
    """Each allocation rule spreads a job's slots over hosts as sge_pe(5) describes."""
    t = table()
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2, 3)]
    j = job(1, pe_name="pe", pe_min=slots, pe_max=slots)
    plan = schedule(view(t, qs, [j], pes=[PeState("pe", 100, rule)]), 0.0)
    assert dict(placed(plan)[1]) == expected


def test_pe_slot_limit_and_range_take_the_most_that_fits() -> None:
    """-pe pe 2-8 with a PE of 6 slots gets 6; a second job finds the PE exhausted."""
    t = table()
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2, 3)]
    jobs = [job(1, pe_name="pe", pe_min=2, pe_max=8), job(2, pe_name="pe", pe_min=2, pe_max=2)]
    plan = schedule(view(t, qs, jobs, pes=[PeState("pe", 6, "$fill_up")]), 0.0)
    assert sum(n for _, n in placed(plan)[1]) == 6
    assert 'cannot run in PE "pe" because it only offers 0 slots' in [
        r.text for r in plan.reasons[2]
    ]


def _busy_cell(max_reservation: int):  # type: ignore[no-untyped-def]
    t = table()
    qs = [queue(t, "all.q", f"h{i}", 2, pe_list="pe") for i in (1, 2)]
    qs[0].queue_level.used["slots"] = 2.0
    running = [Running((("queue", "all.q@h1", "slots", 2.0),), 100.0)]
    big = job(1, pe_name="pe", pe_min=4, pe_max=4, reserve=True, hard_resources={"h_rt": "100"})
    long_small = job(2, hard_resources={"h_rt": "500"})
    short_small = job(3, hard_resources={"h_rt": "50"})
    return view(t, qs, [big, long_small, short_small], pes=[PeState("pe", 10, "$fill_up")],
                running=running, max_reservation=max_reservation)  # fmt: skip


def test_reservation_holds_resources_and_short_jobs_backfill() -> None:
    """A -R y job gets a reservation at t=100; a 500s job may not delay it, a 50s job may run."""
    plan = schedule(_busy_cell(1), 0.0)
    assert [(r.job_id, r.start) for r in plan.reservations] == [(1, 100.0)]
    assert sorted(placed(plan)) == [3]


def test_without_reservation_the_small_jobs_take_the_free_slots() -> None:
    """With max_reservation 0 the big job reserves nothing and both small jobs start."""
    plan = schedule(_busy_cell(0), 0.0)
    assert plan.reservations == []
    assert sorted(placed(plan)) == [2, 3]


def test_a_reservation_holds_the_pe_slots_it_needs() -> None:
    """PE slots are part of a reservation: a long PE job behind a reserved wide one waits."""
    t = table()
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2)]
    qs[0].queue_level.used["slots"] = 2.0
    running = [Running((("queue", "all.q@h1", "slots", 2.0), ("pe", "pe", "slots", 2.0)), 100.0)]
    wide = job(1, pe_name="pe", pe_min=4, pe_max=4, reserve=True, hard_resources={"h_rt": "100"})
    long_pe = job(2, pe_name="pe", pe_min=2, pe_max=2, hard_resources={"h_rt": "500"})
    short_pe = job(3, pe_name="pe", pe_min=2, pe_max=2, hard_resources={"h_rt": "50"})
    pes = [PeState("pe", 4, "$fill_up", used=2)]
    v = view(t, qs, [wide, long_pe, short_pe], pes=pes, running=running, max_reservation=1)
    plan = schedule(v, 0.0)
    assert [(r.job_id, r.start) for r in plan.reservations] == [(1, 100.0)]
    assert sorted(placed(plan)) == [3]
    assert 'cannot run in PE "pe" because it only offers 0 slots' in [
        r.text for r in plan.reasons[2]
    ]


def _array_behind_a_license_holder(max_reservation: int):  # type: ignore[no-untyped-def]
    t = table("license lic INT <= YES YES 0 0")
    glob = global_level(t, license="4")
    glob.used["license"] = 3.0
    running = [Running((("global", "global", "license", 3.0),), 100.0)]
    array = job(1, task_ids=[1, 2], reserve=True, hard_resources={"h_rt": "100", "license": "2"})
    long_one = job(2, reserve=True, hard_resources={"h_rt": "500", "license": "1"})
    qs = [queue(t, "all.q", "h1", 10)]
    return view(t, qs, [array, long_one], glob=glob, running=running,
                max_reservation=max_reservation)  # fmt: skip


def test_each_pending_task_of_an_array_job_gets_a_reservation() -> None:
    """resource_reservation's array case: both tasks of a -R y array job reserve their
    licenses at t=100 (Grid Engine keeps the job pending while it has more tasks and
    reservations are left), so a long 1-license job may not start before them."""
    plan = schedule(_array_behind_a_license_holder(10), 0.0)
    assert [(r.job_id, r.task_id, r.start) for r in plan.reservations[:2]] == [
        (1, 1, 100.0),
        (1, 2, 100.0),
    ]
    assert placed(plan) == {}


def test_max_reservation_counts_the_tasks_of_an_array_job() -> None:
    """With max_reservation 1 only the first task reserves; the long job then fits."""
    plan = schedule(_array_behind_a_license_holder(1), 0.0)
    assert [(r.job_id, r.task_id) for r in plan.reservations] == [(1, 1)]
    assert sorted(placed(plan)) == [2]
