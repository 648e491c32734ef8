"""Resource quota sets through the real daemon: spooled, recovered, and still counting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.live import LiveDaemon, job, start_daemon, wait_for
from tests.integration.test_ar_daemon import restart

pytestmark = pytest.mark.timeout(60)

SETS = (
    "{\n   name         cap\n   description  NONE\n   enabled      TRUE\n"
    "   limit        users {*} to slots=2\n}\n"
    "{\n   name         spare\n   description  NONE\n   enabled      FALSE\n"
    "   limit        to slots=0\n}\n"
)


def _running(live: LiveDaemon) -> list[int]:
    rows = live.call("job_list", {}).data["jobs"]
    return sorted(int(r["job_id"]) for r in rows if r["state"] == "r")


def _info(live: LiveDaemon, job_id: int) -> list[str]:
    reply = live.call("job_detail", {"job_ids": [str(job_id)]})
    return list(reply.data["jobs"][0]["scheduling_info"])


def test_sets_and_their_counts_survive_a_restart(tmp_path: Path) -> None:
    """The spooled sets read back as they were shown; after the restart the running jobs
    still count, so the third job keeps waiting."""
    live = start_daemon(tmp_path / "sge")
    try:
        assert live.call("conf_modify", {"kind": "rqs", "text": SETS, "add": True}).ok
        gone = live.call("conf_delete", {"kind": "rqs", "name": "spare", "members": []})
        assert gone.ok
        for _ in range(3):
            live.call("submit", job("1000"))
        wait_for(lambda: _running(live) == [1, 2], what="two jobs running")
        live.validate_state()
        shown = live.call("conf_show", {"kind": "rqs", "name": ""}).data["text"]
        live = restart(live)
        assert live.call("conf_show", {"kind": "rqs", "name": ""}).data["text"] == shown
        assert live.call("conf_show", {"kind": "rqs", "name": None}).data == {"names": ["cap"]}
        live.call("submit", job("1000"))  # its reason comes from a pass after the restart
        wait_for(lambda: any("exceeds limit" in t for t in _info(live, 4)), what="job 4 waits")
        assert _running(live) == [1, 2]
    finally:
        live.stop()
