"""The minige_cell fixture a tool's own tests use, simulated or with jobs that really run."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell, set_execution

pytestmark = pytest.mark.timeout(120)


@pytest.mark.minige_cell(execution="local")
def test_the_marker_makes_the_cells_jobs_run(minige_cell: RunningCell, tmp_path: Path) -> None:
    """@pytest.mark.minige_cell(execution="local"): qsub -sync y runs echo for real."""
    done = minige_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "echo", "hi", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "echo.o1").read_text() == "hi\n"


@pytest.mark.parametrize("minige_cell", ["local"], indirect=True)
def test_an_indirect_parameter_does_the_same(minige_cell: RunningCell, tmp_path: Path) -> None:
    """parametrize("minige_cell", ["local"], indirect=True) gives a local cell too."""
    done = minige_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "touch", "x", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "x").exists()


def test_the_default_cell_simulates(minige_cell: RunningCell, tmp_path: Path) -> None:
    """Without the marker jobs are simulated: qsub -sync y ends, nothing is touched."""
    done = minige_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "touch", "x", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "x").exists()


def test_an_unknown_mode_is_refused(minige_cell: RunningCell) -> None:
    """set_execution takes simulated or local only, and keeps the file's other settings."""
    with pytest.raises(ValueError, match="execution must be one of simulated, local"):
        set_execution(minige_cell, "remote")
    set_execution(minige_cell, "local")
    text = minige_cell.cell.settings.read_text()
    assert text.count("execution") == 1
    assert 'execution = "local"' in text
    assert "jsv_pool_size" in text
