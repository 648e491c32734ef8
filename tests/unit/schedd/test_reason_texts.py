"""Scheduling-info lines read exactly as msg_schedd.h of Grid Engine writes them."""

from __future__ import annotations

from schedd import PeState, Running, schedule
from tests.unit.schedd.helpers import global_level, host, job, queue, table, texts, view


def test_time_values_print_as_hh_mm_ss_and_numbers_as_doubles() -> None:
    """qf:h_rt=01:00:00 for a TIME limit, gc:cg=1.000000 for a number."""
    t = table("cg cg INT <= YES YES 0 0")
    q = queue(t, "all.q", "h1", 4)
    q.queue_level.values["h_rt"] = 3600.0
    jobs = [job(1, hard_resources={"h_rt": "2:0:0"}), job(2, hard_resources={"cg": "2"})]
    plan = schedule(view(t, [q], jobs, glob=global_level(t, cg="1")), 0.0)
    assert texts(plan, 1) == [
        '(-l h_rt=2:0:0) cannot run in queue "all.q@h1" because it offers only qf:h_rt=01:00:00'
    ]
    assert texts(plan, 2) == ["(-l cg=2) cannot run globally because it offers only gc:cg=1.000000"]


def test_forced_resource_names_its_place_unquoted() -> None:
    """'forced' reasons end with 'of host NAME' / 'of queue instance NAME', as Grid Engine's."""
    t = table("fh fh INT <= FORCED NO 0 0", "fq fq INT <= FORCED NO 0 0")
    h = host(t, "h1", fh="1")
    plan = schedule(view(t, [queue(t, "all.q", "h1", 4)], [job(1)], hosts=[h]), 0.0)
    assert texts(plan, 1) == ["does not request 'forced' resource \"fh\" of host h1"]
    plan = schedule(view(t, [queue(t, "all.q", "h2", 4, fq="1")], [job(2)]), 0.0)
    assert texts(plan, 2) == [
        "does not request 'forced' resource \"fq\" of queue instance all.q@h2"
    ]


def test_pe_list_line() -> None:
    """A queue with other PEs: 'cannot run in queue "Q" because PE "P" is not in pe list';
    a queue with none is not of parallel type (sge_queue_match_static())."""
    t = table()
    queues = [queue(t, "all.q", "h1", 4, pe_list="make"), queue(t, "serial.q", "h1", 4)]
    pes = [PeState("mpi", 8), PeState("make", 8)]
    plan = schedule(view(t, queues, [job(1, pe_name="mpi")], pes=pes), 0.0)
    assert texts(plan, 1) == [
        'cannot run in queue "all.q@h1" because PE "mpi" is not in pe list',
        'cannot run in queue instance "serial.q@h1" because it is not of parallel type',
    ]


def test_a_resource_held_by_a_reservation_says_so() -> None:
    """A job that would fit but for a reservation gets ' due to a reservation'."""
    t = table("lic lic INT <= YES YES 0 0")
    glob = global_level(t, lic="2")
    glob.used["lic"] = 1.0
    running = [Running((("global", "global", "lic", 1.0),), 100.0)]
    wide = job(1, hard_resources={"lic": "2", "h_rt": "100"}, reserve=True)
    long = job(2, hard_resources={"lic": "1", "h_rt": "500"})
    v = view(t, [queue(t, "all.q", "h1", 4)], [wide, long], glob=glob, running=running,
             max_reservation=1)  # fmt: skip
    plan = schedule(v, 0.0)
    assert [r.job_id for r in plan.reservations] == [1]
    assert texts(plan, 2) == [
        "(-l lic=1) cannot run globally because it offers only gc:lic=1.000000 due to a reservation"
    ]


def test_a_queue_instance_with_no_slots_says_so() -> None:
    """slots 0: 'cannot run in queue instance "Q" because it has "0" slots'."""
    t = table()
    plan = schedule(view(t, [queue(t, "all.q", "h1", 0)], [job(1)]), 0.0)
    assert texts(plan, 1) == ['cannot run in queue instance "all.q@h1" because it has "0" slots']
