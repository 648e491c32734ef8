"""A spool that cannot be written: the request is refused, nothing changes, the daemon goes on."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.spool.database import SpoolFull
from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(60)


def job_ids(live: LiveDaemon) -> list[int]:
    return sorted(r["job_id"] for r in live.call("job_list", {"users": ["*"]}).data["jobs"])


def test_commit_failure_rejects_the_submit_and_keeps_the_job_list(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the spool raises SpoolFull, the submit gets an error and no job appears."""
    live.call("submit", job("100", h=True))
    real_commit = live.daemon.spool.commit

    def full(delta: Any) -> None:
        raise SpoolFull("database or disk is full")

    monkeypatch.setattr(live.daemon.spool, "commit", full)
    reply = live.call("submit", job("100", h=True))
    assert not reply.ok
    (answer,) = reply.answers
    assert "couldn't be written" in answer.text
    assert "full" in answer.text
    assert job_ids(live) == [1]
    monkeypatch.setattr(live.daemon.spool, "commit", real_commit)
    again = live.call("submit", job("100", h=True))
    assert again.ok
    assert job_ids(live) == [1, again.data["job_id"]]


def test_commit_failure_on_delete_keeps_the_job(
    live: LiveDaemon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delete that cannot be spooled is refused and the job is still listed afterwards."""
    live.call("submit", job("100", h=True))

    def full(delta: Any) -> None:
        raise SpoolFull("database or disk is full")

    monkeypatch.setattr(live.daemon.spool, "commit", full)
    reply = live.call("delete", {"job_ids": ["1"]})
    assert not reply.ok
    assert job_ids(live) == [1]


def test_a_size_capped_database_refuses_growth_and_serves_on(live: LiveDaemon) -> None:
    """With the database capped at its current size, a big job is refused; small reads go on."""
    spool = live.daemon.spool
    pages = spool._db.execute("PRAGMA page_count").fetchone()[0]
    spool.set_max_pages(pages)
    big = job("100", h=True, v={f"VAR{i}": "x" * 200 for i in range(400)})
    reply = live.call("submit", big)
    assert not reply.ok
    assert "couldn't be written" in reply.answers[0].text
    assert job_ids(live) == []
    assert live.alive()
    spool.set_max_pages(1 << 30)
    assert live.call("submit", big).ok
    assert job_ids(live) == [1]
