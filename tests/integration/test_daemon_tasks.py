"""The daemon's background work runs under its TaskGroup and ends with it."""

from __future__ import annotations

import time
from pathlib import Path

from qmaster.conf.settings import DaemonSettings
from tests.integration.live import start_daemon


def test_a_client_stuck_inside_a_frame_is_disconnected_and_the_daemon_stops_cleanly(
    tmp_path: Path,
) -> None:
    """A connection that sends half a frame and goes quiet is closed after the idle timeout."""
    live = start_daemon(tmp_path / "sge", DaemonSettings(request_timeout=0.2))  # idle: 1.2 s
    try:
        sock = live.connect()
        sock.sendall(b"\x00\x00\x00\x10{")  # a 16-byte frame, 1 byte of it sent
        started = time.monotonic()
        assert sock.recv(1 << 16) == b""  # closed by the daemon, not by our 10 s timeout
        assert time.monotonic() - started < 5.0
        sock.close()
        assert live.alive()
    finally:
        live.stop()
    assert not live.thread.is_alive(), "daemon did not stop"
    assert not live.error, f"daemon failed: {live.error!r}"
