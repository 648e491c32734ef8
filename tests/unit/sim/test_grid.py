"""qsim sweep's grid file: what it accepts, the points it makes and their names."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.sim.grid import GridError, load_grid, points, trace_stem

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "sim"


def _grid(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "grid.toml"
    path.write_text(f'traces = ["{EXAMPLES / "golden.swf"}"]\ncell = "{EXAMPLES / "cell"}"\n{body}')
    return path


def test_points_cross_traces_and_axes_in_file_order(tmp_path: Path) -> None:
    """Every trace meets every combination; the last axis varies fastest; names say the values."""
    (tmp_path / "b.swf.gz").write_bytes(b"")
    path = tmp_path / "grid.toml"
    path.write_text(
        f'traces = ["{EXAMPLES / "golden.swf"}", "b.swf.gz"]\ncell = "{EXAMPLES / "cell"}"\n'
        "[axes]\nmax_reservation = [10, 0]\nreserve = [true, false]\n"
    )
    names = [p.name for p in points(load_grid(path))]
    assert names == [
        "golden__max_reservation=10__reserve=y",
        "golden__max_reservation=10__reserve=n",
        "golden__max_reservation=0__reserve=y",
        "golden__max_reservation=0__reserve=n",
        "b__max_reservation=10__reserve=y",
        "b__max_reservation=10__reserve=n",
        "b__max_reservation=0__reserve=y",
        "b__max_reservation=0__reserve=n",
    ]


def test_layouts_and_jsvs_are_named_by_their_files(tmp_path: Path) -> None:
    """A cell layout shows as its folder's name, a JSV as its script's name, no JSV as none."""
    script = tmp_path / "my jsv.py"
    script.write_text("")
    grid = load_grid(
        _grid(tmp_path, f'[axes]\ncell = ["{EXAMPLES / "cell"}"]\njsv = ["none", "my jsv.py"]\n')
    )
    assert [p.name for p in points(grid)] == [
        "golden__cell=cell__jsv=none",
        "golden__cell=cell__jsv=my-jsv.py",
    ]
    assert points(grid)[1].value("jsv") == str(script.resolve())


def test_same_names_get_a_number(tmp_path: Path) -> None:
    """Two values that would name the same folder get distinct point names."""
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "j.py").write_text("")
    grid = load_grid(_grid(tmp_path, '[axes]\njsv = ["a/j.py", "b/j.py"]\n'))
    assert [p.name for p in points(grid)] == ["golden__jsv=j.py", "golden__jsv=j.py-2"]


def test_no_axes_is_one_point_per_trace(tmp_path: Path) -> None:
    """A grid without axes replays each trace once on the base cell."""
    grid = load_grid(_grid(tmp_path, "seed = 3\n"))
    assert [p.name for p in points(grid)] == ["golden"]
    assert grid.seed == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "[axes]\nmax_reservatoin = [1]\n",
            "axis 'max_reservatoin': not a sched_configuration key",
        ),
        ("[axes]\nmax_reservation = []\n", "axis 'max_reservation': a non-empty list"),
        ("[axes]\nmax_reservation = 1\n", "axis 'max_reservation': a non-empty list"),
        ("[axes]\nreserve = ['y']\n", "axis 'reserve': values must be true or false"),
        ("[axes]\ncell = ['nowhere']\n", "nowhere: no such folder"),
        ("[axes]\njsv = ['nothing.sh']\n", "nothing.sh: no such file"),
        ("seed = 'x'\n", "seed: an integer is expected"),
        ("workers = 2\n", "unknown key 'workers'"),
        ("until = 'soon'\n", 'until: wrong type in "soon"'),
    ],
)
def test_bad_grids_are_refused(tmp_path: Path, body: str, message: str) -> None:
    """A grid with a wrong key or value is refused, naming the file and what is wrong."""
    with pytest.raises(GridError, match=r"grid\.toml: ") as caught:
        load_grid(_grid(tmp_path, body))
    assert message in str(caught.value)


def test_missing_trace_and_bad_toml_are_refused(tmp_path: Path) -> None:
    """A trace that does not exist, or a file that is not TOML, is refused."""
    path = tmp_path / "grid.toml"
    path.write_text('traces = ["gone.swf"]\n')
    with pytest.raises(GridError, match=r"gone\.swf: no such file"):
        load_grid(path)
    path.write_text("traces = [\n")
    with pytest.raises(GridError, match=r"grid\.toml"):
        load_grid(path)


def test_trace_stem_drops_gz_and_format() -> None:
    """A trace's stem leaves out .gz and its format suffix."""
    assert trace_stem(Path("x/CTC-SP2-1996.swf.gz")) == "CTC-SP2-1996"
    assert trace_stem(Path("accounting")) == "accounting"


def test_example_grid_reads() -> None:
    """The example grid in examples/sim (paths relative to it) gives its four points."""
    grid = load_grid(EXAMPLES / "sweep.toml")
    assert grid.cell == (EXAMPLES / "cell").resolve()
    assert len(points(grid)) == 4
