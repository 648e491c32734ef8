"""Fixtures: a qmaster daemon running in this process on a temporary cell."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.live import LiveDaemon, start_daemon


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveDaemon]:
    """A running in-process daemon on a fresh cell; stopped (and checked) afterwards."""
    running = start_daemon(tmp_path / "sge")
    try:
        yield running
    finally:
        running.stop()
    assert not running.thread.is_alive(), "daemon did not stop"
    assert not running.error, f"daemon failed: {running.error!r}"
