"""A job or task the qmaster keeps failing on goes into Eqw with the reason, slots given back."""

from __future__ import annotations

from qmaster.core.lifecycle import START_TIME
from qmaster.core.quarantine import culprit, put_in_error
from qmaster.testing_cores import CheckedCores
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    rows,
    run_until,
    states,
    submit,
)


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
    # its start time was reset: qstat shows when it was submitted, not when it started
    assert [(r["submit_time"], r["start_time"]) for r in rows(core)] == [(T0, None)]
    request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={}, hold="u")
    assert states(core) == {"1": "Ehqw"}  # job_get_state_string: E before h
    assert [r["job_id"] for r in rows(core, states="hu")] == [1]
    request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={}, hold="U")
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
    # the job was submitted held (-h): Grid Engine shows both, E then h (job_get_state_string)
    assert states(core) == {"1.1": "Ehqw", "1.2": "Ehqw", "1.3": "Ehqw"}


def test_steps_about_no_job_blame_none() -> None:
    """AR and calendar timers name no job: nothing is put into error for them."""
    assert culprit(("ar_start", 1, 0)) is None
    assert culprit(("qcal", 0, 0)) is None
    assert culprit(None) is None
    assert culprit(("dispatch", 4, 2)) == (4, 2)
