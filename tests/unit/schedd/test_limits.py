"""maxujobs, max_aj_instances, -tc and -hold_jid_ad limit what starts."""

from __future__ import annotations

import pytest

from qmaster.core.states import TaskState
from schedd import schedule
from tests.unit.core.helpers import ALICE, BOB, T0, make_core, run_until, submit
from tests.unit.schedd.helpers import job, placed, queue, table, texts, view


def _cell(*jobs, **kw):  # type: ignore[no-untyped-def]
    t = table()
    return view(t, [queue(t, "all.q", "h1", 8)], list(jobs), **kw)


def test_maxujobs_keeps_a_users_new_jobs_waiting() -> None:
    """At maxujobs, alice's new job waits with GE's reason; bob's runs; running jobs go on."""
    alice_new, bob_new = job(1, owner="alice"), job(2, owner="bob")
    alice_running = job(3, owner="alice", task_ids=[2, 3], running_tasks=1)
    v = _cell(alice_new, bob_new, alice_running, maxujobs=1, user_running={"alice": 1})
    plan = schedule(v, 0.0)
    assert sorted(placed(plan)) == [2, 3]
    assert texts(plan, 1) == ["job dropped because of user limitations"]


def test_maxujobs_counts_jobs_started_in_the_same_pass() -> None:
    """maxujobs 2: of three new jobs of one user, two start in the pass."""
    plan = schedule(_cell(job(1), job(2), job(3), maxujobs=2), 0.0)
    assert sorted(placed(plan)) == [1, 2]


def test_task_cap_limits_running_tasks_of_an_array_job() -> None:
    """max_tasks 3 with one task running: two more start, the rest wait with the reason."""
    array = job(1, task_ids=[2, 3, 4, 5], max_tasks=3, running_tasks=1)
    plan = schedule(_cell(array), 0.0)
    assert [o.task_id for o in plan.orders] == [2, 3]
    assert texts(plan, 1) == ["not all array task may be started due to 'max_aj_instances'"]


@pytest.mark.no_validate_state  # changes the job behind the core's back
def test_tc_caps_running_tasks_in_the_cell() -> None:
    """qsub -t 1-6 -tc 2: two tasks run at a time."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["10"], t_min=1, t_max=6)
    core.jobs[1].spec = core.jobs[1].spec.changed(task_concurrency=2)
    core.jobs[1].request_memo = None
    run_until(core, T0 + 1)
    active = [t for t in core.jobs[1].tasks.values() if t.state is not TaskState.FINISHED]
    assert len(active) == 2


def test_max_aj_instances_caps_running_tasks() -> None:
    """max_aj_instances 3 in the global configuration: three tasks of an array run at once."""
    core = make_core()
    core.config.global_conf.attrs["max_aj_instances"] = "3"
    core.config.global_conf.__dict__.pop("max_aj_instances", None)
    submit(core, ALICE, CMDARGS=["10"], t_min=1, t_max=6)
    run_until(core, T0 + 1)
    assert len(core.jobs[1].tasks) == 3


def test_maxujobs_in_the_cell() -> None:
    """maxujobs 1: alice's second job waits while her first runs; bob's runs."""
    core = make_core()
    core.config.sched_conf.attrs["maxujobs"] = "1"
    core.config.sched_conf.__dict__.pop("maxujobs", None)
    submit(core, ALICE, CMDARGS=["10"])
    submit(core, ALICE, CMDARGS=["10"])
    submit(core, BOB, CMDARGS=["10"])
    run_until(core, T0 + 1)
    assert sorted(j for j, job in core.jobs.items() if job.tasks) == [1, 3]
    run_until(core, T0 + 12)
    assert core.jobs[2].tasks


@pytest.mark.no_validate_state  # changes the job behind the core's back
def test_hold_jid_ad_task_waits_for_the_same_task_of_the_other_job() -> None:
    """-hold_jid_ad: task i starts only once task i of the named array job has finished."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["10"], t_min=1, t_max=2)
    submit(core, ALICE, CMDARGS=["5"], t_min=1, t_max=2)
    submit(core, ALICE, CMDARGS=["20"], N="first", t_min=3, t_max=3)
    core.jobs[2].spec = core.jobs[2].spec.changed(hold_jid_ad=["1"])
    core.jobs[2].request_memo = None
    run_until(core, T0 + 1)
    assert core.jobs[2].tasks == {}
    run_until(core, T0 + 11)
    assert sorted(core.jobs[2].tasks) == [1, 2]
