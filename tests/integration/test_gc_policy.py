"""The daemon freezes the survivors of full collections; what it frees later is not lost."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvloop

from qmaster import gcpolicy
from qmaster.gdi import client
from tests.integration.live import LiveDaemon, job, start_daemon, wait_for

ROUNDS = 40


@pytest.fixture
def collector() -> Iterator[None]:
    """Start from an unfrozen heap and leave it so (other tests share this process)."""
    gc.unfreeze()
    gc.collect()
    yield
    gc.unfreeze()


@pytest.fixture
def uvlive(tmp_path: Path) -> Iterator[LiveDaemon]:
    """An in-process daemon on uvloop's event loop, as ``qmaster start`` runs it."""
    running = start_daemon(tmp_path / "sge", run=uvloop.run, gc_policy=True)
    try:
        yield running
    finally:
        running.stop()
    assert not running.error, f"daemon failed: {running.error!r}"


def _no_jobs(live: LiveDaemon) -> bool:
    reply = live.call("job_list", {"users": ["*"]})
    return reply.ok and not (reply.data or {}).get("jobs")


def test_a_full_collection_freezes_what_survives(uvlive: LiveDaemon, collector: None) -> None:
    """A full collection in a running daemon takes its survivors out of later walks."""
    assert uvlive.call("submit", job("1000")).ok
    before = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() > before
    gcpolicy.uninstall()  # the daemon's stop does the same: from then on nothing is frozen
    frozen = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() <= frozen  # frozen objects still go when dropped
    gcpolicy.install()


def test_frozen_objects_the_daemon_drops_leave_no_cycles(
    uvlive: LiveDaemon, collector: None
) -> None:
    """Jobs, connections and listings that outlive a full collection are freed when they go,
    not kept for ever as cyclic garbage among the frozen objects."""
    held = client.Connection(uvlive.socket_path, timeout=10)  # a long-lived client, closed later
    for n in range(ROUNDS):
        assert held.call("submit", job("0" if n % 2 else "1000")).ok
        assert uvlive.call("submit", job("1000", N=f"j{n}")).ok  # a connection of its own
        assert uvlive.call("job_list", {"users": ["*"]}).ok
        gc.collect()  # everything alive now is frozen, and then goes in the next rounds
        if n % 4 == 3:
            assert uvlive.call("delete", {"job_ids": ["*"], "users": ["*"], "force": True}).ok
    held.close()
    wait_for(lambda: _no_jobs(uvlive), what="every job gone")
    gc.collect()
    gc.unfreeze()
    found = gc.collect()  # cycles among objects that were frozen and dropped since
    assert found < ROUNDS, f"{found} objects in reference cycles after {ROUNDS} rounds"
