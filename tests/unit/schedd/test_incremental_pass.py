"""The pass on kept state (levels, requests, the grouped pending index, category skipping)
decides exactly what a pass built from scratch decides, whatever users do in between."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmaster.core import Core
from qmaster.core.pendingindex import PassReasons, kept_index, pass_view
from qmaster.core.schedstate import check_scheduler_caches, scratch_view
from schedd import Plan, schedule
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, request, submit

REQUESTS: tuple[dict[str, str], ...] = (
    {},
    {"arch": "lx-amd64"},
    {"arch": "sol*"},  # no host offers it: never
    {"h_rt": "100"},
    {"h_rt": "200", "arch": "lx*"},
)

submits = st.fixed_dictionaries(
    {
        "who": st.sampled_from([ALICE, BOB]),
        "l_hard": st.sampled_from(REQUESTS),
        "p": st.sampled_from([-10, 0, 0, 10]),
        "h": st.booleans(),
        "tasks": st.sampled_from([0, 0, 3]),
        "runtime": st.sampled_from(["5", "50"]),
        "after": st.sampled_from([None, None, 1, 3]),
    }
)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("submit"), submits),
        st.tuples(st.just("delete"), st.integers(1, 40)),
        st.tuples(st.just("release"), st.integers(1, 40)),
        st.tuples(st.just("tick"), st.integers(1, 30)),
        st.tuples(st.just("qmod"), st.sampled_from(["d", "e"])),
        st.tuples(st.just("weight"), st.sampled_from(["0.5", "1.0"])),
    ),
    min_size=1,
    max_size=25,
)


def _submit(core: Core, now: float, s: dict[str, Any]) -> None:
    spec: dict[str, Any] = {"CMDARGS": [s["runtime"]], "p": s["p"], "h": s["h"]}
    if s["l_hard"]:
        spec["l_hard"] = dict(s["l_hard"])
    if s["after"]:
        spec["hold_jid"] = [str(s["after"])]
    if s["tasks"]:
        spec.update(t_min=1, t_max=s["tasks"])
    submit(core, s["who"], now, **spec)


def _set_weight(core: Core, now: float, weight: str) -> None:
    """qconf -msconf with another weight_priority."""
    lines = core.config.sched_conf.render().splitlines()
    text = "\n".join(
        f"weight_priority {weight}" if x.startswith("weight_priority") else x for x in lines
    )
    out = request(core, ROOT, "conf_modify", now, kind="sched", text=text + "\n")
    assert not any(a.is_error for a in out.answers)


def _decisions(plan: Plan, reasons: dict[int, Any], job_ids: list[int]) -> Any:
    orders = [(o.job_id, o.task_id, o.assignment) for o in plan.orders]
    why = {j: sorted(r.text for r in reasons.get(j) or ()) for j in job_ids}
    return orders, why


def _compare(core: Core, now: float) -> None:
    assert check_scheduler_caches(core, now) == []
    full_view = scratch_view(core, now)
    full = schedule(full_view, now)
    waiting = [j.job_id for j in full_view.jobs]
    view, index = pass_view(core, now)
    mine = schedule(view, now)
    reasons: dict[int, Any] = mine.reasons
    if index is not None:
        reasons = PassReasons(mine.reasons, mine.skipped, index.waiting_group(core, now))
    assert _decisions(mine, reasons, waiting) == _decisions(full, full.reasons, waiting)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_kept_state_decides_as_a_rebuild(script: list[tuple[str, Any]]) -> None:
    """Submissions, deletions, releases, job ends, queue states and a new priority weight:
    every pass decides as one from scratch."""
    core = make_core()
    now = T0
    for op, arg in script:
        if op == "submit":
            _submit(core, now, arg)
        elif op == "delete":
            request(core, ROOT, "delete", now, job_ids=[str(arg)])
        elif op == "release":
            request(core, ROOT, "alter", now, job_ids=[str(arg)], job={}, hold="n")
        elif op == "qmod":
            request(core, ROOT, "qmod", now, action=arg, targets=["all.q@host1"], force=False)
        elif op == "weight":
            _set_weight(core, now, arg)
        else:
            now += arg
        _compare(core, now)
        core.tick(now)
    _compare(core, now)


def test_skipped_jobs_keep_their_reasons() -> None:
    """Jobs no queue can ever run are skipped by category, and qstat -j still says why."""
    core = make_core()
    for _ in range(30):
        submit(core, CMDARGS=["5"], l_hard={"arch": "sol-sparc64"})
    core.tick(T0)
    out = request(core, ROOT, "job_detail", T0, job_ids=["30"])
    info = out.data["jobs"][0]["scheduling_info"]
    assert any("sol-sparc64" in line for line in info)


@pytest.mark.no_validate_state  # corrupts the kept state on purpose
def test_a_corrupted_cache_is_reported() -> None:
    """check_scheduler_caches names a kept level or booking that no longer matches."""
    core = make_core()
    submit(core, CMDARGS=["50"])
    core.tick(T0)
    assert check_scheduler_caches(core, T0) == []
    core.booked.used[("queue", "all.q@host1")] = {"slots": 3.0}
    core.derived["sched_levels"][1].glob.values["arch"] = "bogus"  # type: ignore[attr-defined]
    problems = check_scheduler_caches(core, T0)
    assert any("booked queue all.q@host1" in p for p in problems)
    assert any("level global" in p for p in problems)


def test_the_filed_jobs_stay_out_of_young_collections() -> None:
    """The index's map of filed jobs stays tracked through full collections, so a job filed
    later does not make the whole map a young object again (a plain dict of atoms is
    untracked by a full collection and tracked as young by the next insertion: every
    collection of the young generations then walked all its entries, tens of ms at 1M)."""
    core = make_core()
    for _ in range(20):
        submit(core, CMDARGS=["5"], l_hard={"arch": "sol-sparc64"})
    core.tick(T0)
    index = kept_index(core)
    assert index is not None
    assert len(index.where) == 20
    for _ in range(3):
        gc.collect()
    assert gc.is_tracked(index.where)
    submit(core, CMDARGS=["5"], l_hard={"arch": "sol-sparc64"})
    core.tick(T0 + 1)
    assert len(index.where) == 21
    assert not any(young is index.where for young in gc.get_objects(generation=0))


@pytest.mark.no_validate_state  # corrupts the kept view on purpose
def test_a_stale_kept_view_is_reported() -> None:
    """The kept view (levels with their bookings) is checked against a rebuild: a level
    the bookings did not mark is named."""
    core = make_core()
    submit(core, CMDARGS=["50"])
    core.tick(T0)
    view, _ = pass_view(core, T0)
    schedule(view, T0)  # books into the kept view; nothing dispatched: undone at the next look
    assert check_scheduler_caches(core, T0) == []
    kept = core.derived["kept_view"][1]
    kept.queues[-1].queue_level.used["slots"] = 7.0  # type: ignore[attr-defined]
    problems = check_scheduler_caches(core, T0)
    assert any(p.startswith("kept view: queue instance") for p in problems)
