"""Granting advance reservations: who may, limits, access lists, and fitting over time."""

from __future__ import annotations

import pytest

from qmaster.gdi.answers import Status
from tests.unit.ar.helpers import HOUR, ar_core, ar_rows, qrsub
from tests.unit.core.helpers import BOB, ROOT, T0, make_core, request, states, submit, texts


def test_granted_with_grid_engines_line() -> None:
    """A granted AR is answered with Grid Engine's line, spooled with the id counter."""
    core = ar_core()
    out = qrsub(core, a=T0 + HOUR, d=HOUR)
    assert texts(out) == ["Your advance reservation 1 has been granted"]
    assert out.data == {"ar_id": 1}
    assert 1 in out.spool.ars
    assert out.spool.counters["ar"] == 2


def test_only_managers_and_arusers_may_create() -> None:
    """A user outside ``arusers`` is refused; a manager and an arusers member are not."""
    core = make_core()
    out = request(core, BOB, "ar_submit", ar={"d": HOUR})
    assert out.answers[0].is_error
    assert "arusers" in out.answers[0].text
    assert not core.ars
    out = request(core, ROOT, "ar_submit", ar={"d": HOUR})
    assert texts(out) == ["Your advance reservation 1 has been granted"]


def test_cluster_limit_gives_status_25_and_takes_effect_at_once() -> None:
    """Beyond max_advance_reservations the refusal says so with status 25; raising it helps."""
    core = ar_core()
    text = request(core, ROOT, "conf_show", kind="global", name=None).data["text"]
    request(core, ROOT, "conf_modify", kind="global",
            text=text.replace("max_advance_reservations     10", "max_advance_reservations 2"))  # fmt: skip
    assert core.config.global_conf.max_advance_reservations == 2
    for _ in range(2):
        assert not qrsub(core, d=HOUR).answers[0].is_error
    out = qrsub(core, d=HOUR)
    assert out.answers[0].status == Status.NOTOK_DOAGAIN
    assert texts(out) == ["rejected: only 2 advance reservations are allowed per cluster"]
    request(core, ROOT, "conf_modify", kind="global",
            text=text.replace("max_advance_reservations     10", "max_advance_reservations 3"))  # fmt: skip
    assert not qrsub(core, d=HOUR).answers[0].is_error


def test_queue_denied_to_one_user_of_the_list_is_never_reserved() -> None:
    """The seed's example: with user3 in the queue's xuser_lists, -u user1,user2,user3 fails."""
    core = ar_core()
    request(core, ROOT, "conf_add", kind="userset", name="denied_users", members=["user3"])
    text = request(core, ROOT, "conf_show", kind="cqueue", name="all.q").data["text"]
    text = text.replace("xuser_lists           NONE", "xuser_lists           denied_users")
    request(core, ROOT, "conf_modify", kind="cqueue", text=text)
    out = qrsub(core, d=HOUR, u=["user1", "user2", "user3"], q_hard=["all.q"])
    assert texts(out) == ["advance_reservation: no suitable queues"]
    out = qrsub(core, d=HOUR, u=["user1", "user2"], q_hard=["all.q"])
    assert texts(out) == ["Your advance reservation 1 has been granted"]


def test_no_ar_beside_a_job_without_h_rt_and_no_such_job_beside_an_ar() -> None:
    """The seed's host1/host2 example: a job without h_rt keeps ARs off, and vice versa."""
    core = ar_core()
    submit(core, l_hard={"h": "host1"}, CMDARGS=["100000"])
    core.tick(T0)
    core.tick(T0)
    assert states(core) == {"1": "r"}
    out = qrsub(core, a=T0 + HOUR, d=1800, l_hard={"h": "host1"})
    assert out.answers[0].is_error
    out = qrsub(core, a=T0 + HOUR, d=1800, l_hard={"h": "host2"})
    assert texts(out) == ["Your advance reservation 1 has been granted"]
    out = submit(core, verify="e", l_hard={"h": "host2"})
    assert out.answers[0].is_error
    core.tick(T0 + 1)
    assert "2" not in states(core)
    submit(core, l_hard={"h": "host2", "h_rt": "600"})  # job 3: the refused -w e used id 2
    core.tick(T0 + 20)
    core.tick(T0 + 20)
    assert states(core)["3"] == "r"


