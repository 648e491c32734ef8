"""Advance reservations through the real daemon: GDI round trips, reporting, restarts."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from qmaster.daemon import Daemon, DaemonSettings
from tests.integration.live import LiveDaemon, job, start_daemon, wait_for

pytestmark = pytest.mark.timeout(60)

FULL_SPEC: dict[str, Any] = {
    "d": 7200.0, "N": "night", "A": "proj", "l_hard": {"arch": "lx-amd64"},
    "u": ["root", "alice"], "q_hard": ["all.q"], "pe_name": "mpi", "pe_min": 2,
    "pe_max": 4, "masterq": ["all.q@host1"], "ckpt": "blcr", "now": False, "m": "bea",
    "M": ["root@example.org"], "he": True,
}  # fmt: skip


def restart(live: LiveDaemon) -> LiveDaemon:
    """Stop the daemon and serve the same cell again (no re-initialisation)."""
    live.stop()
    daemon = Daemon(live.cell, DaemonSettings())
    again = LiveDaemon(live.cell, daemon, threading.Thread(target=lambda: None))
    ready = threading.Event()

    def serve() -> None:
        async def main() -> None:
            again.loop = asyncio.get_running_loop()
            await daemon.run(ready=ready.set)

        try:
            asyncio.run(main())
        except BaseException as exc:
            again.error.append(exc)
            ready.set()

    again.thread = threading.Thread(target=serve, name="qmaster2", daemon=True)
    again.thread.start()
    assert ready.wait(20)
    return again


def test_granted_ar_reads_back_identical_after_a_restart(tmp_path: Path) -> None:
    """An AR made with every option shows the same qrstat row after the daemon restarts."""
    live = start_daemon(tmp_path / "sge")
    try:
        live.call("conf_modify", {"kind": "ckpt", "text": "ckpt_name blcr\n", "add": True})
        text = live.call("conf_show", {"kind": "cqueue", "name": "all.q"}).data["text"]
        text = "\n".join(
            "ckpt_list blcr" if line.startswith("ckpt_list") else line for line in text.splitlines()
        )
        assert live.call("conf_modify", {"kind": "cqueue", "text": text + "\n"}).ok
        reply = live.call("ar_submit", {"ar": {**FULL_SPEC, "a": time.time() + 600}})
        assert [a.text for a in reply.answers] == ["Your advance reservation 1 has been granted"]
        before = live.call("ar_list", {"users": None}).data["ars"]
        live = restart(live)
        after = live.call("ar_list", {"users": None}).data["ars"]
        assert after == before
        reply = live.call("ar_submit", {"ar": {"d": 60.0}})
        assert reply.data == {"ar_id": 2}
    finally:
        live.stop()


def test_reporting_gets_ar_records_and_ar_jobs_carry_arid(live: LiveDaemon) -> None:
    """new_ar, ar_attr and ar_log lines are written; an AR job's accounting line has its arid."""
    reply = live.call("ar_submit", {"ar": {"d": 600.0}})
    ar_id = reply.data["ar_id"]
    reply = live.call("submit", job("1", ar=ar_id, l_hard={"h_rt": "60"}))
    assert reply.ok, reply.answers
    accounting = live.cell.common / "accounting"
    wait_for(lambda: accounting.exists() and accounting.read_text().strip() != "", timeout=20)
    fields = accounting.read_text().splitlines()[-1].split(":")
    assert fields[-2] == str(ar_id)
    reporting = (live.cell.common / "reporting").read_text()
    for kind in ("new_ar", "ar_attr", "ar_log"):
        assert f":{kind}:" in reporting
    reply = live.call("ar_delete", {"ar_ids": [str(ar_id)]})
    assert reply.answers[0].text.endswith(f"advance_reservation {ar_id}")


def test_unknown_ar_and_limit_over_the_wire(live: LiveDaemon) -> None:
    """Deleting an unknown AR is an error answer; a job naming one is refused."""
    reply = live.call("ar_delete", {"ar_ids": ["99"]})
    assert [a.text for a in reply.answers] == ['denied: advance_reservation "99" does not exist']
    reply = live.call("submit", job("1", ar=99))
    assert not reply.ok
    assert "the advance reservation id 99 is invalid" in reply.answers[0].text
