"""One replay from start to end: load the cell and the trace, run, write every output.

Kept apart from the command line so tests and benchmarks call it directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qmaster.complexes.values import parse_time
from qmaster.conf.settings import load_settings
from qmaster.conf.store import ClusterConfig
from qmaster.events.writer import EventFiles
from qmaster.sim import outputs, plots, summary
from qmaster.sim.ars import ArLine, read_ars
from qmaster.sim.driver import Progress, RunSettings, Simulation
from qmaster.sim.feed import CoreFeed
from qmaster.sim.mapping import DEFAULT_PE, cell_defaults
from qmaster.sim.results import Results
from qmaster.sim.trace import Trace, load

if TYPE_CHECKING:
    from qmaster.sim.jsv import ServerJsv


@dataclass(slots=True)
class ReplayOptions:
    """What ``qsim run`` was asked for."""

    trace: Path
    cell: Path
    out: Path | None = None
    until: float | None = None
    seed: int | None = None
    pe: str = DEFAULT_PE
    jsv: str | None = None
    """A server JSV URL in place of the cell's ``jsv_url``."""
    ars: Path | None = None
    """A file of qrsub lines (see :mod:`qmaster.sim.ars`)."""
    plots: bool = True
    progress: Callable[[int], Progress | None] | None = None
    """Given the number of trace jobs, what to tell of the progress (a bar), if anything."""


@dataclass(slots=True)
class Replay:
    """What a replay produced."""

    trace: Trace
    results: Results
    """What became of each trace job (``results[i]`` makes job i's ``JobResult``)."""
    summary: dict[str, Any]
    plots: str = ""
    ars: list[tuple[ArLine, int | None, str | None]] = field(default_factory=list)


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


def server_jsv(config: ClusterConfig, url: str | None) -> ServerJsv | None:
    """The replay's server JSV: ``--jsv`` or else the cell's ``jsv_url``; ``None`` without one.

    Imported only then: the JSV pool runs on asyncio, which a replay without one never loads.
    """
    conf = config.global_conf
    if url is None and conf.jsv_url is None:
        return None
    from qmaster.sim.jsv import ServerJsv, with_url

    return ServerJsv(with_url(conf, url))


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
    if options.jsv is not None:
        feed.use_jsv(options.jsv, trace.start)
    bar = options.progress(len(trace.jobs)) if options.progress is not None else None
    run = RunSettings(options.until, options.seed, bar)
    ars = read_ars(options.ars, time.localtime(trace.start).tm_year) if options.ars else []
    jsv = server_jsv(config, options.jsv)
    sim = Simulation(trace, feed, defaults, events, run, jsv, ars)
    try:
        results = sim.run()
    finally:
        if events is not None:
            events.close()
        if jsv is not None:
            jsv.close()
    figures = summary.summarise(results, summary.capacity(config))
    figures["ars"] = summary.ar_figures(sim.ar_results)
    result = Replay(trace, results, figures, ars=sim.ar_results)
    if options.out is not None:
        outputs.write_swf(options.out / "trace.swf", trace, results)
        outputs.write_summary(options.out, result.summary)
        if options.plots:
            result.plots = plots.write_plots(options.out, results, result.summary["slots"])
    return result
