"""Every core a unit test builds is validated after its stimuli (``validate_state``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from qmaster.testing import NO_VALIDATE_STATE
from qmaster.testing_cores import CheckedCores


@pytest.fixture(autouse=True)
def checked_cores(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[CheckedCores]:
    """Validate each core after its stimuli and at the end, unless the test is marked not to."""
    cores = CheckedCores()
    if request.node.get_closest_marker(NO_VALIDATE_STATE):
        yield cores
        return
    cores.install(monkeypatch)
    yield cores
    cores.check_all()
