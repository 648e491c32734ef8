"""A pass without job info (``schedd_job_info false``) places the same jobs as one with it.

Without job info the pass collects no reasons and refuses a parallel job wider than
the free slots of all hosts together before offering it every queue instance.
"""

from __future__ import annotations

from schedd import PeState, View, schedule
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
