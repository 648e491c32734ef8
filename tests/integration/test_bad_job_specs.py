"""Job specifications a GDI client may send that the daemon must refuse in Grid Engine's words."""

from __future__ import annotations

import pytest

from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(60)


def running_ids(live: LiveDaemon) -> set[int]:
    rows = live.call("job_list", {"users": ["*"]}).data["jobs"]
    return {r["job_id"] for r in rows if r["state"] == "r"}


def test_unparseable_time_request_is_refused_and_does_not_stall_scheduling(
    live: LiveDaemon,
) -> None:
    """-l h_rt=garbage is refused at submit, and other jobs still get scheduled."""
    reply = live.call("submit", job("100", l_hard={"h_rt": "garbage"}))
    assert not reply.ok
    assert "h_rt" in reply.answers[0].text
    good = live.call("submit", job("100")).data["job_id"]
    wait_for(lambda: good in running_ids(live), timeout=5, what="the good job to run")


def test_a_good_job_runs_beside_pending_ones(live: LiveDaemon) -> None:
    """With a held job pending, a normal job is still dispatched within a few seconds."""
    live.call("submit", job("100", h=True))
    good = live.call("submit", job("100")).data["job_id"]
    wait_for(lambda: good in running_ids(live), timeout=5, what="the good job to run")


def test_unknown_resource_request_is_refused(live: LiveDaemon) -> None:
    """A request for a complex that does not exist is refused naming the resource."""
    reply = live.call("submit", job("100", l_hard={"nosuch": "1"}))
    assert not reply.ok
    assert '"nosuch"' in reply.answers[0].text
    assert live.call("job_list", {}).data["jobs"] == []


def test_unknown_resource_answer_is_just_the_reason(live: LiveDaemon) -> None:
    """The refusal is the bare reason 'unknown resource "nosuch"'; qsub adds its own prefix."""
    reply = live.call("submit", job("100", l_hard={"nosuch": "1"}))
    assert [a.text for a in reply.answers] == ['unknown resource "nosuch"']


def test_huge_task_range_is_refused_with_the_task_limit(live: LiveDaemon) -> None:
    """-t 1-2**70 is refused like any range over max_aj_tasks, not with an internal error."""
    reply = live.call("submit", job("100", t_min=1, t_max=2**70, t_step=1))
    assert not reply.ok
    assert "more than 75000 tasks" in reply.answers[0].text


def test_task_range_over_the_limit_is_refused(live: LiveDaemon) -> None:
    """-t 1-10**12 is refused: 'You try to submit a job with more than 75000 tasks'."""
    reply = live.call("submit", job("100", t_min=1, t_max=10**12, t_step=1))
    assert not reply.ok
    assert (
        reply.answers[0].text == "job rejected: You try to submit a job with more than 75000 tasks"
    )
    assert live.call("job_list", {}).data["jobs"] == []
