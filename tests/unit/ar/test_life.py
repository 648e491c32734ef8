"""An AR's life in time: start, end, deletion, error states, and the records it leaves."""

from __future__ import annotations

import pytest

from qmaster.events.records import Acct
from tests.unit.ar.helpers import HOUR, ar_core, ar_state, modify_queue, qrsub, report_kinds
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, request, run_until, states, submit, texts


def test_waits_runs_and_exits_on_time() -> None:
    """w until the start, r in the window, then END TIME REACHED and the AR is gone."""
    core = ar_core()
    outs = [qrsub(core, a=T0 + HOUR, d=HOUR)]
    outs += run_until(core, T0 + HOUR - 1)
    assert ar_state(core, 1, T0 + HOUR - 1) == "w"
    outs += run_until(core, T0 + HOUR, T0 + HOUR - 1)
    assert ar_state(core, 1, T0 + HOUR) == "r"
    outs += run_until(core, T0 + 2 * HOUR, T0 + HOUR)
    assert ar_state(core, 1, T0 + 2 * HOUR) is None
    assert report_kinds(outs) == [
        "new_ar", "ar_attr", "ar_log:CREATED", "ar_log:START TIME REACHED",
        "ar_log:END TIME REACHED", "ar_acct", "ar_log:TERMINATED",
    ]  # fmt: skip
    assert outs[-1].spool.ars == {1: None}


def test_qstat_shows_reserved_slots_during_the_window() -> None:
    """qstat -f's resv column counts an AR's slots while it runs; used counts only jobs."""
    core = ar_core()
    qrsub(core, a=T0 + 60, d=HOUR, pe_name="mpi", pe_min=4, pe_max=4)
    queues = request(core, ROOT, "job_list", T0, full=True).data["queues"]
    assert {q["name"]: q["resv"] for q in queues}["all.q@host1"] == 0
    run_until(core, T0 + 60)
    queues = request(core, ROOT, "job_list", T0 + 60, full=True).data["queues"]
    row = {q["name"]: q for q in queues}["all.q@host1"]
    assert (row["resv"], row["used"], row["total"]) == (4, 0, 4)


def test_ar_jobs_run_only_in_the_window_and_are_accounted_with_the_ar() -> None:
    """An AR job waits for the start, runs in the reserved queue, carries arid in accounting."""
    core = ar_core()
    qrsub(core, a=T0 + HOUR, d=HOUR, l_hard={"h": "host3"})
    out = submit(core, ar=1, l_hard={"h_rt": "600"}, CMDARGS=["60"])
    assert texts(out) == ['Your job 1 ("job.sh") has been submitted']
    run_until(core, T0 + HOUR - 1)
    assert states(core, T0 + HOUR - 1) == {"1": "qw"}
    outs = run_until(core, T0 + HOUR + 1, T0 + HOUR - 1)
    assert states(core, T0 + HOUR + 1) == {"1": "r"}
    assert core.jobs[1].tasks[0].queue == "all.q@host3"
    outs += run_until(core, T0 + HOUR + 100, T0 + HOUR + 1)
    acct = [r for o in outs for r in o.reports if isinstance(r, Acct)]
    assert [(a.arid, a.ar_submission_time) for a in acct] == [(1, int(T0))]


def test_ordinary_jobs_cannot_use_reserved_slots() -> None:
    """While an AR holds all 16 slots, ordinary jobs wait; AR jobs run."""
    core = ar_core()
    qrsub(core, a=T0 + 10, d=HOUR, pe_name="mpi", pe_min=16, pe_max=16)
    run_until(core, T0 + 10)
    submit(core, ALICE, T0 + 10, l_hard={"h_rt": "60"})
    submit(core, ALICE, T0 + 10, ar=1, l_hard={"h_rt": "60"}, CMDARGS=["30"])
    run_until(core, T0 + 20, T0 + 10)
    assert states(core, T0 + 20) == {"1": "qw", "2": "r"}


def test_jobs_are_deleted_at_the_end_and_none_outlives_it() -> None:
    """At the end of the AR its running and pending jobs are deleted."""
    core = ar_core()
    qrsub(core, a=T0 + 10, d=600)
    submit(core, ar=1, CMDARGS=["100000"])
    submit(core, ar=1, CMDARGS=["100000"])
    run_until(core, T0 + 300)
    assert states(core, T0 + 300) == {"1": "r", "2": "qw"}
    run_until(core, T0 + 610, T0 + 300)
    assert states(core, T0 + 610) == {}
    assert not core.booked.used


def test_h_rt_that_would_pass_the_end_is_not_started() -> None:
    """A job whose h_rt plus DURATION_OFFSET passes the AR's end waits with a reason."""
    core = ar_core()
    qrsub(core, a=T0 + 10, d=1000)
    submit(core, ar=1, l_hard={"h_rt": "900"})
    run_until(core, T0 + 100)
    assert states(core, T0 + 100) == {}  # started at T0+10: 10+900+60 <= 1010
    submit(core, ALICE, T0 + 100, ar=1, l_hard={"h_rt": "900"})
    run_until(core, T0 + 200, T0 + 100)
    assert states(core, T0 + 200) == {"2": "qw"}
    assert "advance reservation 1" in core.reasons[2][0].text


