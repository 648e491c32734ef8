"""The AR state table and the start/end/duration rules of qrsub."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.core.argrant import window
from qmaster.core.ars import TRANSITIONS, AdvanceReservation, ArState
from qmaster.core.arspec import ArSpec
from qmaster.core.errors import IllegalTransition, InvalidRequest
from tests.unit.core.helpers import ALICE, T0


def _ar(state: ArState) -> AdvanceReservation:
    return AdvanceReservation(
        1, ALICE, T0, T0, T0 + 60, ArSpec(), (("all.q@host1", 1),), (), state=state
    )


@pytest.mark.parametrize("frm", list(ArState))
@pytest.mark.parametrize("to", list(ArState))
def test_only_table_moves_are_allowed(frm: ArState, to: ArState) -> None:
    """Every move the table allows succeeds and is recorded; every other one raises."""
    ar = _ar(frm)
    if to in TRANSITIONS[frm]:
        ar.move(to, "test")
        assert ar.state is to
        assert ar.story == [f"{frm.value}->{to.value}: test"]
    else:
        with pytest.raises(IllegalTransition):
            ar.move(to, "test")


def test_an_exited_ar_goes_nowhere() -> None:
    """``x`` is final: the AR only waits for its removal."""
    assert TRANSITIONS[ArState.EXITED] == frozenset()


def test_row_round_trip_keeps_everything_qrstat_shows() -> None:
    """An AR read back from its spool row shows the same qrstat row."""
    ar = _ar(ArState.WARNING)
    ar.spec = ArSpec.from_dict(
        {"N": "x", "u": ["alice", "bob"], "he": True, "l_hard": {"h_rt": "60"}}
    )
    ar.messages = ["reserved queue all.q@host1 is unknown"]
    again = AdvanceReservation.from_row(ar.to_row())
    assert again.to_ar_row() == ar.to_ar_row()


@given(
    start=st.integers(0, 10**6),
    length=st.integers(0, 10**6),
    given_=st.sampled_from(["ad", "ae", "de", "ade", "d", "e"]),
)
def test_two_of_start_end_duration_give_the_third(start: int, length: int, given_: str) -> None:
    """Any two of -a, -e, -d (or -d or -e alone, from now) give the same window."""
    a = T0 + start
    now = a if given_ in ("d", "e") else T0
    spec = {"a": a, "e": a + length, "d": float(length)}
    spec = {k: v for k, v in spec.items() if k in given_}
    assert window(ArSpec.from_dict(spec), now) == (a, a + length)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"a": T0 + 60}, 'missing value for "end time or duration" in advance reservation request'),
        ({}, 'missing value for "end time or duration" in advance reservation request'),
        ({"a": T0 - 600, "d": 60}, "start time is in the past"),
        ({"a": T0 + 600, "e": T0 + 60}, "start time is later than end time"),
        (
            {"a": T0, "e": T0 + 3600, "d": 7200},
            "difference between end and start time does not correspond to duration",
        ),
    ],
)
def test_bad_windows_are_refused_in_grid_engines_words(
    spec: dict[str, float], message: str
) -> None:
    """Inconsistent or incomplete windows are refused with qrsub's messages."""
    with pytest.raises(InvalidRequest, match=message.replace("(", r"\(").replace(")", r"\)")):
        window(ArSpec.from_dict(spec), T0)
