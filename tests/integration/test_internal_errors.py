"""A bug in a request handler or a timer must not leave half-changed state behind."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import machine
from qmaster.core.stimuli import JobList
from qmaster.testing import fail_on_internal_errors, record_internal_errors
from tests.integration.live import LiveDaemon, job

pytestmark = [pytest.mark.timeout(60), pytest.mark.expect_internal_errors]


def test_handler_that_raises_leaves_the_state_as_spooled(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler that changes the core and then raises: the change is thrown away, the daemon goes on."""
    kept = live.call("submit", job("100", h=True)).data["job_id"]
    real = machine.HANDLERS[JobList]

    def broken(core: Any, stimulus: Any, now: float, out: Any) -> None:
        core.jobs.pop(kept)  # a half-done change...
        raise RuntimeError("bug")  # ...and then a bug

    monkeypatch.setitem(machine.HANDLERS, JobList, broken)
    reply = live.call("job_list", {})
    assert [a.text for a in reply.answers] == ["internal error in qmaster; see its messages file"]
    monkeypatch.setitem(machine.HANDLERS, JobList, real)
    rows = live.call("job_list", {}).data["jobs"]
    assert [r["job_id"] for r in rows] == [kept]
    assert live.call("submit", job("1")).ok


def test_the_test_guard_sees_an_internal_error_of_the_daemon(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in the daemon is recorded by the guard every test runs under, so the test fails."""

    def broken(core: Any, stimulus: Any, now: float, out: Any) -> None:
        raise RuntimeError("bug")

    monkeypatch.setitem(machine.HANDLERS, JobList, broken)
    with record_internal_errors() as seen:
        live.call("job_list", {})
    assert [e["event"] for e in seen] == ["core_request_failed"]
    with pytest.raises(pytest.fail.Exception, match="core_request_failed"):
        fail_on_internal_errors(seen, None)
