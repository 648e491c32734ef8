"""One replay from start to end: load the cell and the trace, run, write every output.

Kept apart from the command line so tests and benchmarks call it directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qmaster.complexes.values import parse_time
from qmaster.conf.settings import load_settings
from qmaster.conf.store import ClusterConfig
from qmaster.events.writer import EventFiles
from qmaster.sim import outputs, plots, summary
from qmaster.sim.driver import JobResult, Progress, RunSettings, Simulation
from qmaster.sim.feed import CoreFeed
from qmaster.sim.mapping import DEFAULT_PE, cell_defaults
from qmaster.sim.trace import Trace, load


@dataclass(slots=True)
class ReplayOptions:
    """What ``qsim run`` was asked for."""

    trace: Path
    cell: Path
    out: Path | None = None
    until: float | None = None
    seed: int | None = None
    pe: str = DEFAULT_PE
    plots: bool = True
    progress: Callable[[int], Progress | None] | None = None
    """Given the number of trace jobs, what to tell of the progress (a bar), if anything."""


@dataclass(slots=True)
class Replay:
    """What a replay produced."""

    trace: Trace
    results: list[JobResult]
    summary: dict[str, Any]
    plots: str = ""


def event_files(out: Path, config: ClusterConfig) -> EventFiles:
    """The daemon's writer on fresh files in ``out``, honouring ``reporting_params``."""
    for name in ("accounting", "reporting"):
        (out / name).unlink(missing_ok=True)
    params = config.global_conf.reporting_params
    return EventFiles(
        out,
        flush_interval=0.0,
        reporting=params.get("reporting", "false").lower() == "true",
        accounting=params.get("accounting", "true").lower() != "false",
    )


def until_seconds(text: str | None) -> float | None:
    """``--until``: seconds after the trace's start, as a Grid Engine time (``3600``, ``1:0:0``)."""
    return None if text is None else parse_time(text)


def replay(options: ReplayOptions) -> Replay:
    """Run one replay; with ``out`` set, write the outputs there."""
    config = ClusterConfig.load_dir(options.cell)
    daemon = load_settings(options.cell / "qmaster.toml", env={})
    defaults = cell_defaults(options.cell, options.pe)
    trace = load(options.trace)
    events = None
    if options.out is not None:
        options.out.mkdir(parents=True, exist_ok=True)
        events = event_files(options.out, config)
    feed = CoreFeed(config, daemon.default_runtime)
    bar = options.progress(len(trace.jobs)) if options.progress is not None else None
    run = RunSettings(options.until, options.seed, bar)
    sim = Simulation(trace, feed, defaults, events, run)
    try:
        results = sim.run()
    finally:
        if events is not None:
            events.close()
    result = Replay(trace, results, summary.summarise(results, summary.capacity(config)))
    if options.out is not None:
        outputs.write_swf(options.out / "trace.swf", trace, results)
        outputs.write_summary(options.out, result.summary)
        if options.plots:
            result.plots = plots.write_plots(options.out, results, result.summary["slots"])
    return result
