"""The reliability suite: attacks as processes against a daemon started with the installed
``qmaster`` command. Part of ``make test``; run it alone with ``pytest tests/reliability``
(or ``-m reliability``). ``make soak`` runs the long versions (bench/soak.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.attacks import roomy_conf
from qmaster.testing import RunningCell, create_cell, fail_on_internal_errors
from tests.e2e.cells import stop_quietly
from tests.e2e.conftest import (  # noqa: F401  (fixtures shared with the e2e tier)
    _no_internal_errors,
    served,
    shared_served,
    stopped_cell,
    world_readable_cell,
)

RELIABILITY = "reliability"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.reliability)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{RELIABILITY}: an attack on a real daemon process (tests/reliability)"
    )


@pytest.fixture
def roomy_cell(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A created, not started cell that allows many ARs; stopped at the end."""
    running = create_cell(tmp_path / "sge", roomy_conf(tmp_path / "conf"))
    try:
        yield running
    finally:
        stop_quietly(running)
    fail_on_internal_errors(running.internal_errors(), request.node)
