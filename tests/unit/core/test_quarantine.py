"""A job or task the qmaster keeps failing on goes into Eqw with the reason, slots given back."""

from __future__ import annotations

from qmaster.core.lifecycle import START_TIME
from qmaster.core.quarantine import culprit, put_in_error
from qmaster.testing_cores import CheckedCores
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, run_until, states, submit


def test_a_running_task_goes_into_error_and_gives_its_slots_back(
    checked_cores: CheckedCores,
) -> None:
    """r -> Eqw with the reason as qstat -j's error reason; qmod -cj sends it back to qw."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"])
    run_until(core, T0 + 1)
    assert states(core) == {"1": "r"}
    out = put_in_error(core, 1, 0, "internal error in qmaster: boom", T0 + 1)
    checked_cores.images[core].apply(out.spool)  # the driver writes what it returned
    assert states(core) == {"1": "Eqw"}
    assert core.booked.by_task == {}
    assert out.spool.tasks[(1, 0)]["state"] == "ERROR"
    detail = request(core, ROOT, "job_detail", job_ids=["1"]).data["jobs"][0]
    assert [t["message"] for t in detail["tasks"]] == ["internal error in qmaster: boom"]
    request(core, ROOT, "qmod", action="cj", targets=["1"])
    assert states(core) == {"1": "qw"}


def test_a_job_wide_step_puts_every_pending_task_into_error(checked_cores: CheckedCores) -> None:
    """A failing start-time timer names the job: all its pending tasks go into Eqw."""
    core = make_core()
    submit(core, ALICE, T0, t_min=1, t_max=3, h=True)
    blamed = culprit((START_TIME, 1, 0))
    assert blamed == (1, None)
    out = put_in_error(core, *blamed, "internal error in qmaster: boom", T0)
    checked_cores.images[core].apply(out.spool)  # the driver writes what it returned
    assert states(core) == {"1.1": "Eqw", "1.2": "Eqw", "1.3": "Eqw"}


def test_steps_about_no_job_blame_none() -> None:
    """AR and calendar timers name no job: nothing is put into error for them."""
    assert culprit(("ar_start", 1, 0)) is None
    assert culprit(("qcal", 0, 0)) is None
    assert culprit(None) is None
    assert culprit(("dispatch", 4, 2)) == (4, 2)
