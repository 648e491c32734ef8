"""Every core a unit test builds is validated after each stimulus (``validate_state``)."""

from __future__ import annotations

import pytest

from qmaster.testing import NO_VALIDATE_STATE, CheckedCores


@pytest.fixture(autouse=True)
def checked_cores(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> CheckedCores:
    """Validate each core after every handle and tick, unless the test is marked not to."""
    cores = CheckedCores()
    if not request.node.get_closest_marker(NO_VALIDATE_STATE):
        cores.install(monkeypatch)
    return cores
