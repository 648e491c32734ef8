"""Admission of jobs into an AR, and ARs surviving a restart of the core."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Core, Outcome, SpoolDelta
from tests.unit.ar.helpers import HOUR, ar_core, ar_rows, modify_queue, qrsub, report_kinds
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, request, run_until, submit, texts


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"ar": 9}, "the advance reservation id 9 is invalid"),
        ({"ar": 1, "l_hard": {"h_rt": "7200"}},
         "the job duration is longer than duration of the advance reservation id 1"),
        ({"ar": 1, "l_hard": {"h_rt": "3000"}},
         "the job duration exceeds the end time of the advance reservation id 1"),
        ({"ar": 1, "pe_name": "mpi", "pe_min": 2, "pe_max": 2}, "error: no suitable queues"),
        ({"ar": 1, "q_hard": ["all.q@host4"]}, "error: no suitable queues"),
        ({"ar": 1, "l_hard": {"h": "host3"}}, "error: no suitable queues"),
        ({"ar": 1, "l_hard": {"arch": "no-such-arch"}}, "error: no suitable queues"),
        ({"ar": 1, "l_hard": {"mem_free": "100000G"}}, "error: no suitable queues"),
    ],
)  # fmt: skip
def test_jobs_that_do_not_fit_the_ar_are_refused(spec: dict[str, Any], message: str) -> None:
    """qsub -ar checks the AR exists, h_rt fits, and (-w e) the job could run in what it reserved."""
    core = ar_core()
    qrsub(core, d=HOUR, l_hard={"h": "host1"})
    out = submit(core, ALICE, T0 + 1000, **spec)
    assert texts(out) == [message]
    assert not core.jobs


@pytest.mark.parametrize(("masterq", "refused"), [("all.q@host2", True), ("all.q@host1", False)])
def test_master_queue_outside_the_ar_is_refused(masterq: str, refused: bool) -> None:
    """A parallel job whose -masterq the AR did not reserve gets Grid Engine's refusal."""
    core = ar_core()
    qrsub(core, d=HOUR, l_hard={"h": "host1"}, pe_name="mpi", pe_min=2, pe_max=2)
    spec = {"ar": 1, "pe_name": "mpi", "pe_min": 2, "pe_max": 2, "masterq": [masterq]}
    out = submit(core, ALICE, T0 + 10, **spec)
    assert (texts(out) == ["error: no suitable queues"]) is refused
    assert bool(core.jobs) is not refused


def test_users_outside_the_access_list_are_refused() -> None:
    """Only users of the AR's -u list may submit into it."""
    core = ar_core()
    qrsub(core, d=HOUR)
    assert submit(core, BOB, ar=1).answers[0].is_error
    qrsub(core, d=HOUR, u=["alice", "bob"])
    assert not submit(core, BOB, ar=2).answers[0].is_error


def test_qalter_ar_only_while_pending() -> None:
    """qalter -ar moves a pending job into an AR; a running job cannot change."""
    core = ar_core()
    qrsub(core, a=T0 + HOUR, d=HOUR)
    submit(core, h=True)
    out = request(core, ALICE, "alter", job_ids=["1"], job={"ar": 1})
    assert texts(out) == ["alice@localhost sets job advance reservation of job 1 to 1"]
    submit(core, CMDARGS=["1000"])
    run_until(core, T0 + 1)
    out = request(core, ALICE, "alter", T0 + 1, job_ids=["2"], job={"ar": 1})
    assert texts(out) == ["job 2 can't modify running jobs"]


def _restart(core: Core, delta: SpoolDelta, now: float) -> Core:
    jobs = [r for r in delta.jobs.values() if r is not None]
    tasks = [{**r, "job_id": j} for (j, _), r in delta.tasks.items()]
    ars = [r for r in delta.ars.values() if r is not None]
    return Core.recover(core.config, core.settings, jobs, tasks, delta.counters, now, ars=ars)


def _spooled(outs: list[Outcome]) -> SpoolDelta:
    delta = SpoolDelta()
    for out in outs:
        delta.merge(out.spool)
    return delta


def test_an_ar_with_every_option_reads_back_identical() -> None:
    """After a restart qrstat shows exactly what it showed before."""
    core = ar_core()
    request(core, ROOT, "conf_add", kind="userset", name="team", members=["bob"])
    request(core, ROOT, "conf_modify", kind="ckpt", text="ckpt_name blcr\n", add=True)
    modify_queue(core, T0, ckpt_list="blcr")
    spec = {
        "a": T0 + HOUR, "e": T0 + 2 * HOUR, "d": HOUR, "N": "night", "A": "proj",
        "l_hard": {"arch": "lx-amd64"}, "u": ["alice", "@team"], "q_hard": ["all.q"],
        "pe_name": "mpi", "pe_min": 2, "pe_max": 4, "masterq": ["all.q@host1"],
        "ckpt": "blcr", "now": False, "m": "bea", "M": ["alice@example.org"], "he": True,
    }  # fmt: skip
    outs = [request(core, ALICE, "ar_submit", T0, ar=spec, verify="e")]  # "now" is -now here
    assert texts(outs[0]) == ["Your advance reservation 1 has been granted"]
    again = _restart(core, _spooled(outs), T0 + 10)
    assert ar_rows(again, T0 + 10) == ar_rows(core, T0 + 10)
    assert qrsub(again, ALICE, T0 + 10, d=60).data == {"ar_id": 2}


def test_a_start_passed_while_down_happens_once() -> None:
    """Restarted inside its window, the AR starts once at the first tick."""
    core = ar_core()
    outs = [qrsub(core, a=T0 + 60, d=HOUR)]
    again = _restart(core, _spooled(outs), T0 + 500)
    later = run_until(again, T0 + 500, T0 + 500)
    assert report_kinds(later) == ["ar_log:START TIME REACHED"]
    assert ar_rows(again, T0 + 500)[0]["state"] == "r"
    assert report_kinds(run_until(again, T0 + 600, T0 + 500)) == []


def test_an_end_passed_while_down_happens_once() -> None:
    """Restarted after its window, the AR ends once and is gone."""
    core = ar_core()
    outs = [qrsub(core, a=T0 + 60, d=60)]
    again = _restart(core, _spooled(outs), T0 + 500)
    later = run_until(again, T0 + 500, T0 + 500)
    assert report_kinds(later) == ["ar_log:END TIME REACHED", "ar_acct", "ar_log:TERMINATED"]
    assert not again.ars
    assert report_kinds(run_until(again, T0 + 1000, T0 + 500)) == []


def test_a_running_ar_restarts_still_holding_its_slots() -> None:
    """An AR restored inside its window keeps ordinary jobs off its slots."""
    core = ar_core()
    outs = [qrsub(core, a=T0 + 10, d=HOUR, pe_name="mpi", pe_min=16, pe_max=16)]
    outs += run_until(core, T0 + 10)
    again = _restart(core, _spooled(outs), T0 + 20)
    submit(again, ALICE, T0 + 20, l_hard={"h_rt": "60"})
    run_until(again, T0 + 30, T0 + 20)
    assert list(again.jobs[1].pending) == [0]
