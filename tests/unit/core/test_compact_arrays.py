"""A pending array of a million tasks costs one job and a few task ranges, not a million ids."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from typing import Any, TypeVar

from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Outcome
from qmaster.core.outcome import SpoolDelta
from tests.unit.core.helpers import ALICE, T0, make_core, request, rows, states, submit, texts

MILLION = 1_000_000
# a list of a million task ids costs ~36 MB (8 MB of pointers, 28 bytes per int object);
# every step below must stay far under that
NO_ID_LIST = 8 * 2**20
R = TypeVar("R")


def _big_core() -> Core:
    """A core whose cell allows arrays of any size (``max_aj_tasks 0``) from the start."""
    config = ClusterConfig.from_rows(make_core().config.to_rows())
    config.global_conf.attrs["max_aj_tasks"] = "0"  # unlimited
    config.global_conf.__dict__.pop("max_aj_tasks", None)
    return Core(config, CoreSettings(admins=frozenset({"root"})))


def _peak(step: Callable[[], R]) -> tuple[R, int]:
    """What ``step`` returns, and the most memory it held at once (bytes)."""
    tracemalloc.start()
    try:
        result = step()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _submit_million(core: Core, **spec: Any) -> Outcome:
    return submit(core, ALICE, T0, CMDARGS=["100"], t_min=1, t_max=MILLION, t_step=1, **spec)


def _restart(core: Core, outs: list[Outcome], now: float) -> Core:
    delta = SpoolDelta()
    for out in outs:
        delta.merge(out.spool)
    jobs = [r for r in delta.jobs.values() if r is not None]
    tasks = [{**r, "job_id": j} for (j, _), r in delta.tasks.items() if r is not None]
    return Core.recover(core.config, core.settings, jobs, tasks, delta.counters, now)


def test_submitting_a_million_tasks_stores_one_range_and_spools_one_row() -> None:
    """qsub -t 1-1000000 keeps one range, makes no task objects and spools one short row."""
    core = _big_core()
    out, peak = _peak(lambda: _submit_million(core))
    assert texts(out) == ['Your job-array 1.1-1000000:1 ("job.sh") has been submitted']
    job = core.jobs[1]
    assert job.pending.ranges == (range(1, MILLION + 1),)
    assert len(job.pending) == MILLION
    assert job.tasks == {}
    assert list(out.spool.jobs) == [1]
    assert out.spool.tasks == {}
    assert len(json.dumps(out.spool.jobs[1])) < 1000
    assert peak < NO_ID_LIST


def test_a_pass_takes_only_the_ids_it_dispatches() -> None:
    """A pass over a million pending tasks starts 16 and lists no other id."""
    core = _big_core()
    _submit_million(core)
    _, peak = _peak(lambda: core.tick(T0))
    job = core.jobs[1]
    assert sorted(job.tasks) == list(range(1, 17))
    assert job.pending.ranges == (range(17, MILLION + 1),)
    assert peak < NO_ID_LIST


def test_qstat_shows_the_pending_tasks_as_one_line() -> None:
    """qstat lists the dispatched tasks and the pending rest as one 17-1000000:1 line."""
    core = _big_core()
    _submit_million(core)
    core.tick(T0)
    shown, peak = _peak(lambda: states(core))
    assert shown == {**{f"1.{i}": "t" for i in range(1, 17)}, "1.17-1000000:1": "qw"}
    assert peak < NO_ID_LIST
    detail = request(core, ALICE, "job_detail", T0, job_ids=["1"]).data["jobs"][0]
    assert detail["tasks"][-1]["task_id"] == "17-1000000:1"


def test_recovery_rebuilds_the_range_without_listing_it() -> None:
    """After a restart the pending tasks are the range minus the spooled tasks, as one range."""
    core = _big_core()
    outs = [_submit_million(core), core.tick(T0)]
    again, peak = _peak(lambda: _restart(core, outs, T0 + 1))
    job = again.jobs[1]
    assert job.pending.ranges == (range(17, MILLION + 1),)
    assert sorted(job.tasks) == list(range(1, 17))
    assert peak < NO_ID_LIST


def test_qdel_of_a_task_range_cuts_the_range() -> None:
    """qdel 1.1000-1999 deletes those pending tasks and leaves two ranges."""
    core = _big_core()
    _submit_million(core)
    out = request(core, ALICE, "delete", T0, job_ids=["1.1000-1999"], force=False, users=None)
    assert texts(out) == ["alice has deleted job-array tasks 1000-1999:1 of job 1"]
    assert str(core.jobs[1].pending) == "1-999:1,2000-1000000:1"
    assert len(core.jobs[1].pending.ranges) == 2


def test_qdel_of_every_other_task_keeps_one_range() -> None:
    """qdel 1.1-19999:2 of a pending array leaves the even tasks as one range with step 2."""
    core = _big_core()
    submit(core, ALICE, T0, t_min=1, t_max=20_000, t_step=1, h=True)
    out = request(core, ALICE, "delete", T0, job_ids=["1.1-19999:2"], force=False, users=None)
    assert texts(out) == ["alice has deleted job-array tasks 1-19999:2 of job 1"]
    pending = core.jobs[1].pending
    assert str(pending) == "2-20000:2"
    assert len(pending.ranges) == 1


def test_a_rescheduled_task_pends_again_beside_the_range() -> None:
    """qmod -rj of a running task puts it back among the pending ids (qstat's Rq)."""
    core = _big_core()
    _submit_million(core, r=True)
    core.tick(T0)
    core.tick(T0 + 1)
    request(core, ALICE, "qmod", T0 + 2, action="rj", targets=["1.3"], force=False)
    job = core.jobs[1]
    assert 3 in job.pending
    assert len(job.pending.ranges) == 2
    shown = states(core, T0 + 2)
    assert shown["1.3"] == "Rq"
    assert shown["1.17-1000000:1"] == "qw"


def test_array_dependency_between_big_arrays_is_worked_out_on_ranges() -> None:
    """-hold_jid_ad between two million-task arrays: the second waits as one hqw line."""
    core = _big_core()
    _submit_million(core)
    _submit_million(core, hold_jid_ad=["1"])
    _, peak = _peak(lambda: core.tick(T0))
    assert core.jobs[2].tasks == {}
    shown, peak_qstat = _peak(lambda: states(core))
    assert shown["2.1-1000000:1"] == "hqw"
    assert shown["1.17-1000000:1"] == "qw"
    assert max(peak, peak_qstat) < NO_ID_LIST
    assert rows(core, T0, states="hd")[0]["job_id"] == 2


def test_task_ranges_of_qmod_qalter_and_qdel_answer_as_before() -> None:
    """qmod -sj, qalter -h and qdel of task ranges of a pending array answer per task or refuse
    (qalter -h for the tasks whose hold it changes)."""
    core = _big_core()
    submit(core, ALICE, T0, t_min=1, t_max=4, t_step=1, h=True)
    out = request(core, ALICE, "qmod", T0, action="sj", targets=["1.2-3"], force=False)
    assert texts(out) == [
        f"Modify operation can not be applied on job-array task 1.{t} in pending/hold state"
        for t in (2, 3)
    ]
    out = request(core, ALICE, "alter", T0, job_ids=["1.2-3"], job={}, hold="U")
    assert texts(out) == [f"modified hold of job-array task 1.{t}" for t in (2, 3)]
    out = request(core, ALICE, "alter", T0, job_ids=["1.1-4"], job={}, hold="U")
    assert texts(out) == [f"modified hold of job-array task 1.{t}" for t in (1, 4)]
    out = request(core, ALICE, "delete", T0, job_ids=["1.7-9"], force=False, users=None)
    assert texts(out) == ['job "1" task id range "7-9:1" comprises no tasks']
    out = request(core, ALICE, "delete", T0, job_ids=["1.3"], force=False, users=None)
    assert texts(out) == ["alice has deleted job-array task 1.3"]
    assert str(core.jobs[1].pending) == "1,2,4"


def test_pending_stays_the_range_minus_the_tasks_that_left_it() -> None:
    """Dispatch, qdel and qmod -r keep pending equal to the array minus its task objects."""
    core = _big_core()
    _submit_million(core, r=True)
    core.tick(T0)
    core.tick(T0 + 1)
    request(core, ALICE, "delete", T0 + 1, job_ids=["1.500-600"], force=False, users=None)
    request(core, ALICE, "qmod", T0 + 2, action="rj", targets=["1.3"], force=False)
    job = core.jobs[1]
    assert job.pending == job.derived_pending()
    assert len(job.pending) == MILLION - 16 - 101 + 1
    assert len(job.pending.ranges) == 3
