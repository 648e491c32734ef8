"""qsim sweep --dask: the same points on a Dask cluster give the same table as the local run."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from qmaster.sim.grid import load_grid
from qmaster.sim.sweep import dask_runner, local_runner, sweep

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "sim"

pytestmark = pytest.mark.timeout(180)


def _distributed() -> Any:
    try:
        return importlib.import_module("distributed")
    except ImportError:
        pytest.skip("distributed is not installed (pip install 'minige[sim]'): no Dask cluster")


def test_dask_cluster_gives_the_local_table(tmp_path: Path) -> None:
    """A sweep on a LocalCluster writes the same sweep.csv and sweep.json as one on local cores."""
    distributed = _distributed()
    grid_file = tmp_path / "grid.toml"
    grid_file.write_text(
        f'traces = ["{EXAMPLES / "golden.swf"}"]\ncell = "{EXAMPLES / "cell"}"\n'
        "[axes]\nmax_reservation = [0, 1]\nreserve = [false, true]\n"
    )
    grid = load_grid(grid_file)
    local = sweep(grid, tmp_path / "local", local_runner(1))
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        remote = sweep(grid, tmp_path / "dask", dask_runner(cluster.scheduler_address))
    assert remote.failed == 0
    assert remote.rows == local.rows
    for name in ("sweep.csv", "sweep.json"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    assert (tmp_path / "dask" / local.rows[3]["point"] / "accounting").stat().st_size > 0
