"""Fixtures for end-to-end tests: installed commands as processes against a daemon process."""

from __future__ import annotations

import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell, create_cell
from tests.e2e.cells import stop_quietly


def _served(running: RunningCell) -> Iterator[RunningCell]:
    running.start()
    try:
        yield running
    finally:
        stop_quietly(running)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[RunningCell]:
    """A fresh cell with its daemon running as a process; stopped afterwards."""
    yield from _served(create_cell(tmp_path / "sge"))


@pytest.fixture(scope="module")
def shared_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningCell]:
    """One running cell for a module's tests that leave it as they found it."""
    yield from _served(create_cell(tmp_path_factory.mktemp("shared") / "sge"))


@pytest.fixture
def stopped_cell(tmp_path: Path) -> Iterator[RunningCell]:
    """A created cell whose daemon the test starts (and kills) itself; stopped at the end."""
    running = create_cell(tmp_path / "sge")
    try:
        yield running
    finally:
        stop_quietly(running)


@pytest.fixture
def world_readable_cell() -> Iterator[RunningCell]:
    """A running cell under a fresh 0755 directory, so that other users can reach its socket."""
    base = Path(tempfile.mkdtemp(prefix="minige-e2e-"))
    base.chmod(0o755)
    try:
        running = create_cell(base / "sge")
        for path in (base / "sge", running.cell.path, running.cell.common, running.cell.spool):
            path.chmod(
                path.stat().st_mode | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
            )
        yield from _served(running)
    finally:
        shutil.rmtree(base, ignore_errors=True)
