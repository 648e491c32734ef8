"""``qsim sweep``: run every point of a grid (one replay each) and gather one table.

Each point's cell is written first (see :mod:`qmaster.sim.pointcell`) and read
back through the daemon's own loader, so a bad value stops the sweep before any
replay runs. The replays then run in their own processes — a
``ProcessPoolExecutor`` on the local cores, or the workers of an existing Dask
cluster (``--dask ADDRESS``; the ``distributed`` package of ``minige[sim]``),
to which the points are only submitted. The out folder must be one the workers
can reach at the same path. A point that fails is a row with its reason; the
others still run.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qmaster.conf.errors import ConfigError
from qmaster.conf.store import ClusterConfig
from qmaster.jsv.errors import JsvError
from qmaster.sim.driver import SimulationStuck
from qmaster.sim.grid import Grid, Point, points
from qmaster.sim.mapping import DEFAULT_PE, MappingError
from qmaster.sim.pointcell import make_cell
from qmaster.sim.replay import ReplayOptions, replay, until_seconds
from qmaster.sim.sweep_table import columns, row, write_plot, write_table
from qmaster.sim.swf import SwfError

FAILURES = (ConfigError, MappingError, SwfError, JsvError, SimulationStuck, OSError, ValueError)


@dataclass(frozen=True, slots=True)
class Job:
    """What one worker needs to replay one point (plain, picklable data)."""

    index: int
    name: str
    trace: Path
    cell: Path
    out: Path
    until: float | None
    seed: int | None
    pe: str
    ars: Path | None
    plots: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a worker hands back: the summary, or why the point failed, and its wall time."""

    index: int
    summary: dict[str, Any] | None
    error: str | None
    wall: float


@dataclass(slots=True)
class SweepResult:
    """A finished sweep: the table's columns and rows, and the plot's message."""

    columns: list[str]
    rows: list[dict[str, Any]]
    plot: str

    @property
    def failed(self) -> int:
        """How many points failed."""
        return sum(1 for r in self.rows if r["status"] != "ok")


def run_point(job: Job) -> Outcome:
    """Replay one point into ``job.out`` (runs in a worker process)."""
    started = time.perf_counter()
    options = ReplayOptions(
        job.trace, job.cell, job.out, job.until, job.seed, job.pe, ars=job.ars, plots=job.plots
    )
    try:
        summary = replay(options).summary
    except FAILURES as exc:
        return Outcome(job.index, None, str(exc), time.perf_counter() - started)
    return Outcome(job.index, summary, None, time.perf_counter() - started)


def prepare(grid: Grid, out: Path, plots: bool = True) -> tuple[list[Point], list[Job]]:
    """Write every point's cell under ``out`` and check it loads; the jobs to run (each
    drawing its point's plots when ``plots``)."""
    until = until_seconds(grid.until)
    pts = points(grid)
    jobs = []
    for index, point in enumerate(pts):
        folder = (out / point.name).resolve()
        cell = make_cell(grid, point, folder / "cell")
        ClusterConfig.load_dir(cell)  # a bad value stops the sweep here, naming its file
        pe = grid.pe or DEFAULT_PE
        jobs.append(
            Job(index, point.name, point.trace, cell, folder, until, grid.seed, pe, grid.ars, plots)
        )
    return pts, jobs


def local_runner(workers: int | None) -> Callable[[list[Job]], Iterator[Outcome]]:
    """Run the jobs in a process pool of ``workers`` (default: every local core)."""

    def run(jobs: list[Job]) -> Iterator[Outcome]:
        count = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
        with ProcessPoolExecutor(max_workers=count) as pool:
            yield from pool.map(run_point, jobs)

    return run


def dask_runner(address: Any) -> Callable[[list[Job]], Iterator[Outcome]]:
    """Run the jobs on the Dask cluster at ``address`` (a scheduler address or a cluster)."""
    distributed: Any = importlib.import_module("distributed")

    def run(jobs: list[Job]) -> Iterator[Outcome]:
        with distributed.Client(address) as client:
            futures = client.map(run_point, jobs, pure=False)
            for future in distributed.as_completed(futures):
                yield future.result()

    return run


def sweep(
    grid: Grid,
    out: Path,
    runner: Callable[[list[Job]], Iterable[Outcome]],
    told: Callable[[str, Outcome], None] | None = None,
    plots: bool = True,
) -> SweepResult:
    """Run the sweep into ``out``: the points' folders, sweep.csv, sweep.json and, when
    ``plots``, sweep.png and each point's plots."""
    out.mkdir(parents=True, exist_ok=True)
    pts, jobs = prepare(grid, out, plots)
    outcomes: dict[int, Outcome] = {}
    for outcome in runner(jobs):
        outcomes[outcome.index] = outcome
        if told is not None:
            told(pts[outcome.index].name, outcome)
    rows = [row(p, outcomes[i].summary, outcomes[i].error) for i, p in enumerate(pts)]
    cols = columns([axis for axis, _ in grid.axes])
    write_table(out, cols, rows)
    return SweepResult(cols, rows, write_plot(out, rows) if plots else "")
