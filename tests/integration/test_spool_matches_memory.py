"""What the daemon spooled is what it holds in memory, and its state passes validate_state."""

from __future__ import annotations

import pytest

from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(60)


def test_the_real_spool_holds_what_the_core_holds(live: LiveDaemon) -> None:
    """After submissions, holds, a deletion and a finished array task, spool == memory."""
    live.call("submit", job("100", t_min=1, t_max=3, t_step=1))
    live.call("submit", job("100", h=True))
    live.call("submit", job("0.2"))
    wait_for(lambda: 3 not in _ids(live), what="job 3 finished")
    live.call("delete", {"job_ids": ["1.2"]})
    live.call("qmod", {"action": "sj", "targets": ["1.1"]})
    live.validate_state()


def _ids(live: LiveDaemon) -> set[int]:
    return {int(r["job_id"]) for r in live.call("job_list", {}).data["jobs"]}
