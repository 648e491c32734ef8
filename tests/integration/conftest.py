"""Fixtures: a qmaster daemon running in this process on a temporary cell."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.conf.settings import DaemonSettings
from qmaster.testing import fail_on_internal_errors, private_tmpdir, record_internal_errors
from tests.integration.live import LiveDaemon, start_daemon


@pytest.fixture(autouse=True)
def _no_internal_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test fails when an in-process daemon logged an internal error while it ran."""
    with record_internal_errors() as seen:
        yield
    fail_on_internal_errors(seen, request.node)


def _serving(
    cell: Path, settings: DaemonSettings | None = None, conf: Path | None = None
) -> Iterator[LiveDaemon]:
    running = start_daemon(cell, settings, conf=conf)
    try:
        yield running
        if running.thread.is_alive() and not running.daemon.stopping.is_set():
            running.validate_state()  # what the test left passes the core's invariants
    finally:
        running.stop()
    assert not running.thread.is_alive(), "daemon did not stop"
    assert not running.error, f"daemon failed: {running.error!r}"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveDaemon]:
    """A running in-process daemon on a fresh cell; stopped (and checked) afterwards."""
    yield from _serving(tmp_path / "sge")


@pytest.fixture
def local(tmp_path: Path) -> Iterator[LiveDaemon]:
    """The same, with ``execution = "local"``: its tasks run on this machine (their
    TMPDIR under the test's own directory)."""
    conf = private_tmpdir(tmp_path / "conf")
    yield from _serving(tmp_path / "sge", DaemonSettings(execution="local"), conf)
