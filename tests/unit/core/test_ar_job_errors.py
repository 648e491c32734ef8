"""An AR job whose task goes into error state (Eqw) gives its slots back to the AR, not the cell;
the end of the AR (or qrdel) removes its jobs in Eqw, as Grid Engine removes an AR's jobs."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.quarantine import put_in_error
from qmaster.core.stimuli import TaskEnded
from qmaster.testing_cores import CheckedCores
from tests.unit.ar.helpers import HOUR, ar_core, ar_state, qrsub
from tests.unit.core.helpers import ALICE, ROOT, T0, request, run_until, states, submit

START = T0 + 10


def _full_ar(core: Core) -> None:
    """An AR of all 16 slots of the cell, running from START for an hour."""
    qrsub(core, a=START, d=HOUR, pe_name="mpi", pe_min=16, pe_max=16)
    run_until(core, START)


def _free_slots(core: Core, now: float) -> int:
    queues = request(core, ROOT, "job_list", now, full=True).data["queues"]
    return sum(int(q["total"]) - int(q["used"]) - int(q["resv"]) for q in queues)


def test_a_task_whose_start_fails_gives_its_slots_back_to_the_ar() -> None:
    """Missing working directory: Eqw, and the slot is the AR's again, so an ordinary job
    still waits and another job of the AR runs."""
    core = ar_core()
    core.workdir_error = lambda path, _owner: (
        "No such file or directory" if "gone" in path else None
    )
    _full_ar(core)
    submit(core, ALICE, START, ar=1, wd="/gone", l_hard={"h_rt": "60"})
    run_until(core, START + 1, START)
    assert states(core, START + 1) == {"1": "Eqw"}
    assert _free_slots(core, START + 1) == 0
    submit(core, ALICE, START + 1, l_hard={"h_rt": "60"}, CMDARGS=["30"])
    submit(core, ALICE, START + 1, ar=1, l_hard={"h_rt": "60"}, CMDARGS=["30"])
    run_until(core, START + 5, START + 1)
    assert states(core, START + 5) == {"1": "Eqw", "2": "qw", "3": "r"}


def test_a_task_its_host_could_not_start_gives_its_slots_back_to_the_ar() -> None:
    """A "not started" report from a local execution host: the same."""
    core = ar_core(local_execution=True)
    _full_ar(core)
    submit(core, ALICE, START, ar=1, l_hard={"h_rt": "60"})
    run_until(core, START + 1, START)
    assert states(core, START + 1) == {"1": "r"}
    failed = TaskEnded(ROOT, 1, 0, exit_status=0, error="error: can't switch to user")
    core.handle(failed, START + 2)
    assert states(core, START + 2) == {"1": "Eqw"}
    assert _free_slots(core, START + 2) == 0


def test_a_quarantined_task_gives_its_slots_back_to_the_ar(checked_cores: CheckedCores) -> None:
    """A task the qmaster failed on twice: the same."""
    core = ar_core()
    _full_ar(core)
    submit(core, ALICE, START, ar=1, l_hard={"h_rt": "600"}, CMDARGS=["300"])
    run_until(core, START + 1, START)
    assert states(core, START + 1) == {"1": "r"}
    out = put_in_error(core, 1, 0, "internal error in qmaster: boom", START + 2)
    checked_cores.images[core].apply(out.spool)  # the driver writes what it returned
    assert states(core, START + 2) == {"1": "Eqw"}
    assert _free_slots(core, START + 2) == 0


def _ar_job_in_error() -> Core:
    """An AR (START to START + 600) whose only job went into Eqw at START: its -wd is gone."""
    core = ar_core()
    core.workdir_error = lambda _path, _owner: "No such file or directory"
    qrsub(core, a=START, d=600)
    submit(core, ALICE, START, ar=1, wd="/gone", l_hard={"h_rt": "60"})
    run_until(core, START + 1)
    assert states(core, START + 1) == {"1": "Eqw"}
    return core


def test_the_end_of_the_ar_removes_its_jobs_in_error() -> None:
    """At the AR's end its Eqw job goes with it (no accounting: it never ran)."""
    core = _ar_job_in_error()
    outs = run_until(core, START + 601, START + 1)
    assert states(core, START + 601) == {}
    assert ar_state(core, 1, START + 601) is None
    assert not [r for o in outs for r in o.reports if getattr(r, "KIND", "") == "acct"]
    assert not core.booked.used


def test_qrdel_removes_the_ars_jobs_in_error() -> None:
    """qrdel: the Eqw job is deleted at once and the AR goes, not kept in d for ever."""
    core = _ar_job_in_error()
    request(core, ALICE, "ar_delete", START + 2, ar_ids=["1"])
    assert states(core, START + 2) == {}
    assert ar_state(core, 1, START + 2) is None


def test_a_task_of_a_deleted_ar_that_goes_into_error_goes_with_the_ar(
    checked_cores: CheckedCores,
) -> None:
    """qrdel registered the running job for deletion (AR in d); the qmaster then fails on the
    task twice: its job goes, and so does the AR, instead of staying in d for ever."""
    core = ar_core()
    qrsub(core, a=START, d=600)
    submit(core, ALICE, START, ar=1, l_hard={"h_rt": "300"}, CMDARGS=["200"])
    run_until(core, START + 1)
    request(core, ALICE, "ar_delete", START + 2, ar_ids=["1"])
    assert ar_state(core, 1, START + 2) == "d"
    out = put_in_error(core, 1, 0, "internal error in qmaster: boom", START + 2)
    checked_cores.images[core].apply(out.spool)  # the driver writes what it returned
    assert states(core, START + 2) == {}
    assert ar_state(core, 1, START + 2) is None


def test_qrdel_f_of_an_ar_being_deleted_removes_it_once() -> None:
    """A second qrdel, forced, of an AR kept in d by its running job: job and AR go."""
    core = ar_core()
    qrsub(core, a=START, d=600)
    submit(core, ALICE, START, ar=1, l_hard={"h_rt": "300"}, CMDARGS=["200"])
    run_until(core, START + 1)
    request(core, ALICE, "ar_delete", START + 2, ar_ids=["1"])
    out = request(core, ROOT, "ar_delete", START + 3, ar_ids=["1"], force=True)
    assert [a.text for a in out.answers] == ["root has deleted advance_reservation 1"]
    assert states(core, START + 3) == {}
    assert ar_state(core, 1, START + 3) is None
