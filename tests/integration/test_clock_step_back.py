"""A wall clock stepped back does not reach the core: the daemon goes on, and logs it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from qmaster.clock import VirtualClock
from tests.integration.live import LiveDaemon, job, start_daemon, wait_for

pytestmark = pytest.mark.timeout(60)
T0 = 1_767_225_600.0


@pytest.fixture
def stepped(tmp_path: Path) -> Iterator[tuple[LiveDaemon, VirtualClock]]:
    clock = VirtualClock(T0)
    running = start_daemon(tmp_path / "sge", clock=clock)
    try:
        yield running, clock
    finally:
        running.stop()


def test_requests_and_ticks_go_on_after_the_clock_steps_back(
    stepped: tuple[LiveDaemon, VirtualClock],
) -> None:
    """An hour back: jobs are still taken, then run once the clock is past the core's time
    again; clock_stepped_back is logged once."""
    live, clock = stepped
    with structlog.testing.capture_logs() as logs:
        clock.set(T0 - 3600)
        job_id = live.call("submit", job("100")).data["job_id"]
        assert live.call("job_list", {}).data["jobs"][0]["state"] == "qw"
        clock.set(T0 + 5)
        wait_for(lambda: live.call("job_list", {}).data["jobs"][0]["state"] == "r", what="r")
    assert [e["event"] for e in logs if e["event"] == "clock_stepped_back"] == [
        "clock_stepped_back"
    ]
    assert live.daemon.core.jobs[job_id].submit_time == T0
