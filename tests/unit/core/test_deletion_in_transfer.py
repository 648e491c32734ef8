"""Deleting a task still in ``t`` (sent to its execd, not yet running) ends it cleanly."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core, Outcome
from qmaster.core.states import TaskState
from qmaster.events.records import Acct
from tests.unit.ar.helpers import HOUR, ar_core, qrsub
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    states,
    submit,
    texts,
)


def _accts(outs: list[Outcome]) -> list[Acct]:
    return [r for o in outs for r in o.reports if isinstance(r, Acct)]


def _in_transfer(core: Core, now: float | None = None, **spec: Any) -> None:
    submit(core, now=now, CMDARGS=["100"], **spec)
    core.tick(now or T0)  # the pass dispatches: the task is "t" until its start timer fires
    assert states(core, now) == {"1": "t"}


def test_qdel_of_a_transferring_job_kills_and_accounts_it() -> None:
    """qdel of a job in t registers it; the execd kills it: acct exit 137, failed 100."""
    core = make_core()
    _in_transfer(core)
    out = request(core, ALICE, "delete", T0, job_ids=["1"])
    assert texts(out) == ["alice has registered the job 1 for deletion"]
    assert states(core) == {"1": "dt"}
    outs = run_until(core, T0 + 5)
    assert states(core) == {}
    assert [(a.exit_status, a.failed, a.ru_wallclock) for a in _accts(outs)] == [(137, 100, 0)]
    assert not core.booked.by_task
    submit(core, now=T0 + 5, CMDARGS=["100"])  # scheduling goes on
    run_until(core, T0 + 7, start=T0 + 5)
    assert states(core, T0 + 7) == {"2": "r"}


def test_a_spooled_deletion_in_transfer_recovers_and_ends() -> None:
    """After a restart the deleted task in t ends once, instead of failing every tick."""
    core = make_core()
    _in_transfer(core)
    out = request(core, ALICE, "delete", T0, job_ids=["1"])
    job = core.jobs[1]
    task_rows = [{"job_id": 1, **row} for (_, _), row in out.spool.tasks.items()]
    again = Core.recover(core.config, core.settings, [job.to_row()], task_rows, {"job": 2}, T0 + 1)
    assert again.jobs[1].tasks[0].state is TaskState.DELETING
    outs = run_until(again, T0 + 5, start=T0 + 1)
    assert again.jobs == {}
    assert [(a.exit_status, a.failed) for a in _accts(outs)] == [(137, 100)]


def test_qdel_f_of_a_transferring_job_accounts_it_at_once() -> None:
    """qdel -f of a job in t removes it at once; the qmaster accounts it: failed 37, exit 0."""
    core = make_core()
    _in_transfer(core)
    out = request(core, ROOT, "delete", T0, job_ids=["1"], force=True)  # -f: managers
    assert texts(out) == ["warning: root forced the deletion of job 1"]
    assert states(core) == {}
    assert [(a.exit_status, a.failed) for a in _accts([out])] == [(0, 37)]


def test_qrdel_of_an_ar_whose_job_is_in_transfer() -> None:
    """qrdel of an AR while its job is in t: the job is killed, then the AR goes."""
    core = ar_core()
    qrsub(core, d=HOUR)
    submit(core, now=T0, CMDARGS=["100"], ar=1)
    core.tick(T0)
    assert states(core) == {"1": "t"}
    out = request(core, ALICE, "ar_delete", T0, ar_ids=["1"])
    assert texts(out) == ["alice has registered the advance_reservation 1 for deletion"]
    outs = run_until(core, T0 + 5)
    assert core.jobs == {}
    assert core.ars == {}
    assert [(a.exit_status, a.failed) for a in _accts(outs)] == [(137, 100)]


def test_qdel_f_of_a_running_job_is_accounted_by_the_qmaster() -> None:
    """qdel -f of a running job: gone at once, acct failed 37 and exit status 0."""
    core = make_core()
    submit(core, CMDARGS=["100"])
    run_until(core, T0 + 1)
    out = request(core, ROOT, "delete", T0 + 2, job_ids=["1"], force=True)
    assert states(core, T0 + 2) == {}
    assert [(a.exit_status, a.failed, a.ru_wallclock) for a in _accts([out])] == [(0, 37, 2)]


def test_qdel_of_a_notify_job_kills_it_after_the_queue_notify_time() -> None:
    """-notify: qdel sends SIGUSR2 and kills the job the queue's notify time (60 s) later."""
    core = make_core()
    submit(core, CMDARGS=["1000"], notify=True)
    run_until(core, T0 + 1)
    request(core, ALICE, "delete", T0 + 2, job_ids=["1"])
    run_until(core, T0 + 61, start=T0 + 2)
    assert states(core, T0 + 61) == {"1": "dr"}
    outs = run_until(core, T0 + 63, start=T0 + 61)
    (acct,) = _accts(outs)
    assert (acct.exit_status, acct.failed, acct.end_time) == (137, 100, int(T0 + 62))
