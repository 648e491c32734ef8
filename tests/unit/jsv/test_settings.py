"""jsv_timeout and jsv_threshold come from qmaster_params, as sge_conf(5) places them."""

from __future__ import annotations

import pytest

from qmaster.jsv.settings import JsvLimits, jsv_limits


@pytest.mark.parametrize(
    ("attrs", "limits"),
    [
        ({"qmaster_params": "none"}, JsvLimits(10.0, 5000)),
        ({"qmaster_params": "jsv_timeout=3,jsv_threshold=0"}, JsvLimits(3.0, 0)),
        ({"qmaster_params": "MAX_DYN_EC=10 JSV_TIMEOUT=4"}, JsvLimits(4.0, 5000)),
        ({"qmaster_params": "none", "jsv_timeout": "7", "jsv_threshold": "9"}, JsvLimits(7.0, 9)),
        ({"qmaster_params": "jsv_timeout=2", "jsv_timeout": "7"}, JsvLimits(2.0, 5000)),
        ({"qmaster_params": "jsv_timeout=0,jsv_threshold=x"}, JsvLimits(10.0, 5000)),
    ],
)
def test_limits_are_read_from_qmaster_params(attrs: dict[str, str], limits: JsvLimits) -> None:
    """qmaster_params sets the JSV limits; old top-level keys count only where it is silent."""
    assert jsv_limits(attrs) == limits
