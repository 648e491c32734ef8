"""Fixtures for end-to-end tests: installed commands as processes against a daemon process."""

from __future__ import annotations

import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell, create_cell, fail_on_internal_errors
from tests.e2e.cells import stop_quietly

CELL_FIXTURES = ("served", "shared_served", "stopped_cell", "world_readable_cell")


@pytest.fixture(autouse=True)
def _no_internal_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test fails when a cell's daemon logged an internal error while it ran."""
    cells = [request.getfixturevalue(n) for n in CELL_FIXTURES if n in request.fixturenames]
    yield
    for cell in cells:
        fail_on_internal_errors(cell.internal_errors(), request.node)


def _served(running: RunningCell, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    running.start()
    try:
        yield running
    finally:
        stop_quietly(running)
    fail_on_internal_errors(running.internal_errors(), request.node)


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell with its daemon running as a process; stopped afterwards."""
    yield from _served(create_cell(tmp_path / "sge"), request)


@pytest.fixture(scope="module")
def shared_served(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[RunningCell]:
    """One running cell for a module's tests that leave it as they found it."""
    yield from _served(create_cell(tmp_path_factory.mktemp("shared") / "sge"), request)


@pytest.fixture
def stopped_cell(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A created cell whose daemon the test starts (and kills) itself; stopped at the end."""
    running = create_cell(tmp_path / "sge")
    try:
        yield running
    finally:
        stop_quietly(running)
    fail_on_internal_errors(running.internal_errors(), request.node)


@pytest.fixture
def world_readable_cell(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A running cell under a fresh 0755 directory, so that other users can reach its socket."""
    base = Path(tempfile.mkdtemp(prefix="minige-e2e-"))
    base.chmod(0o755)
    try:
        running = create_cell(base / "sge")
        for path in (base / "sge", running.cell.path, running.cell.common, running.cell.spool):
            path.chmod(
                path.stat().st_mode | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
            )
        yield from _served(running, request)
    finally:
        shutil.rmtree(base, ignore_errors=True)
