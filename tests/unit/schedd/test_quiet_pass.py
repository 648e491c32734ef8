"""A pass without job info (``schedd_job_info false``) places the same jobs as one with it.

Without job info the pass collects no reasons and refuses a parallel job wider than
the free slots of all hosts together before offering it every queue instance; with
reservations, a host whose slots a reservation holds counts what the planner leaves it over
the job's run instead of its free slots.
"""

from __future__ import annotations

from schedd import PeState, Running, View, schedule
from tests.unit.schedd.helpers import host, job, placed, queue, table, texts, view


def cell(job_info: bool, wide: int) -> View:
    """Three hosts of 4 slots, each with two queue instances of 4; host h1 has 3 busy."""
    t = table()
    hosts = [host(t, f"h{i}", slots="4") for i in (1, 2, 3)]
    hosts[0].level.used["slots"] = 3.0
    qs = [queue(t, cq, f"h{i}", 4, pe_list="pe") for i in (1, 2, 3) for cq in ("a.q", "b.q")]
    qs[0].queue_level.used["slots"] = 3.0
    jobs = [
        job(1, pe_name="pe", pe_min=wide, pe_max=wide),
        job(2, pe_name="pe", pe_min=5, pe_max=5),
        job(3),
    ]
    return view(t, qs, jobs, hosts, pes=[PeState("pe", 100, "$fill_up")], job_info=job_info)


def test_a_job_wider_than_the_free_slots_waits_and_the_rest_run_as_with_job_info() -> None:
    """10 slots wanted, 9 free: it waits either way; the 5-slot and serial jobs run alike."""
    quiet, told = schedule(cell(False, 10), 0.0), schedule(cell(True, 10), 0.0)
    assert placed(quiet) == placed(told)
    assert set(placed(quiet)) == {2, 3}
    assert texts(quiet, 1) == []
    assert any(t.startswith('cannot run in PE "pe" because it only offers') for t in texts(told, 1))


def test_a_job_as_wide_as_the_free_slots_still_runs() -> None:
    """9 slots wanted, 9 free on the hosts: the bound lets it through to the allocation."""
    quiet, told = schedule(cell(False, 9), 0.0), schedule(cell(True, 9), 0.0)
    assert placed(quiet) == placed(told)
    assert sum(n for _, n in placed(quiet)[1]) == 9


def reserving(job_info: bool, h1_known: float) -> View:
    """Hosts h1, h2 of 4 slots, both full (h1's queue instance has 2 of its 4 busy: the
    other 2 run elsewhere); the planner knows ``h1_known`` of h1's busy slots (until 100)
    and h2's 4 (until 200). A -R y job of 8 slots, then serial -R y jobs of 50 s (one
    reservation: the 8-slot job's)."""
    t = table()
    hosts = [host(t, f"h{i}", slots="4") for i in (1, 2)]
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2)]
    hosts[0].level.used["slots"] = hosts[1].level.used["slots"] = 4.0
    qs[0].queue_level.used["slots"], qs[1].queue_level.used["slots"] = 2.0, 4.0
    running = [
        Running((("host", "h1", "slots", h1_known), ("queue", "all.q@h1", "slots", 2.0)), 100.0),
        Running((("host", "h2", "slots", 4.0), ("queue", "all.q@h2", "slots", 4.0)), 200.0),
    ]
    short = {"h_rt": "50"}
    jobs = [
        job(1, pe_name="pe", pe_min=8, pe_max=8, reserve=True, hard_resources={"h_rt": "300"}),
        *(job(i, reserve=True, hard_resources=short) for i in (2, 3)),
    ]
    return view(t, qs, jobs, hosts, pes=[PeState("pe", 100, "$fill_up")], running=running,
                max_reservation=1, job_info=job_info)  # fmt: skip


def test_with_reservations_a_job_wider_than_the_free_slots_waits_as_with_job_info() -> None:
    """No free slot: the reservation is made alike, and the serial jobs wait either way."""
    quiet, told = schedule(reserving(False, 4.0), 0.0), schedule(reserving(True, 4.0), 0.0)
    assert placed(quiet) == placed(told) == {}
    assert [(r.job_id, r.start) for r in quiet.reservations] == [(1, 200.0)]
    assert quiet.reservations == told.reservations


def test_a_planner_that_counts_less_than_the_host_uses_is_walked_as_with_job_info() -> None:
    """The planner knows only 2 of h1's busy slots: where a reservation holds them it offers
    the other 2, so the serial jobs are placed by the walk, not refused for the free slots."""
    quiet, told = schedule(reserving(False, 2.0), 0.0), schedule(reserving(True, 2.0), 0.0)
    assert placed(quiet) == placed(told)
    assert set(placed(quiet)) == {2, 3}


