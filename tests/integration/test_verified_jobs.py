"""Jobs verified at submission (``qsub -w e|w``) wait and run like any other job."""

from __future__ import annotations

import pytest

from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("mode", ["e", "w"])
def test_verified_job_runs_once_the_cell_has_room(live: LiveDaemon, mode: str) -> None:
    """A -w job that must wait for slots starts when they free up; the daemon stays healthy."""
    big = job("1", pe_name="mpi", pe_min=16, pe_max=16)
    assert live.call("submit", big).ok
    reply = live.call("submit", {**job("0"), "verify": mode})
    assert reply.ok, reply.answers
    waiting = reply.data["job_id"]

    def gone() -> bool:
        return not any(r["job_id"] == waiting for r in live.call("job_list", {}).data["jobs"])

    wait_for(gone, timeout=20, what=f"job {waiting} to run and end")
