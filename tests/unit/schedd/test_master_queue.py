"""-masterq and JOB consumables steer where a parallel job's master task goes."""

from __future__ import annotations

from schedd import PeState, schedule
from tests.unit.core.helpers import ALICE, T0, make_core, run_until, submit
from tests.unit.schedd.helpers import host, job, placed, queue, table, view


def test_masterq_puts_the_master_on_the_named_queue_in_an_empty_cell() -> None:
    """qsub -pe mpi 1 -masterq all.q@host4 runs on host4 at once (it used to wait forever)."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"], pe_name="mpi", pe_min=1, pe_max=1, masterq=["all.q@host4"])
    submit(core, ALICE, CMDARGS=["50"], pe_name="mpi", pe_min=1, pe_max=1, masterq=["all.q@host2"],
           l_hard={"h_rt": "100"})  # fmt: skip
    run_until(core, T0 + 1)
    assert core.jobs[1].tasks[0].assignment == (("all.q@host4", 1),)
    assert core.jobs[2].tasks[0].assignment == (("all.q@host2", 1),)


def test_masterq_master_first_and_slaves_elsewhere() -> None:
    """-pe 6 with $fill_up and -masterq on h2: master on h2, the rest filled from h1."""
    t = table()
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2)]
    j = job(1, pe_name="pe", pe_min=6, pe_max=6, master_queues=("all.q@h2",))
    plan = schedule(view(t, qs, [j], pes=[PeState("pe", 100, "$fill_up")]), 0.0)
    assignment = placed(plan)[1]
    assert assignment[0] == ("all.q@h2", 4)
    assert dict(assignment) == {"all.q@h2": 4, "all.q@h1": 2}


def test_fill_up_tries_another_master_when_the_first_lacks_a_job_consumable() -> None:
    """A JOB consumable only h2 has: the master goes to h2 and h1 still takes slaves."""
    t = table("lic lic INT <= YES JOB 0 0")
    qs = [queue(t, "all.q", f"h{i}", 4, pe_list="pe") for i in (1, 2)]
    hosts = [host(t, "h1", lic="0"), host(t, "h2", lic="1")]
    j = job(1, pe_name="pe", pe_min=6, pe_max=6, hard_resources={"lic": "1"})
    plan = schedule(view(t, qs, [j], hosts=hosts, pes=[PeState("pe", 100, "$fill_up")]), 0.0)
    assignment = placed(plan)[1]
    assert assignment[0][0] == "all.q@h2"
    assert dict(assignment) == {"all.q@h2": 4, "all.q@h1": 2}
    assert ("host", "h2", "lic", 1.0) in plan.orders[0].debits


def test_slave_queues_need_not_define_a_job_consumable() -> None:
    """Only the master host defines the JOB consumable; slaves on other hosts are used."""
    t = table("lic lic INT <= YES JOB 0 0")
    qs = [queue(t, "all.q", f"h{i}", 2, pe_list="pe") for i in (1, 2)]
    j = job(1, pe_name="pe", pe_min=4, pe_max=4, hard_resources={"lic": "1"})
    plan = schedule(view(t, qs, [j], hosts=[host(t, "h2", lic="1")],
                         pes=[PeState("pe", 100, "$round_robin")]), 0.0)  # fmt: skip
    assignment = placed(plan)[1]
    assert assignment[0][0] == "all.q@h2"
    assert sum(n for _, n in assignment) == 4


def test_masterq_nowhere_offered_keeps_the_job_waiting_with_the_reason() -> None:
    """A master queue list no offered queue matches leaves the job pending, saying so."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4, pe_list="pe"), queue(t, "other.q", "h1", 4)]
    j = job(1, pe_name="pe", pe_min=1, pe_max=1, master_queues=("other.q",))
    plan = schedule(view(t, qs, [j], pes=[PeState("pe", 100, "$fill_up")]), 0.0)
    assert plan.orders == []
    assert any("master queue list" in r.text for r in plan.reasons[1])
