"""qrdel as Grid Engine's qmaster reads it: user patterns, id 0, per-ref answers."""

from __future__ import annotations

from tests.unit.ar.helpers import HOUR, ar_core, qrsub
from tests.unit.core.helpers import ALICE, BOB, ROOT, request, texts

MUST_BE_MANAGER = 'denied: "alice" must be manager to modify all advance reservations'


def test_user_pattern_needs_a_manager() -> None:
    """qrdel -u '*' by a non-manager is refused as a whole; nothing is deleted."""
    core = ar_core()
    qrsub(core, d=HOUR)
    for users in (["*"], ["al*"], ["alice", "b?b"]):
        out = request(core, ALICE, "ar_delete", users=users)
        assert texts(out) == [MUST_BE_MANAGER]
        assert out.answers[0].is_error
    assert 1 in core.ars
    out = request(core, ROOT, "ar_delete", users=["*"])
    assert texts(out) == ["root has deleted advance_reservation 1"]


def test_own_user_name_still_works() -> None:
    """qrdel -u alice by alice deletes her ARs."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = request(core, ALICE, "ar_delete", users=["alice"])
    assert texts(out) == ["alice has deleted advance_reservation 1"]


def test_id_zero_names_nothing() -> None:
    """qrdel 0 asks for a user name or ids, in Grid Engine's words; with -u it is ignored."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = request(core, ALICE, "ar_delete", ar_ids=["0"])
    assert texts(out) == ["You have to specify a username or advance_reservation ids"]
    assert out.answers[0].is_error
    out = request(core, ALICE, "ar_delete", ar_ids=["0"], users=["alice"])
    assert texts(out) == ["alice has deleted advance_reservation 1"]


def test_each_ref_is_answered() -> None:
    """A missing id is reported and the others are still deleted."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = request(core, ALICE, "ar_delete", ar_ids=["7", "1"])
    assert texts(out) == [
        'denied: advance_reservation "7" does not exist',
        "alice has deleted advance_reservation 1",
    ]
    out = request(core, BOB, "ar_delete", users=["bob", "carol"])
    assert texts(out) == [
        "There is no advance_reservation registered for the following users: bob,carol"
    ]


def test_ar_ids_are_read_with_strtol() -> None:
    """ar_del() reads an id with strtol(id, &end, 0): read to the end it is an id (010 is 8,
    0x1 is 1, +1 is 1); a word starting with a digit that it does not read wholly is refused
    as no valid object name, and nothing is deleted."""
    core = ar_core()
    for _ in range(8):
        qrsub(core, d=HOUR)
    out = request(core, ALICE, "ar_delete", ar_ids=["1abc", "2.5"])
    assert texts(out) == [
        'denied: "1abc" is not a valid object name (cannot start with a digit)',
        'denied: "2.5" is not a valid object name (cannot start with a digit)',
    ]
    assert sorted(core.ars) == list(range(1, 9))
    out = request(core, ALICE, "ar_delete", ar_ids=["99999999999999999999", "010", "0x1", "+2"])
    assert texts(out) == [
        'denied: advance_reservation "99999999999999999999" does not exist',
        "alice has deleted advance_reservation 8",
        "alice has deleted advance_reservation 1",
        "alice has deleted advance_reservation 2",
    ]
