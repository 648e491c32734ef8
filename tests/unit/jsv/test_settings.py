"""jsv_timeout and jsv_threshold come from qmaster_params, as sge_conf(5) places them."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.conf.cluster import GlobalConf

BASE = "qmaster_params {}\n"


@pytest.mark.parametrize(
    ("text", "timeout", "threshold"),
    [
        (BASE.format("none"), 10.0, 5000.0),
        (BASE.format("jsv_timeout=3,jsv_threshold=0"), 3.0, 0.0),
        (BASE.format("none") + "jsv_timeout 7\njsv_threshold 9\n", 7.0, 9.0),
    ],
)
def test_limits_are_read_from_qmaster_params(text: str, timeout: float, threshold: float) -> None:
    """qmaster_params sets the JSV limits; old top-level keys are folded into it."""
    conf = GlobalConf.parse(_complete(text))
    assert (conf.jsv_timeout, conf.jsv_threshold) == (timeout, threshold)


def _complete(text: str) -> str:
    """The default cell's global configuration with ``text``'s lines in place of its own."""
    lines = (Path(__file__).parents[3] / "conf" / "configuration").read_text().splitlines()
    given = {line.split()[0] for line in text.splitlines() if line.strip()}
    kept = [line for line in lines if line.strip() and line.split()[0] not in given]
    return "\n".join(kept) + "\n" + text
