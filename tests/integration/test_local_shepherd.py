"""The shepherd starts a local task as Grid Engine's does: default signals, its own group."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.live import LiveDaemon, wait_for
from tests.integration.test_local_execution import local, script
from tests.integration.test_timers import acct_of

pytestmark = pytest.mark.timeout(60)
__all__ = ["local"]


def test_a_job_does_not_inherit_the_shepherds_ignored_signals(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """A job sees SIGHUP, SIGINT and SIGTERM at their defaults (a Ctrl-C or hangup reaches
    it), in a process group of its own."""
    text = "grep SigIgn /proc/self/status > ignored\nps -o pgid= -p $$ > pgid\necho $$ > pid\n"
    assert local.call("submit", script(text, cwd=str(tmp_path))).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    mask = int((tmp_path / "ignored").read_text().split()[1], 16)
    for signum in (1, 2, 15):  # HUP, INT, TERM
        assert not mask & (1 << (signum - 1)), signum
    pgid = int((tmp_path / "pgid").read_text())
    assert pgid == int((tmp_path / "pid").read_text())
