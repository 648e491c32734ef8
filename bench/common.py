"""Shared pieces of the benchmarks: a temporary cell, timing helpers and the result table.

A figure counts only next to a baseline measured in the same run on the same
machine (these machines are shared and noisy), so every :class:`Row` carries
its baseline and the ratio between the two.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qmaster.testing import RunningCell


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a result table: a figure next to its same-run baseline and its target."""

    figure: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    target: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or self.baseline == 0:
            return None
        return self.value / self.baseline


def fmt(value: float, unit: str) -> str:
    """A value with its unit, rounded for reading."""
    if unit == "ms":
        return f"{value:,.1f} ms"
    return f"{value:,.0f} {unit}"


def _cells(row: Row) -> list[str]:
    base = "" if row.baseline is None else f"{fmt(row.baseline, row.unit)} ({row.baseline_name})"
    ratio = "" if row.ratio is None else f"{row.ratio:.2f}x"
    verdict = {None: "", True: "met", False: "NOT met"}[row.met]
    target = f"{row.target} {verdict}".strip()
    return [row.figure, fmt(row.value, row.unit), base, ratio, target]


def print_table(title: str, rows: Sequence[Row]) -> None:
    """Print rows as an aligned table under ``title``."""
    header = ["figure", "value", "baseline (same run)", "ratio", "target"]
    body = [header, *(_cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in body) for i in range(len(header))]
    print(f"\n{title}")
    for n, line in enumerate(body):
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    sys.stdout.flush()


def wall_times(argv: Sequence[str], runs: int, env: Mapping[str, str] | None = None) -> list[float]:
    """Wall seconds of ``runs`` sequential runs of a process; a failing run is an error."""
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(
            list(argv), env=dict(env) if env else None, capture_output=True, check=False
        )
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace").strip()
            raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {err}")
    return times


def median_ms(times: Sequence[float]) -> float:
    """The median of a list of seconds, in milliseconds."""
    return statistics.median(times) * 1000.0


def set_conf_value(path: Path, key: str, value: str) -> None:
    text = path.read_text()
    pattern = re.compile(rf"^{re.escape(key)}\s+\S.*$", re.MULTILINE)
    if not pattern.search(text):
        raise ValueError(f'"{key}" not found in {path}')
    path.write_text(pattern.sub(f"{key:<33} {value}", text, count=1))


def bench_conf(dest: Path, schedule_interval: str | None = "0:10:0") -> Path:
    """A copy of the project's ``conf/`` at ``dest``, with a slow scheduler unless told otherwise.

    ``schedule_interval=None`` keeps the default interval; otherwise passes are
    spaced out so they do not interfere with request handling.
    """
    from qmaster.cell import DEFAULT_CONF_DIR

    shutil.copytree(DEFAULT_CONF_DIR, dest)
    if schedule_interval is not None:
        set_conf_value(dest / "sched_configuration", "schedule_interval", schedule_interval)
        set_conf_value(dest / "sched_configuration", "flush_submit_sec", "0")
    return dest


@contextmanager
def running_cell(
    root: Path, schedule_interval: str | None = "0:10:0", env: Mapping[str, str] | None = None
) -> Iterator[RunningCell]:
    """A fresh cell under ``root`` with its qmaster running; stopped on exit."""
    from qmaster.testing import create_cell

    conf = bench_conf(root / "conf", schedule_interval)
    try:
        cell = create_cell(root / "sge", conf)
        cell.env.update(env or {})
        cell.start()
    except subprocess.CalledProcessError as exc:
        tail = (exc.stderr or "").strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(exc.cmd)} failed: {' / '.join(tail)}") from None
    try:
        yield cell
    finally:
        cell.stop()


def daemon_sync_mode(cell: RunningCell) -> str:
    """The ``sync`` setting the daemon of ``cell`` runs with (file, then environment)."""
    from qmaster.conf.settings import load_settings

    return load_settings(cell.cell.settings, cell.env).sync


def venv_bin() -> Path:
    """The directory of this interpreter's commands (``qsub``, ``qmaster``)."""
    return Path(sys.executable).parent


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds a process (all its threads) has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_count() -> int:
    """CPUs this process may run on."""
    return len(os.sched_getaffinity(0))