def test_qrdel_without_jobs_deletes_at_once() -> None:
    """qrdel answers in Grid Engine's words and the AR is removed."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = request(core, ALICE, "ar_delete", ar_ids=["1"])
    assert texts(out) == ["alice has deleted advance_reservation 1"]
    assert not core.ars
    assert report_kinds([out]) == ["ar_log:DELETED", "ar_acct", "ar_log:TERMINATED"]


def test_qrdel_with_running_jobs_registers_then_goes_with_them() -> None:
    """Without -f an AR with jobs is registered for deletion and goes when they do."""
    core = ar_core()
    qrsub(core, d=HOUR)
    submit(core, ar=1, CMDARGS=["1000"])
    run_until(core, T0 + 1)
    out = request(core, ALICE, "ar_delete", T0 + 1, ar_ids=["1"])
    assert texts(out) == ["alice has registered the advance_reservation 1 for deletion"]
    assert ar_state(core, 1, T0 + 1) == "d"
    run_until(core, T0 + 2, T0 + 1)
    assert not core.ars
    assert not core.jobs


def test_qrdel_force_deletes_jobs_and_ar_together() -> None:
    """With -f the jobs are deleted at once and so is the AR."""
    core = ar_core()
    qrsub(core, d=HOUR)
    submit(core, ar=1, CMDARGS=["1000"])
    run_until(core, T0 + 1)
    out = request(core, ALICE, "ar_delete", T0 + 1, ar_ids=["1"], force=True)
    assert texts(out) == ["alice has deleted advance_reservation 1"]
    assert not core.ars
    assert not core.jobs


def test_only_owner_and_managers_delete() -> None:
    """Another user is refused with Grid Engine's message; a manager may delete."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = request(core, BOB, "ar_delete", ar_ids=["1"])
    assert texts(out) == [
        'bob - you do not have the necessary privileges to delete the advance_reservation "1"'
    ]
    assert 1 in core.ars
    out = request(core, BOB, "ar_delete", ar_ids=["7"])
    assert texts(out) == ['denied: advance_reservation "7" does not exist']
    out = request(core, BOB, "ar_delete", users=["bob"])
    assert texts(out) == ["There is no advance_reservation registered for the following users: bob"]
    out = request(core, ROOT, "ar_delete", ar_ids=["1"])
    assert texts(out) == ["root has deleted advance_reservation 1"]


def test_hard_error_blocks_jobs_until_the_queue_returns() -> None:
    """-he yes: a reserved host leaving the queue puts the AR in E; its jobs wait; then back."""
    core = ar_core()
    qrsub(core, a=T0 + 10, d=HOUR, l_hard={"h": "host2"}, he=True)
    run_until(core, T0 + 10)
    submit(core, ALICE, T0 + 20, ar=1, l_hard={"h_rt": "60"}, CMDARGS=["30"])
    out = modify_queue(core, T0 + 20, hostlist="host1 host3 host4")
    assert ar_state(core, 1, T0 + 20) == "E"
    assert report_kinds([out]) == ["ar_log:RESOURCES UNSATISFIED"]
    row = request(core, ROOT, "ar_list", T0 + 20).data["ars"][0]
    assert row["messages"] == ["reserved queue all.q@host2 is unknown"]
    run_until(core, T0 + 40, T0 + 20)
    assert states(core, T0 + 40) == {"1": "qw"}
    out = modify_queue(core, T0 + 40, hostlist="@allhosts")
    assert ar_state(core, 1, T0 + 40) == "r"
    assert report_kinds([out]) == ["ar_log:RESOURCES SATISFIED"]
    run_until(core, T0 + 41, T0 + 40)
    assert states(core, T0 + 41)["1"] in ("t", "r")


def test_soft_error_lets_jobs_use_what_remains() -> None:
    """-he no: a running AR goes to E, yet its jobs run on the reserved queues still there."""
    core = ar_core()
    qrsub(core, a=T0 + 10, d=HOUR, pe_name="mpi", pe_min=8, pe_max=8)
    run_until(core, T0 + 10)
    modify_queue(core, T0 + 20, hostlist="host1 host3 host4")
    assert ar_state(core, 1, T0 + 20) == "E"
    submit(core, ALICE, T0 + 20, ar=1, l_hard={"h_rt": "60"}, CMDARGS=["30"])
    run_until(core, T0 + 21, T0 + 20)
    assert core.jobs[1].tasks[0].queue == "all.q@host1"


@pytest.mark.parametrize("hard", [True, False])
def test_waiting_ar_in_error_is_w_and_becomes_e_at_its_start(hard: bool) -> None:
    """Grid Engine's letters: W for a waiting AR in error, E once it runs; -he does not matter."""
    core = ar_core()
    qrsub(core, a=T0 + 100, d=HOUR, l_hard={"h": "host2"}, he=hard)
    out = modify_queue(core, T0 + 20, hostlist="host1 host3 host4")
    assert ar_state(core, 1, T0 + 20) == "W"
    assert report_kinds([out]) == ["ar_log:RESOURCES UNSATISFIED"]
    run_until(core, T0 + 100, T0 + 20)
    assert ar_state(core, 1, T0 + 100) == "E"
    modify_queue(core, T0 + 200, hostlist="@allhosts")
    assert ar_state(core, 1, T0 + 200) == "r"


def test_jobs_running_into_a_future_window_leave_room_for_it() -> None:
    """With 6 of 16 slots held through the AR's window by running jobs and 8 reserved, only
    2 more jobs that would run into the window start; a third waits (the pass counts what
    the running jobs hold until their end)."""
    core = ar_core()
    for _ in range(6):
        submit(core, ALICE, T0, l_hard={"h_rt": "7200"}, CMDARGS=["7000"])
    run_until(core, T0 + 1)
    qrsub(core, now=T0 + 1, a=T0 + HOUR, d=HOUR, pe_name="mpi", pe_min=8, pe_max=8)
    for _ in range(3):
        submit(core, BOB, T0 + 2, l_hard={"h_rt": "7200"}, CMDARGS=["7000"])
    run_until(core, T0 + 3, T0 + 2)
    assert list(states(core, T0 + 3).values()) == ["r"] * 8 + ["qw"]