def holes(job_info: bool) -> View:
    """Hosts h1, h2 of 2 slots; h1's busy until 100. A -R y job of 4 slots gets both hosts
    from 100; h2's 2 free slots are left to jobs that end by then."""
    t = table()
    hosts = [host(t, f"h{i}", slots="2") for i in (1, 2)]
    qs = [queue(t, "all.q", f"h{i}", 2, pe_list="pe") for i in (1, 2)]
    hosts[0].level.used["slots"] = qs[0].queue_level.used["slots"] = 2.0
    running = [Running((("host", "h1", "slots", 2.0), ("queue", "all.q@h1", "slots", 2.0)), 100.0)]
    jobs = [
        job(1, pe_name="pe", pe_min=4, pe_max=4, reserve=True, hard_resources={"h_rt": "100"}),
        *(job(i, reserve=True, hard_resources={"h_rt": rt}) for i, rt in
          ((2, "500"), (3, "500"), (4, "101"), (5, "100"), (6, "100"), (7, "100"))),
    ]  # fmt: skip
    return view(t, qs, jobs, hosts, pes=[PeState("pe", 100, "$fill_up")], running=running,
                max_reservation=1, job_info=job_info)  # fmt: skip


def test_jobs_too_long_for_the_free_slots_a_reservation_holds_wait_as_with_job_info() -> None:
    """The 500 s and 101 s jobs would delay the reservation; two of the 100 s jobs backfill."""
    quiet, told = schedule(holes(False), 0.0), schedule(holes(True), 0.0)
    assert placed(quiet) == placed(told)
    assert sorted(placed(quiet)) == [5, 6]
    assert quiet.reservations == told.reservations


def test_a_fill_up_reservation_stops_offering_where_the_told_pass_does_not() -> None:
    """Four hosts of two 2-slot queue instances, all busy; h1, h2 and h4 free at 100. A
    quiet pass offers a 6-slot $fill_up reservation the instances in order only until h1
    and h2 give enough; the told pass offers all: the same reservation."""

    def busy(job_info: bool) -> View:
        t = table()
        hosts = [host(t, f"h{i}", slots="4") for i in (1, 2, 3, 4)]
        qs = [queue(t, cq, f"h{i}", 2, pe_list="pe") for i in (1, 2, 3, 4) for cq in ("a.q", "b.q")]
        running = []
        for h in hosts:
            h.level.used["slots"] = 4.0
            end = 200.0 if h.level.name == "h3" else 100.0
            running.append(Running((("host", h.level.name, "slots", 4.0),), end))
        for q in qs:
            q.queue_level.used["slots"] = 2.0
            end = 200.0 if q.host == "h3" else 100.0
            running.append(Running((("queue", q.name, "slots", 2.0),), end))
        wide = job(1, pe_name="pe", pe_min=6, pe_max=6, reserve=True, hard_resources={"h_rt": "50"})
        return view(t, qs, [wide], hosts, pes=[PeState("pe", 100, "$fill_up")], running=running,
                    max_reservation=1, job_info=job_info)  # fmt: skip

    quiet, told = schedule(busy(False), 0.0), schedule(busy(True), 0.0)
    assert [(r.start, r.assignment) for r in quiet.reservations] == [
        (100.0, (("a.q@h1", 2), ("a.q@h2", 2), ("b.q@h1", 2)))
    ]
    assert quiet.reservations == told.reservations


def full(job_info: bool) -> View:
    """A host of 2 slots, both busy, with a queue instance of 4 (2 free there); a serial
    job, then one asking for no slot (``-l slots=0``), then another serial one."""
    t = table()
    hosts = [host(t, "h1", slots="2")]
    qs = [queue(t, "all.q", "h1", 4)]
    hosts[0].level.used["slots"] = qs[0].queue_level.used["slots"] = 2.0
    jobs = [job(1), job(2, hard_resources={"slots": "0"}), job(3)]
    return view(t, qs, jobs, hosts, job_info=job_info)


def test_a_full_cell_still_starts_a_job_that_asks_for_no_slot() -> None:
    """No free slot: a quiet pass may end its walk only where no later job could start; the
    job asking for no slot still starts, as with job info."""
    quiet, told = schedule(full(False), 0.0), schedule(full(True), 0.0)
    assert placed(quiet) == placed(told)
    assert set(placed(quiet)) == {2}
