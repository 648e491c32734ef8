"""A sweep point's cell: a copy of the base (or layout) cell with the point's values set.

The copy is a whole cell folder in the daemon's format, written to
``OUT/<point>/cell``, so a point can be replayed again alone with
``qsim run TRACE --cell OUT/<point>/cell``. Values are set in the files as
``qconf -msconf``/``-mconf`` would leave them: sched_configuration keys in
``sched_configuration``, the JSV as ``jsv_url`` in ``configuration``, and
``reserve`` as a ``-R y``/``-R n`` line at the end of ``sge_request`` (after
the cell's own defaults, so it holds for every job that does not ask otherwise).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from qmaster.sim.grid import Grid, Point, Scalar


def set_key(text: str, key: str, value: str, width: int = 33) -> str:
    """``text`` (a configuration file) with ``key``'s line, continuations included, replaced
    (added when missing; the value starts after ``width`` columns)."""
    lines = text.splitlines()
    out: list[str] = []
    skipping = False
    found = False
    for line in lines:
        if skipping:
            skipping = line.rstrip().endswith("\\")
            continue
        if re.match(rf"{re.escape(key)}\s", line) or line.strip() == key:
            out.append(f"{key:<{width}} {value}")
            skipping = line.rstrip().endswith("\\")
            found = True
            continue
        out.append(line)
    if not found:
        out.append(f"{key:<{width}} {value}")
    return "\n".join(out) + "\n"


def value_text(value: Scalar) -> str:
    """A TOML value as a configuration file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def make_cell(grid: Grid, point: Point, dest: Path) -> Path:
    """Write the point's cell into ``dest`` (replacing what was there) and return it."""
    source = Path(str(point.value("cell") or grid.cell))
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    for axis, value in point.values:
        if axis == "jsv" and (value != "none" or (dest / "configuration").exists()):
            _edit(dest / "configuration", "jsv_url", str(value))
        elif axis == "reserve":
            request = dest / "sge_request"
            before = request.read_text() if request.exists() else ""
            sep = "" if not before or before.endswith("\n") else "\n"
            request.write_text(f"{before}{sep}-R {'y' if value else 'n'}\n")
        elif axis != "cell":
            _edit(dest / "sched_configuration", axis, value_text(value))
    return dest


def _edit(path: Path, key: str, value: str) -> None:
    text = path.read_text() if path.exists() else ""
    path.write_text(set_key(text, key, value))
