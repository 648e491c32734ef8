"""The earliest-start search keeps its bounds at its first start time from pass to pass:
a later search at the same time reserves where a search from scratch does, whatever
changed in between, and the kept bounds are checked against a rebuild."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from qmaster.complexes.levels import Level
from schedd import PeState, Running, View, schedule
from schedd.kept import changed, track_changes
from schedd.keptbound import KEPT_KEY, first_bounds_differ
from schedd.reservation import RunningPlan
from schedd.view import QueueState
from tests.unit.schedd.helpers import job, queue, table, view

ENDS = {"h1": 100.0, "h2": 200.0, "h3": 300.0}
Kept = tuple[dict[Hashable, Any], RunningPlan]


def _cell() -> list[QueueState]:
    t = table()
    return [queue(t, "all.q", h, 4, pe_list="pe") for h in ENDS]


def _kept() -> Kept:
    """What a keeper that tracks its changes hands the scheduler, and a kept running plan."""
    kept: dict[Hashable, Any] = {}
    track_changes(kept)
    return kept, RunningPlan()


def _view(
    qs: list[QueueState],
    ends: dict[str, float],
    kept: Kept | None,
    second: dict[str, float] | None = None,
) -> View:
    """Every host's 4 slots taken by two tasks expected to end at ``ends[host]`` (the
    second one at ``second[host]``, when there; hosts not in ``ends``: free); a 6-slot
    ``-R y`` job waits. With ``kept``, the running tasks are put on (or dropped from) the
    kept plan and the queue instances whose tasks changed are named to the scheduler,
    as the qmaster's kept plan and kept view do."""
    running = []
    plan = kept[1] if kept is not None else None
    for i, q in enumerate(qs):
        busy = q.host in ends
        q.queue_level.used["slots"] = 4.0 if busy else 0.0
        debits = (("queue", q.name, "slots", 2.0), ("pe", "pe", "slots", 2.0))
        for task in (1, 2):
            end = ends.get(q.host, 0.0)
            end = (second or {}).get(q.host, end) if task == 2 else end
            if busy:
                running.append(Running(debits, end))
            if plan is None or plan.tasks.get((i, task)) == ((debits, end) if busy else None):
                continue
            plan.put((i, task), debits, end) if busy else plan.drop((i, task))
            assert kept is not None
            changed(kept[0], "queue", {q.name})
    wide = job(1, pe_name="pe", pe_min=6, pe_max=6, reserve=True, hard_resources={"h_rt": "50"})
    pes = [PeState("pe", 24, "$fill_up", used=4 * len(ends))]
    v = view(table(), qs, [wide], pes=pes, running=running, max_reservation=1)
    v.kept, v.running_plan = (kept[0] if kept is not None else None), plan
    return v


def _reserved(v: View, now: float) -> list[tuple[int, float, tuple[tuple[str, int], ...]]]:
    return [(r.job_id, r.start, r.assignment) for r in schedule(v, now).reservations]


def _differ(kept: Kept, v: View, now: float) -> list[str]:
    levels: dict[tuple[str, str], Level] = {("queue", q.name): q.queue_level for q in v.queues}
    levels.update({("host", q.host): v.host(q.host).level for q in v.queues})
    return first_bounds_differ(kept[0], kept[1], levels.get, now)


def test_a_search_on_kept_bounds_reserves_where_a_fresh_one_does() -> None:
    """Pass 1 reserves at 200 (h1 and h2 free then); before pass 2 h2's tasks end early:
    at 100 h1 and h2 give the 6 slots. The kept bounds at 100 said h2 had none."""
    qs, kept = _cell(), _kept()
    v = _view(qs, ENDS, kept)
    assert _reserved(v, 0.0) == [(1, 200.0, (("all.q@h1", 4), ("all.q@h2", 2)))]
    assert kept[0][KEPT_KEY]  # the search kept its bounds at 100
    assert _differ(kept, v, 0.0) == []
    ends = {"h1": 100.0, "h3": 300.0}
    fresh = _reserved(_view(_cell(), ends, None), 10.0)
    assert fresh == [(1, 100.0, (("all.q@h1", 4), ("all.q@h2", 2)))]
    v = _view(qs, ends, kept)
    assert _reserved(v, 10.0) == fresh
    assert _differ(kept, v, 10.0) == []


def test_a_search_on_kept_bounds_sees_a_task_expected_to_end_sooner() -> None:
    """One of h2's tasks is expected to end at 100 now (a new ``h_rt``): the kept running
    plan holds new spans for h2, and the search reserves at 100 as a fresh one does."""
    qs, kept = _cell(), _kept()
    _reserved(_view(qs, ENDS, kept), 0.0)
    sooner = {"h2": 100.0}
    fresh = _reserved(_view(_cell(), ENDS, None, sooner), 10.0)
    assert fresh == [(1, 100.0, (("all.q@h1", 4), ("all.q@h2", 2)))]
    v = _view(qs, ENDS, None, sooner)  # the keeper names nothing: the plan's log must tell
    v.kept, v.running_plan = kept
    plan = kept[1]
    plan.put((1, 2), (("queue", "all.q@h2", "slots", 2.0), ("pe", "pe", "slots", 2.0)), 100.0)
    assert _reserved(v, 10.0) == fresh


