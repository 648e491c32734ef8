"""A bug in a request handler or a timer must not leave half-changed state behind."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import machine
from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(60)


def test_handler_that_raises_leaves_the_state_as_spooled(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler that changes the core and then raises: the change is thrown away, the daemon goes on."""
    kept = live.call("submit", job("100", h=True)).data["job_id"]
    real = machine.HANDLERS["job_list"]

    def broken(core: Any, req: Any, now: float, out: Any) -> None:
        core.jobs.pop(kept)  # a half-done change...
        raise RuntimeError("bug")  # ...and then a bug

    monkeypatch.setitem(machine.HANDLERS, "job_list", broken)
    reply = live.call("job_list", {})
    assert [a.text for a in reply.answers] == ["internal error in qmaster; see its messages file"]
    monkeypatch.setitem(machine.HANDLERS, "job_list", real)
    rows = live.call("job_list", {}).data["jobs"]
    assert [r["job_id"] for r in rows] == [kept]
    assert live.call("submit", job("1")).ok
