"""Requests that cannot be compiled are refused, and one job's fault never stops a pass."""

from __future__ import annotations

import pytest

from schedd import pass_, schedule
from schedd.view import JobRequest
from tests.unit.core.helpers import ALICE, T0, make_core, request, states, submit, texts
from tests.unit.schedd.helpers import job, placed, queue, table, view


@pytest.mark.parametrize("verify", ["n", "v", "e"])
def test_reversed_range_is_refused_at_submit(verify: str) -> None:
    """qsub -l 'arch=[z-a]x' (any -w) is refused with a clear error, not an internal one."""
    core = make_core()
    out = submit(core, ALICE, verify=verify, l_hard={"arch": "[z-a]x"})
    assert len(out.answers) == 1
    assert out.answers[0].is_error
    assert 'invalid expression "[z-a]x"' in texts(out)[0]
    assert 'attribute "arch"' in texts(out)[0]
    assert not core.jobs


def test_bad_expression_is_refused_by_qalter() -> None:
    """qalter -l 'arch=lx&' is refused and leaves the job as it was."""
    core = make_core()
    submit(core, ALICE, l_hard={"arch": "lx*"}, h=True)
    out = request(core, ALICE, "alter", job_ids=["1"], job={"l_hard": {"arch": "lx&"}})
    assert any("invalid expression" in t for t in texts(out))
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"arch": "lx*"}


def test_bad_stored_expression_leaves_other_jobs_running() -> None:
    """A job whose expression cannot compile (e.g. spooled earlier) waits; the others start."""
    tbl = table()
    q = queue(tbl, "all.q", "host1", 4)
    bad = job(1, hard_resources={"arch": "[z-a]x"})
    plan = schedule(view(tbl, [q], [bad, job(2), job(3)]), 0.0)
    assert set(placed(plan)) == {2, 3}
    assert 1 in plan.reasons


def test_a_job_whose_matching_raises_does_not_stop_the_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fault while matching one job keeps that job pending with the fault; later jobs start."""
    real = pass_._Pass.job

    def flaky(self: pass_._Pass, j: JobRequest) -> None:
        if j.job_id == 1:
            raise RuntimeError("boom")
        real(self, j)

    monkeypatch.setattr(pass_._Pass, "job", flaky)
    tbl = table()
    plan = schedule(view(tbl, [queue(tbl, "all.q", "host1", 4)], [job(1), job(2)]), 0.0)
    assert set(placed(plan)) == {2}
    assert plan.failed == {1: "RuntimeError: boom"}
    assert [r.text for r in plan.reasons[1]] == ["job could not be matched: boom"]


def test_core_pass_goes_on_after_a_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the core, the faulty job stays qw and is logged; the next job runs."""
    real = pass_._Pass.job

    def flaky(self: pass_._Pass, j: JobRequest) -> None:
        if j.job_id == 1:
            raise RuntimeError("boom")
        real(self, j)

    monkeypatch.setattr(pass_._Pass, "job", flaky)
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"])
    submit(core, ALICE, CMDARGS=["100"])
    out = core.tick(T0 + 1)
    shown = states(core, T0 + 1)
    assert shown["1"] == "qw"
    assert shown["2"] in ("t", "r")
    assert ("scheduler_job_failed", {"job_id": 1, "error": "RuntimeError: boom"}) in out.logs
