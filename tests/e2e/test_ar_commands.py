"""qrsub, qrstat, qrdel and qsub -ar as processes against a daemon process."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.test_commands_and_exit_codes import set_global

pytestmark = pytest.mark.timeout(90)


def test_limit_refuses_with_exit_25_and_changes_take_effect_at_once(
    served: RunningCell, tmp_path: Path
) -> None:
    """With max_advance_reservations 1 the second qrsub exits 25 with Grid Engine's text."""
    set_global(served, tmp_path, "max_advance_reservations", "1")
    first = served.run("qrsub", "-d", "1:0:0")
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.strip() == "Your advance reservation 1 has been granted"
    second = served.run("qrsub", "-d", "1:0:0")
    assert second.returncode == 25
    assert "rejected: only 1 advance reservations are allowed per cluster" in (
        second.stdout + second.stderr
    )
    set_global(served, tmp_path, "max_advance_reservations", "2")
    assert served.run("qrsub", "-d", "1:0:0").returncode == 0


def test_ar_job_runs_and_qrdel_removes_the_ar(served: RunningCell) -> None:
    """A job submitted into a running AR is accepted; qrdel -f then deletes AR and job."""
    assert served.run("qrsub", "-d", "1:0:0", "-N", "e2e").returncode == 0
    listed = served.run("qrstat", "-u", "*")
    assert listed.returncode == 0
    assert "e2e" in listed.stdout
    sub = served.run("qsub", "-ar", "1", "-l", "h_rt=60", "-b", "y", "sleep", "1000")
    assert sub.returncode == 0, sub.stderr
    gone = served.run("qrdel", "-f", "1")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert "advance_reservation 1" in gone.stdout
    assert served.run("qrstat", "-u", "*").stdout.strip() == ""
    assert served.run("qrdel", "1").returncode == 1
