"""Resource quota sets in the scheduler: which jobs start, why the others wait, the counts."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Core
from qmaster.core.quotaview import usage
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, request, run_until, submit

LONG = ["10000"]


def _core(*limits: str, enabled: str = "true") -> Core:
    core = make_core()
    text = f"{{\nname q\nenabled {enabled}\n" + "".join(f"limit {lim}\n" for lim in limits) + "}\n"
    out = request(core, ROOT, "conf_modify", kind="rqs", text=text, add=True)
    assert not any(a.is_error for a in out.answers), out.answers
    request(core, ROOT, "conf_modify", kind="project", text="name p1\n", add=True)
    return core


def _run(core: Core, *jobs: tuple[Any, dict[str, Any]]) -> list[int]:
    """Submit ``(who, spec)`` jobs, let the scheduler work: the running jobs' ids."""
    for who, spec in jobs:
        submit(core, who, CMDARGS=LONG, **spec)
    run_until(core, T0 + 5)
    return sorted(j.job_id for j in core.jobs.values() if j.tasks)


def _info(core: Core, job_id: int) -> list[str]:
    detail = request(core, ROOT, "job_detail", job_ids=[str(job_id)]).data["jobs"][0]
    return list(detail["scheduling_info"])


A, B = (ALICE, {}), (BOB, {})


@pytest.mark.parametrize(
    ("limits", "jobs", "running", "why"),
    [
        # per user: {*} counts each user apart
        (["users {*} to slots=2"], [A, A, A, B], [1, 2, 4], 'limit "alice/////" in rule "q/1"'),
        # a plain list counts its users together
        (["users alice,bob to slots=2"], [A, B, A], [1, 2], 'limit "/////" in rule "q/1"'),
        # ! excludes; other users are not limited by the rule
        (["users !alice to slots=0"], [B, A], [2], 'limit "/////" in rule "q/1"'),
        # the first matching rule counts, later ones do not; a named rule says its name
        (
            ["name solo users alice to slots=1", "users {*} to slots=3"],
            [A, A, B, B, B, B],
            [1, 3, 4, 5],
            'limit "/////" in rule "q/solo"',
        ),
        # per host: one slot on each of the four hosts
        (["hosts {*} to slots=1"], [A] * 5, [1, 2, 3, 4], 'limit "////host'),
        # a rule for host1 only sends the jobs elsewhere
        (["queues all.q hosts host1 to slots=0"], [A] * 3, [1, 2, 3], None),
        # projects {*}: only jobs with a project count
        (
            ["projects {*} to slots=1"],
            [(ALICE, {"P": "p1"}), (ALICE, {"P": "p1"}), A],
            [1, 3],
            'limit "/p1////" in rule "q/1"',
        ),
        # !* : only jobs without a project
        (["projects !* to slots=1"], [A, A, (ALICE, {"P": "p1"})], [1, 3], 'in rule "q/1"'),
        # a parallel job's slots count together
        (
            ["users {*} to slots=4"],
            [(ALICE, {"pe_name": "make", "pe_min": 6, "pe_max": 6}), (BOB, {})],
            [2],
            'limit "alice/////" in rule "q/1"',
        ),
        (
            ["users {*} to slots=4"],
            [(ALICE, {"pe_name": "make", "pe_min": 4, "pe_max": 4})],
            [1],
            None,
        ),
        # a slot range is lowered to what the limit leaves: 4 of 2-8, none left after it
        (
            ["users {*} to slots=4"],
            [(ALICE, {"pe_name": "make", "pe_min": 2, "pe_max": 8}), A],
            [1],
            'limit "alice/////" in rule "q/1"',
        ),
    ],
)
def test_rules_decide_which_jobs_start(
    limits: list[str], jobs: list[tuple[Any, dict[str, Any]]], running: list[int], why: str | None
) -> None:
    core = _core(*limits)
    assert _run(core, *jobs) == running
    waiting = [i for i in range(1, len(jobs) + 1) if i not in running]
    if why is not None:
        assert any(
            why in line and "cannot run because it exceeds" in line
            for line in _info(core, waiting[0])
        )


def test_a_parallel_jobs_range_is_lowered_to_the_limit() -> None:
    core = _core("users {*} to slots=4")
    assert _run(core, (ALICE, {"pe_name": "make", "pe_min": 2, "pe_max": 8})) == [1]
    counted = usage(core)
    assert counted is not None
    assert counted.totals == {("q", 0, "slots", "alice/////"): 4.0}


def test_the_rest_of_a_held_back_group_shares_its_reason() -> None:
    """Once a limit holds a job back, its group's later jobs are not looked at in the pass;
    qstat -j gives them the same reason."""
    core = _core("users {*} to slots=2")
    assert _run(core, A, A, A, A, A) == [1, 2]
    why = 'cannot run because it exceeds limit "alice/////" in rule "q/1"'
    assert _info(core, 3) == _info(core, 5) == [why]


def test_a_disabled_set_limits_nothing() -> None:
    core = _core("users {*} to slots=0", enabled="false")
    assert _run(core, A, A) == [1, 2]
    assert usage(core) is None


def test_counts_follow_tasks_and_a_change_of_the_set() -> None:
    """The counts change as tasks start and end; a modified set counts the running anew."""
    core = _core("users {*} to slots=2")
    assert _run(core, A, A, A) == [1, 2]
    counted = usage(core)
    assert counted is not None
    assert counted.totals == {("q", 0, "slots", "alice/////"): 2.0}
    request(core, ROOT, "delete", job_ids=["1"], users=None, force=True)
    run_until(core, T0 + 10)
    assert sorted(j.job_id for j in core.jobs.values() if j.tasks) == [2, 3]
    text = "{\nname q\nenabled true\nlimit hosts {*} to slots=1\n}\n"
    request(core, ROOT, "conf_modify", kind="rqs", text=text, select="q")
    again = usage(core)
    assert again is not None
    assert sum(again.totals.values()) == 2.0
    assert all(key[3].startswith("////host") for key in again.totals)
