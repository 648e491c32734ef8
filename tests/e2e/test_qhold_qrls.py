"""qhold and qrls against a running qmaster: the hold bits qstat shows, and who may change them."""

from __future__ import annotations

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def _state(cell: RunningCell, job: str) -> str:
    for line in cell.run("qstat").stdout.splitlines()[2:]:
        if line.split()[0] == job:
            return line.split()[4]
    return ""


def _submit_pending(cell: RunningCell, *extra: str) -> str:
    out = cell.run("qsub", "-h", "-b", "y", *extra, "sleep", "100").stdout
    return out.split()[2].partition(".")[0]


def test_qhold_then_qrls_by_hold_type(minige_cell: RunningCell) -> None:
    """qhold -h o adds the operator hold; qrls releases the user hold and -h o the rest."""
    job = _submit_pending(minige_cell)
    held = minige_cell.run("qhold", "-h", "o", job)
    assert held.returncode == 0, held.stderr
    assert held.stdout.strip() == f"modified hold of job {job}"
    assert job in minige_cell.run("qstat", "-s", "ho").stdout.split()
    assert minige_cell.run("qrls", job).returncode == 0
    assert job not in minige_cell.run("qstat", "-s", "hu").stdout.split()
    assert _state(minige_cell, job) == "hqw"
    assert minige_cell.run("qrls", "-h", "o", job).returncode == 0
    assert _state(minige_cell, job) != "hqw"


def test_qhold_default_is_the_user_hold_and_all(minige_cell: RunningCell) -> None:
    """qhold without -h sets the user hold; 'all' names the caller's own jobs."""
    job = minige_cell.run("qsub", "-b", "y", "-a", "209901010000", "sleep", "1").stdout.split()[2]
    assert minige_cell.run("qhold", "all").returncode == 0
    assert job in minige_cell.run("qstat", "-s", "hu").stdout.split()
    assert minige_cell.run("qrls", "-h", "u", job).returncode == 0
    assert job not in minige_cell.run("qstat", "-s", "hu").stdout.split()


def test_bad_input(minige_cell: RunningCell) -> None:
    """An unknown job, hold type or a part of an array job is refused with exit 1."""
    missing = minige_cell.run("qhold", "99999")
    assert missing.returncode == 1
    assert 'denied: job "99999" does not exist' in missing.stderr
    bad = minige_cell.run("qrls", "-h", "x", "1")
    assert bad.returncode == 1
    assert "invalid hold type" in bad.stderr
    array = _submit_pending(minige_cell, "-t", "1-4")
    part = minige_cell.run("qhold", "-h", "o", f"{array}.2")
    assert part.returncode == 1
    assert "cannot hold single tasks" in part.stderr
    assert array not in minige_cell.run("qstat", "-s", "ho").stdout.split()
    usage = minige_cell.run("qhold", "-help")
    assert usage.returncode == 0
    assert usage.stdout.startswith("GE 6.2u5\nusage: qhold")