def test_a_search_on_kept_bounds_sees_a_queue_the_keeper_names() -> None:
    """h2's queue instance gets 8 slots before pass 2 (its tasks still hold 4 until 200),
    and the keeper names it: at 100 h1 and h2 give the 6 slots, though the kept bounds
    at 100 said h2 had none."""
    qs, kept = _cell(), _kept()
    assert _reserved(_view(qs, ENDS, kept), 0.0) == [(1, 200.0, (("all.q@h1", 4), ("all.q@h2", 2)))]
    v = _view(qs, ENDS, kept)
    qs[1].queue_level.capacity["slots"] = 8.0
    changed(kept[0], "queue", {"all.q@h2"})
    fresh_qs = _cell()
    fresh = _view(fresh_qs, ENDS, None)
    fresh_qs[1].queue_level.capacity["slots"] = 8.0
    want = _reserved(fresh, 10.0)
    assert want == [(1, 100.0, (("all.q@h1", 4), ("all.q@h2", 2)))]
    assert _reserved(v, 10.0) == want


def test_a_search_on_kept_bounds_at_a_later_first_time_starts_sooner() -> None:
    """Pass 1 (h3 free) keeps its bounds at 100, when h1's tasks end; before pass 2 tasks
    start on h3, expected to end at 60: the search starts at 60, where h1 has no room
    (the kept bounds at 100 said 4), and reserves at 100 as a fresh one does."""
    qs, kept = _cell(), _kept()
    first = {"h1": 100.0, "h2": 200.0}
    assert _reserved(_view(qs, first, kept), 0.0) == [
        (1, 100.0, (("all.q@h1", 4), ("all.q@h3", 2)))
    ]
    sooner = {**first, "h3": 60.0}
    fresh = _reserved(_view(_cell(), sooner, None), 10.0)
    v = _view(qs, sooner, kept)
    assert _reserved(v, 10.0) == fresh == [(1, 100.0, (("all.q@h1", 4), ("all.q@h3", 2)))]
    [bounds] = kept[0][KEPT_KEY].values()
    assert bounds.window == (60.0, 110.0)
    assert _differ(kept, v, 10.0) == []


def test_kept_bounds_that_differ_from_a_rebuild_are_reported() -> None:
    qs, kept = _cell(), _kept()
    v = _view(qs, ENDS, kept)
    _reserved(v, 0.0)
    [bounds] = kept[0][KEPT_KEY].values()
    bounds.queue_room[("queue", "all.q@h2")] = 4
    problems = _differ(kept, v, 0.0)
    assert any("all.q@h2') kept 4, rebuilt 0" in p for p in problems)
    assert any("queue sums differ" in p for p in problems)


def _quiet(v: View) -> View:
    v.job_info = False  # a search may take what the last one found only without job info
    return v


def test_a_later_search_with_nothing_changed_reserves_where_the_last_one_did() -> None:
    """Pass 2 comes 50 s later, no task started or ended: it takes what pass 1 found, the
    reservation a fresh search finds."""
    qs, kept = _cell(), _kept()
    first = _reserved(_quiet(_view(qs, ENDS, kept)), 0.0)
    [bounds] = kept[0][KEPT_KEY].values()
    assert bounds.outcome is not None
    fresh = _reserved(_quiet(_view(_cell(), ENDS, None)), 50.0)
    assert _reserved(_quiet(_view(qs, ENDS, kept)), 50.0) == fresh == first


def test_a_later_search_sees_a_task_expected_to_end_sooner_without_job_info() -> None:
    """As pass 1's, but one of h2's tasks is expected to end at 100 now: only the kept plan's
    log tells; the search reserves at 100, not where pass 1 did."""
    qs, kept = _cell(), _kept()
    first = _reserved(_quiet(_view(qs, ENDS, kept)), 0.0)
    sooner = {"h2": 100.0}
    fresh = _reserved(_quiet(_view(_cell(), ENDS, None, sooner)), 10.0)
    assert [start for _, start, _ in fresh] == [100.0] != [start for _, start, _ in first]
    v = _quiet(_view(qs, ENDS, None, sooner))  # the keeper names nothing
    v.kept, v.running_plan = kept
    kept[1].put((1, 2), (("queue", "all.q@h2", "slots", 2.0), ("pe", "pe", "slots", 2.0)), 100.0)
    assert _reserved(v, 10.0) == fresh


def test_a_later_search_sees_a_queue_the_keeper_names_without_job_info() -> None:
    """As pass 1's, but h2's queue instance has 8 slots now and the keeper names it (the
    plan is as it was): the search reserves at 100, not where pass 1 did."""
    qs, kept = _cell(), _kept()
    first = _reserved(_quiet(_view(qs, ENDS, kept)), 0.0)
    v = _quiet(_view(qs, ENDS, kept))
    qs[1].queue_level.capacity["slots"] = 8.0
    changed(kept[0], "queue", {"all.q@h2"})
    fresh_qs = _cell()
    fresh = _quiet(_view(fresh_qs, ENDS, None))
    fresh_qs[1].queue_level.capacity["slots"] = 8.0
    want = _reserved(fresh, 10.0)
    assert [start for _, start, _ in want] == [100.0] != [start for _, start, _ in first]
    assert _reserved(v, 10.0) == want
