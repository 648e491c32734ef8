"""A bug the ticks keep running into on one job puts that job into error; the rest goes on."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import lifecycle
from qmaster.core.jobs import Job, Task
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.testing import record_internal_errors
from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = [pytest.mark.timeout(60), pytest.mark.expect_internal_errors]


def _states(live: LiveDaemon) -> dict[int, str]:
    rows = live.call("job_list", {"users": ["*"]}).data["jobs"]
    return {int(r["job_id"]): str(r["state"]) for r in rows}


def test_a_job_whose_start_always_fails_goes_into_error_and_others_run(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its task is Eqw with the bug as qstat -j's error reason; the other jobs run."""
    real_start = lifecycle.start
    bad: list[int] = []

    def start(core: Core, job_: Job, task: Task, now: float, out: Outcome) -> None:
        if job_.job_id in bad:
            raise RuntimeError(f"injected fault for job {job_.job_id}")
        real_start(core, job_, task, now, out)

    monkeypatch.setattr(lifecycle, "start", start)
    with record_internal_errors() as seen:
        bad.append(live.call("submit", job("100")).data["job_id"])
        good = live.call("submit", job("100")).data["job_id"]
        wait_for(lambda: _states(live) == {bad[0]: "Eqw", good: "r"}, what="Eqw and r")
        later = live.call("submit", job("100")).data["job_id"]
        wait_for(lambda: _states(live).get(later) == "r", what="a later job running")
    failures = [e for e in seen if e["event"] == "core_tick_failed"]
    assert len(failures) == 2  # once, then once more: then the job is in error, no more
    detail: dict[str, Any] = live.call("job_detail", {"job_ids": [str(bad[0])]}).data["jobs"][0]
    reasons = [t["message"] for t in detail["tasks"] if t["state"] == "Eqw"]
    assert reasons == [f"internal error in qmaster: RuntimeError: injected fault for job {bad[0]}"]


def test_an_error_put_there_by_the_qmaster_is_cleared_with_qmod_cj(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the bug is gone, qmod -cj sends the job back to pending and it runs."""
    real_start = lifecycle.start

    def start(core: Core, job_: Job, task: Task, now: float, out: Outcome) -> None:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(lifecycle, "start", start)
    job_id = live.call("submit", job("100")).data["job_id"]
    wait_for(lambda: _states(live) == {job_id: "Eqw"}, what="Eqw")
    monkeypatch.setattr(lifecycle, "start", real_start)
    reply = live.call("qmod", {"action": "cj", "targets": [str(job_id)]})
    assert "cleared error state of job" in reply.answers[0].text
    wait_for(lambda: _states(live) == {job_id: "r"}, what="running")