def test_overlapping_windows_compete_and_disjoint_ones_do_not() -> None:
    """Two 16-slot ARs cannot overlap on 16 slots; one after the other both fit."""
    core = ar_core()
    pe = {"pe_name": "mpi", "pe_min": 16, "pe_max": 16}
    assert not qrsub(core, a=T0 + HOUR, d=HOUR, **pe).answers[0].is_error
    out = qrsub(core, a=T0 + HOUR + 1800, d=HOUR, **pe)
    assert out.answers[0].text == "advance_reservation: no suitable queues"
    assert out.data["earliest_start"] == T0 + 2 * HOUR
    assert "earliest window that would fit begins at" in out.answers[1].text
    assert not qrsub(core, a=T0 + 2 * HOUR, d=HOUR, **pe).answers[0].is_error
    assert len(core.ars) == 2


def test_running_jobs_with_h_rt_hold_until_their_end_plus_offset() -> None:
    """A running job with h_rt blocks its slot until h_rt plus DURATION_OFFSET has passed."""
    core = ar_core()
    for _ in range(16):
        submit(core, l_hard={"h_rt": "1000"}, CMDARGS=["900"])
    core.tick(T0)
    core.tick(T0)
    assert qrsub(core, a=T0 + 1030, d=HOUR).answers[0].is_error
    assert not qrsub(core, a=T0 + 1060, d=HOUR).answers[0].is_error


def test_verify_reserves_nothing() -> None:
    """-w v says whether the AR would be granted, reserves nothing, and is not an error."""
    core = ar_core()
    out = qrsub(core, verify="v", d=HOUR)
    assert texts(out) == ["verification: found suitable queue(s)"]
    out = qrsub(core, verify="v", d=HOUR, pe_name="mpi", pe_min=6, pe_max=6)
    assert texts(out) == ["verification: found possible assignment with 6 slots"]
    out = qrsub(core, verify="v", d=HOUR, pe_name="mpi", pe_min=17, pe_max=17)
    assert texts(out)[0] == "verification: no suitable queues"
    assert not any(a.is_error for a in out.answers)
    assert not core.ars


def test_ids_wrap_to_the_next_unused() -> None:
    """After 9,999,999 the ids wrap, skipping ids still in use."""
    core = ar_core()
    for _ in range(3):
        qrsub(core, d=HOUR)
    core.next_ar_id = 9_999_999
    assert qrsub(core, d=HOUR).data == {"ar_id": 9_999_999}
    assert qrsub(core, d=HOUR).data == {"ar_id": 4}


def test_qrstat_rows_filters_and_missing_ids() -> None:
    """ar_list selects by user, id or name pattern, and names ids that match nothing."""
    core = ar_core()
    qrsub(core, d=HOUR, N="nightly")
    request(core, ROOT, "ar_submit", ar={"d": HOUR})
    assert [r["ar_id"] for r in ar_rows(core, users=["alice"])] == [1]
    assert [r["ar_id"] for r in ar_rows(core, users=["*"])] == [1, 2]
    out = request(core, ROOT, "ar_list", ar_ids=["night*", "99"])
    assert [r["name"] for r in out.data["ars"]] == ["nightly"]
    assert out.data["missing"] == ["99"]
    row = ar_rows(core)[0]
    assert row["granted_slots"] == [["all.q@host1", 1]]
    assert row["acl_list"] == []  # no -u: Grid Engine shows none
    assert row["state"] == "w" or row["state"] == "r"


@pytest.mark.parametrize(
    ("slots", "masterq"), [(2, "all.q@host2"), (8, "all.q@host3"), (1, "*@host4")]
)
def test_master_queue_is_reserved_first(slots: int, masterq: str) -> None:
    """qrsub -pe mpi N -masterq Q is granted with its master (first) queue instance in Q."""
    core = ar_core()
    out = qrsub(core, d=HOUR, pe_name="mpi", pe_min=slots, pe_max=slots, masterq=[masterq])
    assert texts(out) == ["Your advance reservation 1 has been granted"]
    granted = core.ars[1].granted
    assert granted[0][0].endswith(masterq.rpartition("@")[2])
    assert sum(n for _, n in granted) == slots
