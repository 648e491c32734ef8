"""What the daemon spooled is what it holds in memory, and its state passes validate_state."""

from __future__ import annotations

import asyncio

import pytest

from qmaster.core.spool_image import SpoolImage
from qmaster.spool.database import Spool
from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(60)


def _validate_against_the_spool(live: LiveDaemon) -> None:
    """In the daemon's loop: let the writes land, read the spool back, validate the core."""

    async def check() -> None:
        await live.daemon.committer.drain()
        spool = Spool(live.daemon.spool.path)
        try:
            snap = spool.load()
        finally:
            spool.close()
        image = SpoolImage.of_rows(snap.config, snap.jobs, snap.tasks, snap.counters, snap.ars)
        live.daemon.core.validate_state(image)

    assert live.loop is not None
    asyncio.run_coroutine_threadsafe(check(), live.loop).result(timeout=20)


def test_the_real_spool_holds_what_the_core_holds(live: LiveDaemon) -> None:
    """After submissions, holds, a deletion and a finished array task, spool == memory."""
    live.call("submit", job("100", t_min=1, t_max=3, t_step=1))
    live.call("submit", job("100", h=True))
    live.call("submit", job("0.2"))
    wait_for(lambda: 3 not in _ids(live), what="job 3 finished")
    live.call("delete", {"job_ids": ["1.2"]})
    live.call("qmod", {"action": "sj", "targets": ["1.1"]})
    _validate_against_the_spool(live)


def _ids(live: LiveDaemon) -> set[int]:
    return {int(r["job_id"]) for r in live.call("job_list", {}).data["jobs"]}
