"""``qsim``: replay a workload trace through minige's core in virtual time.

``qsim run TRACE [--cell DIR] [--until T] [--seed N] [--out DIR] [--pe NAME]``
reads an SWF 2.2 trace (gzipped or not) or an accounting file, replays it on
the cell configured in ``DIR`` (default: the project's ``conf/``) and writes
``accounting``, ``reporting``, ``trace.swf``, ``summary.txt``,
``summary.json`` and the plots into the output folder.

``qsim sweep GRID.toml [--out DIR] [--workers N] [--dask ADDRESS]`` replays a
grid of traces x configurations (see :mod:`qmaster.sim.grid`).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.errors import ConfigError
from qmaster.jsv.errors import JsvError
from qmaster.sim import progress, sweep_cli
from qmaster.sim.driver import SimulationStuck
from qmaster.sim.mapping import DEFAULT_PE, MappingError
from qmaster.sim.replay import ReplayOptions, replay, until_seconds
from qmaster.sim.summary import to_text
from qmaster.sim.swf import SwfError


@click.group(context_settings={"help_option_names": ["-help", "--help", "-h"]})
def main() -> None:
    """Replay workload traces through minige's scheduler in virtual time."""


@main.command()
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--cell",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=DEFAULT_CONF_DIR,
    show_default="the project's conf/",
    help="Configuration folder of the cell (the daemon's format).",
)
@click.option("--until", metavar="T", help="Stop T simulated seconds (or h:m:s) after the start.")
@click.option("--seed", type=int, help="Shuffle submissions made in the same second.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("qsim-out"),
    show_default=True,
    help="Output folder.",
)
@click.option("--pe", default=DEFAULT_PE, show_default=True, help="PE of multi-slot jobs.")
@click.option("--jsv", metavar="URL", help="Server JSV (in place of the cell's jsv_url).")
@click.option(
    "--ars",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Advance reservations: a file of qrsub lines ('@T' first: asked T s after the start).",
)
@click.option("--no-plots", is_flag=True, help="Draw no PNG plots (about a second less).")
def run(
    trace: Path,
    cell: Path,
    until: str | None,
    seed: int | None,
    out: Path,
    pe: str,
    jsv: str | None,
    ars: Path | None,
    no_plots: bool,
) -> None:
    """Replay TRACE (SWF 2.2, gzipped or not, or an accounting file).

    Prints the totals and the per-queue figures; summary.txt has the per-user ones too."""
    try:
        options = ReplayOptions(
            trace, cell, out, until_seconds(until), seed, pe, jsv, ars, plots=not no_plots
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--until") from None
    started = time.perf_counter()
    bars: list[progress.Bar] = []
    options.progress = lambda total: _keep(bars, progress.progress_bar(total))
    try:
        done = replay(options)
    except (ConfigError, MappingError, SwfError, JsvError, SimulationStuck, OSError) as exc:
        click.echo(f"qsim: {exc}", err=True)
        sys.exit(1)
    finally:
        for bar in bars:
            bar.close()
    wall = time.perf_counter() - started
    for line in [*done.trace.notes, *done.trace.skipped[:10]]:
        click.echo(f"qsim: {line}", err=True)
    if len(done.trace.skipped) > 10:
        click.echo(f"qsim: ... {len(done.trace.skipped) - 10} more lines skipped", err=True)
    click.echo(to_text(done.summary, users=False), nl=False)
    if done.plots:
        click.echo(done.plots)
    rate = len(done.results) / wall if wall > 0 else 0.0
    click.echo(
        f"replayed {len(done.results)} jobs in {wall:.2f} s ({rate:.0f} jobs/s); outputs in {out}"
    )


def _keep(bars: list[progress.Bar], bar: progress.Bar | None) -> progress.Bar | None:
    if bar is not None:
        bars.append(bar)
    return bar


@main.command("sweep")
@click.argument("grid", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("qsim-sweep"),
    show_default=True,
    help="Output folder: one folder per point, sweep.csv, sweep.json, sweep.png.",
)
@click.option("--workers", type=click.IntRange(min=1), help="Local processes (default: cores).")
@click.option("--dask", "address", metavar="ADDRESS", help="Run on this Dask scheduler.")
@click.option("--no-plots", is_flag=True, help="Draw neither sweep.png nor the points' plots.")
def sweep_command(
    grid: Path, out: Path, workers: int | None, address: str | None, no_plots: bool
) -> None:
    """Replay every point of GRID (TOML: traces x configuration axes); one table of all."""
    sys.exit(sweep_cli.run(grid, out, workers, address, plots=not no_plots))
