"""``qsim sweep``'s command line: load the grid, run it locally or on Dask, report."""

from __future__ import annotations

from pathlib import Path

import click

from qmaster.conf.errors import ConfigError
from qmaster.sim.grid import GridError, load_grid
from qmaster.sim.sweep import Outcome, dask_runner, local_runner, sweep

NO_DASK = "qsim: --dask needs the distributed package (pip install 'minige[sim]')"


def run(
    grid_file: Path, out: Path, workers: int | None, address: str | None, plots: bool = True
) -> int:
    """Run the sweep; the exit code (0: every point replayed, 1: any failed or bad input)."""
    if workers is not None and address is not None:
        click.echo("qsim: --workers and --dask exclude each other", err=True)
        return 2
    try:
        grid = load_grid(grid_file)
    except (GridError, OSError) as exc:
        click.echo(f"qsim: {exc}", err=True)
        return 1
    try:
        runner = local_runner(workers) if address is None else dask_runner(address)
    except ImportError:
        click.echo(NO_DASK, err=True)
        return 1
    try:
        done = sweep(grid, out, runner, _told, plots)
    except (ConfigError, GridError, OSError, ValueError) as exc:
        click.echo(f"qsim: {exc}", err=True)
        return 1
    click.echo(f"table: {out / 'sweep.csv'}, {out / 'sweep.json'}")
    if done.plot:
        click.echo(done.plot)
    if done.failed:
        click.echo(f"qsim: {done.failed} of {len(done.rows)} points failed", err=True)
        return 1
    return 0


def _told(name: str, outcome: Outcome) -> None:
    if outcome.error is not None:
        click.echo(f"qsim: point {name} failed: {outcome.error}", err=True)
        return
    assert outcome.summary is not None
    jobs = outcome.summary["jobs"]
    click.echo(f"{name}: {jobs} jobs in {outcome.wall:.2f} s")
