"""PNG plots of a replay (the optional extra ``minige[sim]``: matplotlib).

- ``utilisation.png``: the share of the cell's slots in use over simulated time;
- ``queue_length.png``: jobs submitted and not yet started over simulated time;
- ``wait_by_size.png``: the wait-time distribution per job size class (box plots: quartiles,
  the mean as a triangle, outliers as dots).

Without matplotlib the plots are skipped and :func:`write_plots` says why.
"""

from __future__ import annotations

import importlib
from math import isnan
from pathlib import Path
from typing import Any

from qmaster.sim.results import NO_ID, Results

HOUR = 3600.0
SKIPPED = "plots skipped: matplotlib is not installed (pip install 'minige[sim]')"


def step_series(results: Results, slots: int) -> tuple[list[float], list[float], list[float]]:
    """Hours, utilisation and queue length after each change (a step function)."""
    changes: list[tuple[float, int, int]] = []
    submitted, start, end, sizes = results.submitted, results.start, results.end, results.slots
    for i, job_id in enumerate(results.job_id):
        sent = submitted[i]
        if isnan(sent) or job_id == NO_ID:  # not submitted, or refused
            continue
        changes.append((sent, 0, 1))
        if not isnan(start[i]):
            changes.append((start[i], sizes[i], -1))
        if not isnan(end[i]):
            changes.append((end[i], -sizes[i], 0))
    changes.sort(key=lambda c: c[0])
    hours: list[float] = []
    use: list[float] = []
    queued: list[float] = []
    busy = waiting = 0
    for at, d_busy, d_wait in changes:
        busy += d_busy
        waiting += d_wait
        if hours and hours[-1] == at / HOUR:
            use[-1], queued[-1] = busy / slots if slots else 0.0, float(waiting)
            continue
        hours.append(at / HOUR)
        use.append(busy / slots if slots else 0.0)
        queued.append(float(waiting))
    return hours, use, queued


def size_class(slots: int) -> str:
    """``1``, ``2``, ``3-4``, ``5-8``...: job sizes by powers of two."""
    if slots <= 2:
        return str(slots)
    high = 1 << (slots - 1).bit_length()
    return f"{high // 2 + 1}-{high}"


def waits_by_size(results: Results) -> dict[str, list[float]]:
    """Wait times per size class, classes in increasing size."""
    groups: dict[int, tuple[str, list[float]]] = {}
    submitted, sizes = results.submitted, results.slots
    for at, start in enumerate(results.start):
        wait = start - submitted[at]
        if isnan(wait):  # not started (or not submitted)
            continue
        slots = sizes[at]
        key = 1 << (max(slots, 1) - 1).bit_length()
        groups.setdefault(key, (size_class(slots), []))[1].append(wait / HOUR)
    return {label: waits for _, (label, waits) in sorted(groups.items())}


def write_plots(out: Path, results: Results, slots: int) -> str:
    """Write the three PNGs into ``out``; what was done, for the user."""
    try:
        importlib.import_module("matplotlib").use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return SKIPPED
    hours, use, queued = step_series(results, slots)
    meta: dict[str, Any] = {"Software": None}
    _line(plt, hours, [u * 100 for u in use], "slots in use (%)", out / "utilisation.png", meta)
    _line(plt, hours, queued, "jobs waiting", out / "queue_length.png", meta)
    groups = waits_by_size(results)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if groups:
        ax.boxplot(list(groups.values()), showmeans=True, flierprops={"markersize": 2})
        ax.set_xticks(range(1, len(groups) + 1), list(groups))
    ax.set_xlabel("job size (slots)")
    ax.set_ylabel("wait (hours)")
    ax.set_title("wait time by job size")
    fig.tight_layout()
    fig.savefig(out / "wait_by_size.png", metadata=meta)
    plt.close(fig)
    return "plots: utilisation.png, queue_length.png, wait_by_size.png"


def _line(plt: Any, x: list[float], y: list[float], label: str, path: Path, meta: Any) -> None:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.step(x, y, where="post", linewidth=0.8)
    ax.set_xlabel("simulated time (hours)")
    ax.set_ylabel(label)
    ax.set_title(f"{label} over time")
    fig.tight_layout()
    fig.savefig(path, metadata=meta)
    plt.close(fig)
