"""``qsim sweep``'s table of every point's summary figures, as CSV, JSON and a plot.

Columns, always in this order: ``point``, ``trace``, one per axis (in the grid
file's order), ``status`` (``ok`` or why the point failed), then the replay's
totals and its figures over all jobs (see :mod:`qmaster.sim.summary`). Rows
are in the points' order (see :mod:`qmaster.sim.grid`), whatever order the
points finished in, so the same sweep gives the same bytes.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from qmaster.sim.grid import Point, label, trace_stem

TOTALS = ("jobs", "submitted", "refused", "ended", "not_started", "slots", "makespan")
TOTALS_AFTER = ("utilisation",)
FIGURES = ("mean_wait", "median_wait", "p95_wait", "mean_bounded_slowdown")
PLOTTED = (
    ("mean_wait", "mean wait (s)"),
    ("mean_bounded_slowdown", "mean bounded slowdown"),
    ("utilisation", "utilisation (%)"),
)
SKIPPED = "sweep plot skipped: matplotlib is not installed (pip install 'minige[sim]')"


def columns(axes: Sequence[str]) -> list[str]:
    """The table's columns for a grid with these axes."""
    return ["point", "trace", *axes, "status", *TOTALS, *TOTALS_AFTER, *FIGURES]


def row(point: Point, summary: dict[str, Any] | None, error: str | None) -> dict[str, Any]:
    """One point's row: its values, then its figures (empty when it failed)."""
    out: dict[str, Any] = {"point": point.name, "trace": trace_stem(point.trace)}
    out.update({axis: label(axis, value) for axis, value in point.values})
    out["status"] = "ok" if error is None else error
    for key in (*TOTALS, *TOTALS_AFTER):
        out[key] = summary[key] if summary is not None else None
    for key in FIGURES:
        out[key] = summary["all"][key] if summary is not None else None
    return out


def to_csv(cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """The table as CSV (a header line, then one line per point; empty cells for failures)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(cols)
    for r in rows:
        writer.writerow(["" if r[c] is None else r[c] for c in cols])
    return buffer.getvalue()


def to_json(cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """The table as JSON: ``{"columns": [...], "rows": [{column: value}, ...]}``."""
    data = {"columns": list(cols), "rows": [{c: r[c] for c in cols} for r in rows]}
    return json.dumps(data, indent=2) + "\n"


def write_table(out: Path, cols: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    """``sweep.csv`` and ``sweep.json`` in ``out``."""
    (out / "sweep.csv").write_text(to_csv(cols, rows))
    (out / "sweep.json").write_text(to_json(cols, rows))


def write_plot(out: Path, rows: Sequence[dict[str, Any]]) -> str:
    """``sweep.png``: one bar per point for each plotted figure; what was done, for the user."""
    try:
        importlib.import_module("matplotlib").use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return SKIPPED
    done = [r for r in rows if r["status"] == "ok"]
    names = [r["point"] for r in done]
    height = max(3.0, 0.35 * len(names) + 1.5)
    fig, axes = plt.subplots(1, len(PLOTTED), figsize=(5 * len(PLOTTED), height), sharey=True)
    for ax, (key, title) in zip(axes, PLOTTED, strict=True):
        scale = 100.0 if key == "utilisation" else 1.0
        ax.barh(range(len(names)), [r[key] * scale for r in done])
        ax.set_title(title)
        ax.invert_yaxis()
    axes[0].set_yticks(range(len(names)), names, fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "sweep.png", metadata={"Software": None})
    plt.close(fig)
    return "plot: sweep.png"
