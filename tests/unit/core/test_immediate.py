"""qsub -now y: an immediate job starts in the next pass or is removed."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core, Outcome
from qmaster.events.records import Acct, JobLog
from tests.unit.core.helpers import ALICE, T0, make_core, request, run_until, states, submit, texts


def _now_y(core: Core, **spec: Any) -> Outcome:
    """qsub -now y (the helper's ``now`` is the time, so the request is built here)."""
    return request(core, ALICE, "submit", T0, job={"CMDNAME": "job.sh", "now": True, **spec})


def test_immediate_job_on_a_full_cell_is_removed_without_accounting() -> None:
    """No free slot: the job is answered as unscheduled, leaves the system, writes no acct."""
    core = make_core()
    submit(core, CMDARGS=["100"], pe_name="mpi", pe_min=16, pe_max=16)
    run_until(core, T0)
    out = _now_y(core, CMDARGS=["1"])
    assert texts(out) == ['Your job 2 ("job.sh") has been submitted']
    assert out.data["immediate"] is False
    assert 2 not in core.jobs
    assert out.spool.jobs[2] is None
    assert not [r for r in out.reports if isinstance(r, Acct)]
    assert [r.event for r in out.reports if isinstance(r, JobLog)] == ["pending", "deleted"]
    assert states(core) == {"1": "r"}


def test_immediate_job_with_room_is_dispatched_at_once() -> None:
    """With a free slot the job is dispatched by the submission's own pass."""
    core = make_core()
    out = _now_y(core, CMDARGS=["100"])
    assert out.data["immediate"] is True
    assert states(core) == {"1": "t"}


def test_immediate_job_after_earlier_passes_is_dispatched() -> None:
    """A qmaster that has scheduled before still dispatches an immediate job at once."""
    core = make_core()
    submit(core, CMDARGS=["100"])
    run_until(core, T0 + 2)
    out = _now_y(core, CMDARGS=["100"])
    assert out.data["immediate"] is True
    assert states(core) == {"1": "r", "2": "t"}


def test_held_immediate_job_cannot_be_scheduled() -> None:
    """An immediate job that may not start now (here: held) is removed too."""
    core = make_core()
    out = _now_y(core, CMDARGS=["100"], h=True)
    assert out.data["immediate"] is False
    assert core.jobs == {}


def test_immediate_array_job_keeps_the_tasks_that_started() -> None:
    """Tasks the pass could not place are deleted; the ones it started run on."""
    core = make_core()
    out = _now_y(core, CMDARGS=["100"], t_min=1, t_max=20, t_step=1)
    assert out.data["immediate"] is True
    assert len(core.jobs[1].tasks) == 20
    assert len([t for t in core.jobs[1].tasks.values() if t.state.value == "t"]) == 16
    assert list(core.jobs[1].pending) == []
