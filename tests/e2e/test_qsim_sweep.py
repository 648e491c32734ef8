"""qsim sweep end to end: the installed command on the golden trace, a 2 x 2 grid."""

from __future__ import annotations

import csv
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "sim"
NAMES = [
    "golden__max_reservation=0__reserve=n",
    "golden__max_reservation=0__reserve=y",
    "golden__max_reservation=1__reserve=n",
    "golden__max_reservation=1__reserve=y",
]
FIGURES = ("jobs", "refused", "ended", "makespan", "utilisation")

pytestmark = pytest.mark.timeout(180)


def qsim(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["qsim", *argv], capture_output=True, text=True, timeout=170, check=False)


def _grid(tmp_path: Path, axes: str) -> Path:
    path = tmp_path / "grid.toml"
    path.write_text(
        f'traces = ["{EXAMPLES / "golden.swf"}"]\ncell = "{EXAMPLES / "cell"}"\nseed = 1\n'
        f"[axes]\n{axes}"
    )
    return path


def _rows(out: Path) -> list[dict[str, str]]:
    with (out / "sweep.csv").open() as f:
        return list(csv.DictReader(f))


def test_sweep_runs_every_point_and_gathers_one_table(tmp_path: Path) -> None:
    """A 2 x 2 sweep writes each point's replay in its folder and one table whose rows are the
    points' summaries, in the grid's order, the same bytes whatever the number of workers."""
    grid = _grid(tmp_path, "max_reservation = [0, 1]\nreserve = [false, true]\n")
    done = qsim("sweep", str(grid), "--out", str(tmp_path / "a"), "--workers", "2", "--no-plots")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "a"
    rows = _rows(out)
    assert [r["point"] for r in rows] == NAMES
    assert [(r["max_reservation"], r["reserve"]) for r in rows] == [
        ("0", "n"),
        ("0", "y"),
        ("1", "n"),
        ("1", "y"),
    ]
    for r in rows:
        summary = json.loads((out / r["point"] / "summary.json").read_text())
        assert r["status"] == "ok"
        assert [r[k] for k in FIGURES] == [str(summary[k]) for k in FIGURES]
        assert r["mean_wait"] == str(summary["all"]["mean_wait"])
        assert (out / r["point"] / "accounting").stat().st_size > 0
    table = json.loads((out / "sweep.json").read_text())
    assert [r["point"] for r in table["rows"]] == NAMES
    # only a reservation asked for by the job and allowed by the scheduler changes the schedule
    assert rows[3]["makespan"] != rows[1]["makespan"]
    assert rows[0]["makespan"] == rows[1]["makespan"] == rows[2]["makespan"]
    again = qsim("sweep", str(grid), "--out", str(tmp_path / "b"), "--workers", "1", "--no-plots")
    assert again.returncode == 0, again.stderr
    for name in ("sweep.csv", "sweep.json"):
        assert (tmp_path / "b" / name).read_bytes() == (out / name).read_bytes()
    alone = qsim(
        "run",
        str(EXAMPLES / "golden.swf"),
        "--cell",
        str(out / NAMES[3] / "cell"),
        "--seed",
        "1",
        "--out",
        str(tmp_path / "alone"),
        "--no-plots",
    )
    assert alone.returncode == 0, alone.stderr
    accounting = (tmp_path / "alone" / "accounting").read_bytes()
    assert accounting == (out / NAMES[3] / "accounting").read_bytes()
    assert not list(out.glob("**/*.png"))  # --no-plots
    assert "plot" not in done.stdout


def test_jsv_axis_runs_the_server_jsv_only_where_asked(tmp_path: Path) -> None:
    """jsv = ["none", script]: the script's refusals show in its point's row only."""
    script = ROOT / "examples" / "jsv" / "example_jsv.py"
    done = qsim(
        "sweep", str(_grid(tmp_path, f'jsv = ["none", "{script}"]\n')), "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    rows = _rows(tmp_path)
    assert (rows[0]["jsv"], rows[0]["refused"]) == ("none", "0")
    assert rows[1]["jsv"] == "example_jsv.py"
    assert int(rows[1]["refused"]) > 0
    if "plot: sweep.png" in done.stdout:
        assert (tmp_path / "sweep.png").stat().st_size > 0
        assert all((tmp_path / r["point"] / "utilisation.png").exists() for r in rows)
    else:
        assert "sweep plot skipped" in done.stdout


def test_bad_grid_value_stops_before_any_replay(tmp_path: Path) -> None:
    """A value the cell's loader refuses stops the sweep with its message and exit code 1."""
    done = qsim(
        "sweep", str(_grid(tmp_path, 'max_reservation = [0, "x"]\n')), "--out", str(tmp_path / "o")
    )
    assert done.returncode == 1
    assert '"x" is not an integer' in done.stderr
    assert not (tmp_path / "o" / "sweep.csv").exists()
    assert not (tmp_path / "o" / NAMES[0].replace("__reserve=n", "") / "accounting").exists()
    unknown = qsim("sweep", str(_grid(tmp_path, "max_reserve = [1]\n")))
    assert unknown.returncode == 1
    assert "axis 'max_reserve': not a sched_configuration key" in unknown.stderr
