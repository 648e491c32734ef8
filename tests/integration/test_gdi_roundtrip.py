"""The in-process daemon over its real socket: submit, list, detail, delete, identity, shutdown."""

from __future__ import annotations

import os
import pwd

import pytest
import structlog

from tests.integration.live import LiveDaemon, job, wait_for

ME = pwd.getpwuid(os.getuid()).pw_name


def test_submit_is_acknowledged_with_grid_engine_text(live: LiveDaemon) -> None:
    """A submit is answered with qsub's 'Your job N ("name") has been submitted' and the id."""
    reply = live.call("submit", job("100"))
    assert reply.ok
    assert reply.data["job_id"] == 1
    assert [a.text for a in reply.answers] == ['Your job 1 ("sleep") has been submitted']
    second = live.call("submit", job("100", N="second"))
    assert second.data["job_id"] == 2
    assert second.answers[0].text == 'Your job 2 ("second") has been submitted'


def test_submitted_jobs_are_listed_with_owner_and_name(live: LiveDaemon) -> None:
    """job_list shows every submitted job, owned by the caller, under its name."""
    for name in ("a", "b", "c"):
        live.call("submit", job("100", N=name))
    rows = live.call("job_list", {"users": ["*"]}).data["jobs"]
    assert sorted((r["job_id"], r["name"], r["owner"]) for r in rows) == [
        (1, "a", ME),
        (2, "b", ME),
        (3, "c", ME),
    ]


def test_job_detail_returns_the_stored_spec_and_reports_missing_ids(live: LiveDaemon) -> None:
    """job_detail gives the job's spec back as stored (TIME in seconds) and lists unknown ids."""
    live.call("submit", job("100", N="detailed", l_hard={"h_rt": "0:10:0"}))
    data = live.call("job_detail", {"job_ids": ["1", "42"]}).data
    assert data["missing"] == ["42"]
    (detail,) = data["jobs"]
    assert detail["owner"] == ME
    assert detail["uid"] == os.getuid()
    assert detail["job"]["N"] == "detailed"
    assert detail["job"]["CMDARGS"] == ["100"]
    assert detail["job"]["l_hard"] == {"h_rt": "600"}


def test_delete_removes_a_pending_job_from_the_list(live: LiveDaemon) -> None:
    """Deleting a pending job answers '<user> has deleted job N' and the job disappears."""
    live.call("submit", job("100", h=True))
    live.call("submit", job("100", h=True))
    reply = live.call("delete", {"job_ids": ["1"]})
    assert reply.ok
    assert reply.answers[0].text == f"{ME} has deleted job 1"
    ids = [r["job_id"] for r in live.call("job_list", {"users": ["*"]}).data["jobs"]]
    assert ids == [2]


def test_delete_of_an_unknown_job_is_denied(live: LiveDaemon) -> None:
    """Deleting a job that does not exist gets Grid Engine's 'denied: job "99" does not exist'."""
    reply = live.call("delete", {"job_ids": ["99"]})
    assert not reply.ok
    assert [a.text for a in reply.answers] == ['denied: job "99" does not exist']


def test_identity_comes_from_the_socket_not_the_request(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request claiming another user still acts as the real peer, and the lie is logged."""
    monkeypatch.setenv("MINIGE_DEBUG_FAKE_USER", "someoneelse")
    with structlog.testing.capture_logs() as logs:
        reply = live.call("submit", job("100"))
    assert reply.ok
    detail = live.call("job_detail", {"job_ids": ["1"]}).data["jobs"][0]
    assert (detail["owner"], detail["uid"]) == (ME, os.getuid())
    mismatches = [e for e in logs if e["event"] == "gdi_identity_mismatch"]
    assert mismatches
    assert mismatches[0]["claimed"] == "someoneelse"
    assert mismatches[0]["peer"] == ME


def test_shutdown_by_a_manager_stops_the_daemon_cleanly(live: LiveDaemon) -> None:
    """qconf -km (op shutdown) by a manager ends the daemon, removing its socket and pid file."""
    live.call("submit", job("100"))
    reply = live.call("shutdown")
    assert reply.ok
    live.thread.join(15)
    assert not live.thread.is_alive()
    assert not live.error
    assert not live.socket_path.exists()
    assert not live.cell.pidfile.exists()


def test_a_burst_of_concurrent_clients_gets_distinct_ids(live: LiveDaemon) -> None:
    """Many clients submitting at once each get an acknowledgement and no id twice."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda _: live.call("submit", job("100")), range(40)))
    ids = [r.data["job_id"] for r in replies]
    assert sorted(ids) == list(range(1, 41))
    rows = wait_for(lambda: live.call("job_list", {"users": ["*"]}).data["jobs"])
    assert {r["job_id"] for r in rows} == set(ids)
