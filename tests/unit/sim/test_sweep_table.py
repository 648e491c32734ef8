"""qsim sweep's point cells and its table: the values land in the cell's files, the table's
columns and rows keep a stable order, and a failed point is a row with its reason."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from qmaster.conf.store import ClusterConfig
from qmaster.sim.grid import Grid, Point
from qmaster.sim.pointcell import make_cell, set_key
from qmaster.sim.sweep_table import columns, row, to_csv, to_json

ROOT = Path(__file__).resolve().parents[3]
CELL = ROOT / "examples" / "sim" / "cell"
TRACE = ROOT / "examples" / "sim" / "golden.swf"


def _summary(wait: float) -> dict[str, object]:
    figures = {"mean_wait": wait, "median_wait": 0.0, "p95_wait": 2 * wait}
    figures["mean_bounded_slowdown"] = 1.5
    totals: dict[str, object] = dict.fromkeys(("jobs", "submitted", "ended", "slots"), 4)
    totals.update(refused=0, not_started=0, makespan=100.0, utilisation=0.5)
    return {**totals, "all": figures, "per_user": {"u": {}}}


def test_set_key_replaces_the_line_and_its_continuations() -> None:
    """A key's value is replaced whole, continuation lines included; others are kept."""
    text = "a 1\nparams  x=1,\\\n        y=2\nb 2\n"
    assert set_key(text, "params", "none").splitlines() == ["a 1", f"{'params':<33} none", "b 2"]
    assert set_key("a 1\n", "b", "3").splitlines()[-1].split() == ["b", "3"]


def test_point_cell_carries_the_points_values(tmp_path: Path) -> None:
    """The point's cell has its sched key, jsv_url and -R line, and loads as the daemon's does."""
    grid = Grid((TRACE,), CELL, ())
    point = Point("p", TRACE, (("max_reservation", 10), ("jsv", "none"), ("reserve", True)))
    cell = make_cell(grid, point, tmp_path / "cell")
    config = ClusterConfig.load_dir(cell)
    assert config.sched_conf.max_reservation == 10
    assert (cell / "sge_request").read_text().endswith("\n-R y\n")
    assert (CELL / "sge_request").read_text() != (cell / "sge_request").read_text()
    again = make_cell(grid, Point("p", TRACE, (("reserve", False),)), tmp_path / "cell")
    assert (again / "sge_request").read_text().endswith("\n-R n\n")
    assert ClusterConfig.load_dir(again).sched_conf.max_reservation == 0


def test_table_columns_and_rows_keep_their_order() -> None:
    """Columns: point, trace, the axes, status, totals, figures; a failed point has empty cells."""
    cols = columns(["max_reservation", "reserve"])
    assert cols[:5] == ["point", "trace", "max_reservation", "reserve", "status"]
    assert cols[-4:] == ["mean_wait", "median_wait", "p95_wait", "mean_bounded_slowdown"]
    ok = Point(
        "t__max_reservation=1__reserve=y", TRACE, (("max_reservation", 1), ("reserve", True))
    )
    bad = Point(
        "t__max_reservation=0__reserve=n", TRACE, (("max_reservation", 0), ("reserve", False))
    )
    rows = [row(ok, _summary(30.0), None), row(bad, None, "line 3: bad")]
    lines = list(csv.reader(io.StringIO(to_csv(cols, rows))))
    assert lines[0] == cols
    assert dict(zip(cols, lines[1], strict=True))["mean_wait"] == "30.0"
    assert dict(zip(cols, lines[1], strict=True))["reserve"] == "y"
    assert dict(zip(cols, lines[2], strict=True))["status"] == "line 3: bad"
    assert dict(zip(cols, lines[2], strict=True))["jobs"] == ""
    data = json.loads(to_json(cols, rows))
    assert data["columns"] == cols
    assert [list(r) for r in data["rows"]] == [cols, cols]
    assert data["rows"][0]["p95_wait"] == 60.0
    assert data["rows"][1]["utilisation"] is None
