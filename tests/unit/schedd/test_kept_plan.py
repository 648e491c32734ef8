"""The running tasks' bookings over time, kept between passes for reservations, follow
what changes (tasks starting and ending, a qalter of ``h_rt``) and are checked against a
rebuild."""

from __future__ import annotations

import pytest

from qmaster.core import Core
from qmaster.core.keptplan import KEPT_PLAN_KEY, KeptPlan
from qmaster.core.keptview import KEPT_KEY, KeptView
from qmaster.core.schedstate import check_scheduler_caches
from schedd import Running, View
from schedd.keptbound import KEPT_KEY as KEPT_BOUNDS
from schedd.reservation import Planner, RunningPlan
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, submit
from tests.unit.schedd.helpers import table


def _reserving_core() -> Core:
    core = make_core()
    conf = core.config.sched_conf.render()
    lines = [
        "max_reservation 1" if ln.split()[:1] == ["max_reservation"] else ln
        for ln in conf.splitlines()
    ]
    request(core, ROOT, "conf_modify", T0, kind="sched", text="\n".join(lines) + "\n")
    return core


def _one_reserving_job_running() -> Core:
    """A reserving cell with one -R y job started and its kept plan up to date."""
    core = _reserving_core()
    submit(core, CMDARGS=["50"], l_hard={"h_rt": "100"}, R=True)
    core.tick(T0)
    core.tick(T0 + 1)
    assert check_scheduler_caches(core, T0 + 1) == []
    return core


def _kept(core: Core) -> KeptPlan:
    kept = core.derived[KEPT_PLAN_KEY][1]
    assert isinstance(kept, KeptPlan)
    return kept


def _ends(core: Core, job_id: int = 1) -> list[float]:
    return [end for (j, _), (_, end) in _kept(core).plan.tasks.items() if j == job_id]


def test_the_kept_plan_follows_a_new_h_rt_of_a_running_job() -> None:
    core = _reserving_core()
    submit(core, CMDARGS=["500"], l_hard={"h_rt": "100"}, R=True)
    core.tick(T0)
    core.tick(T0 + 1)
    submit(core, CMDARGS=["5"], l_hard={"h_rt": "10"}, R=True)
    core.tick(T0 + 2)
    [end] = _ends(core)
    assert T0 + 100 <= end <= T0 + 102
    out = request(core, ALICE, "alter", T0 + 3, job_ids=["1"], job={"l_hard": {"h_rt": "300"}})
    assert not any(a.is_error for a in out.answers)
    assert check_scheduler_caches(core, T0 + 4) == []  # brings the kept plan up to date
    assert _ends(core) == [end + 200]


@pytest.mark.no_validate_state  # corrupts the kept plan on purpose
def test_a_stale_kept_plan_is_reported() -> None:
    core = _one_reserving_job_running()
    assert _ends(core)
    kept = _kept(core)
    key, spans = next(iter(kept.plan.spans.items()))
    spans[0] = (spans[0][0], spans[0][1] + 5.0, spans[0][2])
    problems = check_scheduler_caches(core, T0 + 1)
    assert any(p.startswith(f"kept plan: {' '.join(key)}") for p in problems)


@pytest.mark.no_validate_state  # changes a task behind the core's back on purpose
def test_the_kept_plan_looks_at_what_its_logs_name_and_at_all_once_they_lost_count() -> None:
    """A task's start time changed without its spool row (so no log names it) stays as it
    was in the kept plan, and the check against a rebuild names that; once the bookings'
    log has lost count, the next look takes in every task again."""
    core = _one_reserving_job_running()
    [end] = _ends(core)
    [(job_id, task_id)] = _kept(core).plan.tasks
    task = core.jobs[job_id].tasks[task_id]
    assert task.start_time is not None
    task.start_time += 30.0
    problems = check_scheduler_caches(core, T0 + 1)
    assert any(p.startswith("kept plan: ") for p in problems)
    assert _ends(core) == [end]
    watch = core.booked.watch
    assert watch is not None
    watch.lose()
    assert check_scheduler_caches(core, T0 + 1) == []
    assert _ends(core) == [end + 30.0]


