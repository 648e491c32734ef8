"""A restart says in one log line how many jobs, tasks and reservations came back."""

from __future__ import annotations

import time
from pathlib import Path

from structlog.testing import capture_logs

from tests.integration.live import start_daemon
from tests.integration.test_ar_daemon import restart


def test_state_recovered_counts_jobs_tasks_and_ars(tmp_path: Path) -> None:
    """Two held jobs (one an array of 5 tasks) and one AR: jobs=2 tasks=6 ars=1."""
    live = start_daemon(tmp_path / "sge")
    try:
        array = {"CMDNAME": "x", "h": True, "t_min": 1, "t_max": 5}
        assert live.call("submit", {"job": array}).ok
        assert live.call("submit", {"job": {"CMDNAME": "x", "h": True}}).ok
        assert live.call("ar_submit", {"ar": {"a": time.time() + 600, "d": 60.0}}).ok
        with capture_logs() as logs:
            live = restart(live)
        assert live.call("job_list", {"users": None}).ok
    finally:
        live.stop()
    lines = [e for e in logs if e["event"] == "state_recovered"]
    assert len(lines) == 1
    assert {k: lines[0][k] for k in ("jobs", "tasks", "ars")} == {"jobs": 2, "tasks": 6, "ars": 1}
    assert lines[0]["seconds"] >= 0
