"""``qsim sweep``'s grid file: traces × axes of configuration, and the points it makes.

A grid file is TOML::

    traces = ["golden.swf", "month.swf.gz"]   # replayed at every point
    cell = "cell"                             # the base cell folder (default: conf/)
    seed = 1                                  # optional, as qsim run --seed
    until = "24:0:0"                          # optional, as qsim run --until
    pe = "mpi"                                # optional, as qsim run --pe
    ars = "ars.txt"                           # optional, as qsim run --ars

    [axes]                                    # each axis: a list of values
    max_reservation = [0, 1, 10]              # any sched_configuration key
    cell = ["cell", "wide_cell"]              # queue layouts: whole cell folders
    jsv = ["none", "jsv.sh"]                  # the server JSV (jsv_url), or none
    reserve = [false, true]                   # -R n / -R y on every job

Paths are relative to the grid file. The points are every trace crossed with
every combination of the axes' values, in the file's order (the first trace and
the first value of each axis first; the last axis varies fastest). A point's
name is the trace's stem then ``__axis=value`` per axis, e.g.
``golden__max_reservation=1__reserve=y``.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.values import parse_time

SPECIAL = ("cell", "jsv", "reserve")
"""Axes that are not sched_configuration keys."""
TOP_KEYS = ("traces", "cell", "seed", "until", "pe", "ars", "axes")
Scalar = str | int | float | bool


class GridError(ValueError):
    """The grid file is not a valid sweep description."""


@dataclass(frozen=True, slots=True)
class Grid:
    """A parsed grid file: paths resolved, axes in the file's order."""

    traces: tuple[Path, ...]
    cell: Path
    axes: tuple[tuple[str, tuple[Scalar, ...]], ...]
    seed: int | None = None
    until: str | None = None
    pe: str | None = None
    ars: Path | None = None


@dataclass(frozen=True, slots=True)
class Point:
    """One replay of the sweep: a trace and one value per axis."""

    name: str
    trace: Path
    values: tuple[tuple[str, Scalar], ...]

    def value(self, axis: str) -> Scalar | None:
        """This point's value on ``axis`` (``None`` if the grid has no such axis)."""
        return dict(self.values).get(axis)


def load_grid(path: Path) -> Grid:
    """Read and check a grid file."""
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise GridError(f"{path}: {exc}") from None
    try:
        return parse_grid(data, path.parent, sched_keys(_cell(data, path.parent)))
    except GridError as exc:
        raise GridError(f"{path}: {exc}") from None


def _cell(data: dict[str, Any], base: Path) -> Path:
    cell = data.get("cell")
    if cell is None:
        return DEFAULT_CONF_DIR
    if not isinstance(cell, str):
        raise GridError("cell: a folder name is expected")
    return (base / cell).resolve()


def sched_keys(cell: Path) -> frozenset[str]:
    """The keys of the cell's sched_configuration file (none if it has none)."""
    path = cell / "sched_configuration"
    if not path.is_file():
        return frozenset()
    return frozenset(
        line.split()[0]
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith(("#", " ", "\t"))
    )


def parse_grid(data: dict[str, Any], base: Path, keys: frozenset[str]) -> Grid:
    """The grid of TOML ``data``; paths relative to ``base``; ``keys``: the sched keys."""
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise GridError(f"unknown key {unknown[0]!r} (expected one of {', '.join(TOP_KEYS)})")
    traces = data.get("traces")
    if not isinstance(traces, list) or not traces or not all(isinstance(t, str) for t in traces):
        raise GridError("traces: a non-empty list of trace files is expected")
    axes = data.get("axes", {})
    if not isinstance(axes, dict):
        raise GridError("axes: a table of lists is expected")
    return Grid(
        traces=tuple(_existing(base / t, "trace") for t in traces),
        cell=_cell(data, base),
        axes=tuple((name, _axis(name, values, base, keys)) for name, values in axes.items()),
        seed=_optional(data, "seed", int),
        until=_until(_optional(data, "until", str)),
        pe=_optional(data, "pe", str),
        ars=_existing(base / data["ars"], "ars") if "ars" in data else None,
    )


def _existing(path: Path, what: str) -> Path:
    if not path.is_file():
        raise GridError(f"{what} {path}: no such file")
    return path.resolve()


def _optional(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise GridError(f"{key}: {'an integer' if kind is int else 'a string'} is expected")
    return value


def _until(text: str | None) -> str | None:
    if text is not None:
        try:
            parse_time(text)
        except ValueError as exc:
            raise GridError(f"until: {exc}") from None
    return text


def _axis(name: str, values: Any, base: Path, keys: frozenset[str]) -> tuple[Scalar, ...]:
    if name not in SPECIAL and name not in keys:
        raise GridError(
            f"axis {name!r}: not a sched_configuration key nor one of cell, jsv, reserve"
        )
    if not isinstance(values, list) or not values:
        raise GridError(f"axis {name!r}: a non-empty list of values is expected")
    if not all(isinstance(v, str | int | float | bool) for v in values):
        raise GridError(f"axis {name!r}: values must be strings, numbers or booleans")
    if name == "reserve" and not all(isinstance(v, bool) for v in values):
        raise GridError("axis 'reserve': values must be true or false")
    if name == "cell":
        return tuple(_layout(base, v) for v in values)
    if name == "jsv":
        return tuple(_jsv(base, v) for v in values)
    return tuple(values)


def _layout(base: Path, value: Scalar) -> str:
    path = (base / str(value)).resolve()
    if not path.is_dir():
        raise GridError(f"axis 'cell': {path}: no such folder")
    return str(path)


def _jsv(base: Path, value: Scalar) -> str:
    """``none`` (or false) for no JSV; a script path is resolved against the grid's folder."""
    text = str(value)
    if value is False or text.lower() == "none":
        return "none"
    scheme, sep, rest = text.partition(":")
    if sep and scheme == "script":
        text = rest
    elif sep and not text.startswith(("/", ".")):
        return text
    path = (base / text).resolve()
    if not path.is_file():
        raise GridError(f"axis 'jsv': {path}: no such file")
    return str(path)


def label(axis: str, value: Scalar) -> str:
    """How a value shows in a point's name."""
    if axis == "reserve":
        return "y" if value else "n"
    if axis in ("cell", "jsv") and value != "none":
        return Path(str(value)).name
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def trace_stem(trace: Path) -> str:
    """A trace's name without ``.gz`` and its format suffix."""
    name = trace.name.removesuffix(".gz")
    return name.rsplit(".", 1)[0] if "." in name else name


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]", "-", text)


def points(grid: Grid) -> list[Point]:
    """Every point of the grid, in its deterministic order, with unique names."""
    names = [axis for axis, _ in grid.axes]
    out: list[Point] = []
    seen: dict[str, int] = {}
    for trace in grid.traces:
        for combo in itertools.product(*(values for _, values in grid.axes)):
            parts = [
                trace_stem(trace),
                *(f"{a}={label(a, v)}" for a, v in zip(names, combo, strict=True)),
            ]
            name = _safe("__".join(parts))
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}-{seen[name]}"
            out.append(Point(name, trace, tuple(zip(names, combo, strict=True))))
    return out
