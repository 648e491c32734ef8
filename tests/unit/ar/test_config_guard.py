"""Configuration changes that would break a granted AR are refused in Grid Engine's words."""

from __future__ import annotations

from qmaster.core import Core, Outcome
from tests.unit.ar.helpers import HOUR, ar_core, ar_state, modify_queue, qrsub
from tests.unit.core.helpers import ROOT, T0, request, texts


def _modify(core: Core, kind: str, name: str, **attrs: str) -> Outcome:
    """qconf -M<kind> with some attributes changed."""
    text = request(core, ROOT, "conf_show", T0, kind=kind, name=name).data["text"]
    lines = []
    for line in text.splitlines():
        key = line.split(" ", 1)[0]
        lines.append(f"{key} {attrs[key]}" if key in attrs else line)
    return request(core, ROOT, "conf_modify", T0, kind=kind, text="\n".join(lines) + "\n")


def _shown(core: Core, kind: str, name: str) -> str:
    return str(request(core, ROOT, "conf_show", T0, kind=kind, name=name).data["text"])


def _mpi_ar(core: Core, slots: int = 4) -> None:
    out = qrsub(core, d=HOUR, l_hard={"h": "host1"}, pe_name="mpi", pe_min=slots, pe_max=slots)
    assert not out.answers[0].is_error


def test_removing_the_ars_pe_from_pe_list_is_refused() -> None:
    """Taking mpi out of all.q's pe_list is refused while an AR holds mpi slots there."""
    core = ar_core()
    _mpi_ar(core)
    before = _shown(core, "cqueue", "all.q")
    out = modify_queue(core, T0, pe_list="make")
    assert texts(out) == ['denied: removing "mpi" from pe_list would break advance reservation 1']
    assert out.answers[0].is_error
    assert _shown(core, "cqueue", "all.q") == before
    assert ar_state(core, 1) == "w"  # granted, and still whole


def test_lowering_reserved_queue_slots_is_refused() -> None:
    """all.q slots below what an AR reserved on a queue instance are refused; above is fine."""
    core = ar_core()
    _mpi_ar(core, 3)
    out = modify_queue(core, T0, slots="2")
    assert texts(out) == [
        "denied: 3 slots are already reserved in all.q@host1 by an advance reservation"
    ]
    assert not modify_queue(core, T0, slots="3").answers[0].is_error


def test_locking_out_an_ar_user_is_refused() -> None:
    """xuser_lists naming a userset the AR's owner is in is refused ("user_lists")."""
    core = ar_core()
    qrsub(core, d=HOUR)
    out = modify_queue(core, T0, xuser_lists="arusers")
    assert texts(out) == ['denied: the change in "user_lists" would break advance reservation 1']


def test_lowering_pe_slots_below_reservations_is_refused() -> None:
    """A PE's slots below the slots ARs reserved in it are refused."""
    core = ar_core()
    _mpi_ar(core)
    out = _modify(core, "pe", "mpi", slots="3")
    assert texts(out) == ["denied: lowering slots amount below 4 would break advance reservations"]
    assert not _modify(core, "pe", "mpi", slots="4").answers[0].is_error


def test_userset_change_that_locks_out_an_ar_user_is_refused() -> None:
    """Removing the AR's owner from the userset its queue admits is refused ("entries")."""
    core = ar_core()
    assert not modify_queue(core, T0, user_lists="arusers").answers[0].is_error
    qrsub(core, d=HOUR)
    out = request(core, ROOT, "conf_delete", T0, kind="userset", name="arusers", members=["alice"])
    assert texts(out) == ['denied: the change in "entries" would break advance reservation 1']


def test_changes_that_keep_the_ar_whole_are_accepted() -> None:
    """Unrelated changes (another PE, more slots) still go through."""
    core = ar_core()
    _mpi_ar(core)
    assert not modify_queue(core, T0, pe_list="make mpi", slots="8").answers[0].is_error
    assert not _modify(core, "pe", "make", slots="1").answers[0].is_error


def _with_gpus(core: Core) -> None:
    """A consumable ``gpu`` with 4 on host1."""
    text = request(core, ROOT, "conf_show", T0, kind="complex", name=None).data["text"]
    out = request(
        core, ROOT, "conf_modify", T0, kind="complex", text=text + "gpu gpu INT <= YES YES 0 0\n"
    )
    assert not out.answers[0].is_error, out.answers
    assert not _modify(core, "exechost", "host1", complex_values="gpu=4").answers[0].is_error


def test_lowering_or_removing_a_reserved_consumable_is_refused() -> None:
    """A host's complex_values below (or without) what an AR reserved there are refused."""
    core = ar_core()
    _with_gpus(core)
    assert not qrsub(core, d=HOUR, l_hard={"h": "host1", "gpu": "3"}).answers[0].is_error
    out = _modify(core, "exechost", "host1", complex_values="gpu=2")
    assert texts(out) == [
        'denied: changing "gpu" in complex_values would break advance reservation'
    ]
    out = _modify(core, "exechost", "host1", complex_values="NONE")
    assert texts(out) == [
        'denied: changing "gpu" in complex_values would break advance reservations'
    ]
    assert not _modify(core, "exechost", "host1", complex_values="gpu=3").answers[0].is_error