def test_a_planner_on_the_kept_plan_finds_the_ends_a_rebuilt_one_does() -> None:
    """Tasks put, put again with a new end and dropped; one overdue: the moments bookings
    end, and the levels that end then, are those of a planner built from every task."""
    debits = {
        (1, 1): (("host", "h1", "slots", 2.0), ("queue", "a.q@h1", "slots", 2.0)),
        (2, 1): (("host", "h1", "slots", 1.0), ("pe", "mpi", "slots", 1.0)),
        (3, 1): (("host", "h2", "slots", 1.0),),
        (4, 1): (("host", "h2", "slots", 4.0), ("host", "h2", "mem", 1.0)),
    }
    kept = RunningPlan()
    for i, (task, held) in enumerate(debits.items()):
        kept.put(task, held, 100.0 + 10 * (i % 2))
    kept.put((3, 1), debits[(3, 1)], 5.0)  # overdue at 50
    kept.drop((2, 1))
    ends = {task: end for task, (_, end) in kept.tasks.items()}
    t = table()
    on_kept = Planner(View(jobs=[], queues=[], complexes=t, running_plan=kept), 50.0)
    running = [Running(debits[task], end) for task, end in ends.items()]
    rebuilt = Planner(View(jobs=[], queues=[], complexes=t, running=running), 50.0)
    for planner in (on_kept, rebuilt):
        planner.add((("host", "h2", "slots", 1.0),), 50.0, 100.0)
    got = {e: set(levels) for e, levels in on_kept.ends().items()}
    assert got == {e: set(levels) for e, levels in rebuilt.ends().items()}
    assert got == {51.0: {("host", "h2")}, 100.0: {("host", "h1"), ("queue", "a.q@h1"), ("host", "h2")},
                   110.0: {("host", "h2")}}  # fmt: skip


def test_peaks_kept_on_the_plan_follow_tasks_put_and_dropped_between_passes() -> None:
    """A pass's planner keeps the peaks it worked out on the kept plan; after a task is put
    on the same level (and another dropped) the next pass's planner finds what a planner
    built from every task finds."""
    key = ("host", "h1", "slots")
    kept = RunningPlan()
    kept.put((1, 1), ((*key, 2.0),), 100.0)
    kept.put((2, 1), ((*key, 1.0),), 200.0)
    windows = [(60.0, 160.0), (100.0, 200.0), (150.0, 250.0)]
    first = Planner(View(jobs=[], queues=[], complexes=table(), running_plan=kept), 50.0)
    assert [first.peak(key, *w) for w in windows] == [3.0, 1.0, 1.0]
    kept.put((3, 1), ((*key, 4.0),), 180.0)
    kept.drop((1, 1))
    again = Planner(View(jobs=[], queues=[], complexes=table(), running_plan=kept), 55.0)
    running = [Running(((*key, 1.0),), 200.0), Running(((*key, 4.0),), 180.0)]
    rebuilt = Planner(View(jobs=[], queues=[], complexes=table(), running=running), 55.0)
    assert [again.peak(key, *w) for w in windows] == [rebuilt.peak(key, *w) for w in windows]
    assert [again.peak(key, *w) for w in windows] == [5.0, 5.0, 5.0]


@pytest.mark.no_validate_state  # corrupts the kept peaks on purpose
def test_a_wrong_kept_peak_is_reported() -> None:
    core = _one_reserving_job_running()
    plan = _kept(core).plan
    key, spans = next(iter(plan.spans.items()))
    plan.peaks[key] = (list(spans), {(T0 + 500.0, T0 + 600.0): 7.0})
    problems = check_scheduler_caches(core, T0 + 1)
    assert any(p.startswith(f"kept peaks: {' '.join(key)}") for p in problems)
    del plan.peaks[key]
    assert check_scheduler_caches(core, T0 + 1) == []


@pytest.mark.parametrize("step", [-20, 20])
def test_a_cores_kept_search_bounds_agree_with_a_rebuild_as_tasks_end(step: int) -> None:
    """Four hosts of 4 slots busy with tasks of different lengths (with ``step`` -20 those
    that end first are expected to end last: the first end stays; with 20 each pass's
    first end is a later one); a 12-slot ``-R y`` job gets a reservation pass after pass
    while tasks end: its search takes the bounds it kept at the same or an earlier first
    time, and every stimulus's check (the kept bounds against the rooms on the kept plan)
    finds nothing."""
    core = _reserving_core()
    for i in range(16):
        h_rt = 400 + step * i
        submit(core, CMDARGS=[str(20 + 10 * i)], l_hard={"h_rt": str(h_rt)}, R=True)
    core.tick(T0)
    core.tick(T0 + 1)
    submit(core, CMDARGS=["50"], l_hard={"h_rt": "100"}, pe_name="mpi", pe_min=12, pe_max=12,
           R=True)  # fmt: skip
    for t in range(2, 200, 7):
        core.tick(T0 + t)
        assert check_scheduler_caches(core, T0 + t) == []
    kept = core.derived[KEPT_KEY][1]
    assert isinstance(kept, KeptView)
    assert kept.cache.get(KEPT_BOUNDS)
