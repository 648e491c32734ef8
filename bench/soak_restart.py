"""The soak's big restart: a cell of ``--jobs`` held jobs and ``--ars`` future advance
reservations is started twice over, and each start's time to its first answer is split
into what came before the recovery (the interpreter, imports, lock and spool), the
recovery itself (``state_recovered``) and what came after it. Then the same with the
jobs waiting instead of held (16 of them run): the first pass then files every job
into the pending index, which it builds a slice at a time while it answers.

The client asks as soon as the socket exists, with a long timeout (the daemon listens
before it recovers: the question waits in the backlog and is answered once the state
is whole). The modules' bytecode is compiled first (``compileall``, beside the
sources), as a ``pip install`` leaves it: where ``PYTHONDONTWRITEBYTECODE`` is set, as
in this project's sandbox, every start would otherwise compile the sources again
(0.5-0.7 s more before the recovery on the shared 2-core machine).
"""

from __future__ import annotations

import compileall
import json
import signal
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.attacks import HELD_JOB, roomy_conf, rss_mib
from bench.soak_table import Table
from qmaster.gdi.client import Connection, GdiError
from qmaster.testing import RunningCell, create_cell

PACKAGES = ("qmaster", "schedd", "clients")


@dataclass
class Start:
    """One start of the big cell, timed."""

    first: float  # from the process's start to its first answer
    age: float  # the process's age when it began answering (its qmaster_started line)
    recovery: float  # state_recovered's seconds
    listed: int
    granted: int
    rss: float

    def phases(self) -> str:
        before = self.age - self.recovery
        return f"{before:.2f} + {self.recovery:.2f} + {self.first - self.age:.2f} s"


def big_restart(root: Path, jobs: int, ars: int, table: Table) -> None:
    for held in (True, False):
        _restarts(root, jobs, ars, table, held=held)


def _restarts(root: Path, jobs: int, ars: int, table: Table, *, held: bool) -> None:
    job = HELD_JOB if held else {k: v for k, v in HELD_JOB.items() if k != "h"}
    cell = _big_cell(root / ("held" if held else "waiting"), jobs, ars, job)
    attack = f"restart: {jobs:,} {'held' if held else 'waiting'} jobs, {ars:,} ARs"
    _compile_bytecode()
    starts = [_start(cell, cell.env) for _ in range(2)]
    worst = max(s.first for s in starts)
    shown = " / ".join(f"{s.first:.2f} s" for s in starts)
    table.add(attack, "first answer after start (2 starts)", shown, "<= 5 s", worst <= 5.0)
    table.add(
        attack,
        "  of it: before recovery + recovery + after",
        " / ".join(s.phases() for s in starts),
    )
    whole = all(s.listed == jobs and s.granted == ars for s in starts)
    last = starts[-1]
    table.add(
        attack,
        "jobs / ARs listed after each restart",
        f"{last.listed:,} / {last.granted:,}",
        "all",
        whole,
    )
    table.add(attack, "RSS after recovery", f"{last.rss:.0f} MiB")


def _big_cell(root: Path, jobs: int, ars: int, job: dict[str, Any]) -> RunningCell:
    cell = create_cell(root / "big", roomy_conf(root / "big-conf"))
    cell.start(timeout=60)
    now = time.time()
    with Connection(cell.cell.socket) as conn:
        assert conn.call("submit", {"job": job}).ok
        for i in range(ars):
            reply = conn.call("ar_submit", {"ar": {"a": now + 86_400 + i * 700, "d": 600.0}})
            if not reply.ok:
                raise SystemExit(f"AR {i} refused: {reply.answers}")
    cell.run("qmaster", "stop", "--timeout", "60")
    with sqlite3.connect(cell.cell.database) as db:
        (row,) = db.execute("SELECT row FROM jobs WHERE job_id=1").fetchone()
        db.executemany(
            "INSERT INTO jobs VALUES (?, ?)",
            ((i, row.replace('"job_id": 1,', f'"job_id": {i},')) for i in range(2, jobs + 1)),
        )
        db.execute("INSERT OR REPLACE INTO counters VALUES ('job', ?)", (jobs + 1,))
    return cell


def _compile_bytecode() -> None:
    """The project's modules compiled beside their sources (as an installed package has
    them; site-packages and the standard library are already)."""
    here = Path(__file__).resolve().parent.parent
    for package in PACKAGES:
        compileall.compile_dir(here / package, quiet=1)


def _start(cell: RunningCell, env: dict[str, str]) -> Start:
    logged = cell.cell.messages.stat().st_size
    proc = subprocess.Popen(
        ["qmaster", "start", "--foreground"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    started = time.monotonic()
    first = float("inf")
    while proc.poll() is None and time.monotonic() - started < 120:
        try:
            with Connection(cell.cell.socket, timeout=120) as conn:
                conn.call("ping", {})
            first = time.monotonic() - started
            break
        except GdiError:  # no socket yet
            time.sleep(0.005)
    with Connection(cell.cell.socket, timeout=60) as conn:
        listed = len(conn.call("job_list", {"users": ["*"]}).data["jobs"])
        granted = len(conn.call("ar_list", {"users": None, "ar_ids": None}).data["ars"])
    rss = rss_mib(proc.pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    age, recovery = _logged_times(cell, logged)
    return Start(first, age, recovery, listed, granted, rss)


def _logged_times(cell: RunningCell, since: int) -> tuple[float, float]:
    """The qmaster_started age and the state_recovered seconds logged since ``since``."""
    age = recovery = float("nan")
    with cell.cell.messages.open("rb") as fh:
        fh.seek(since)
        for line in fh.read().decode(errors="replace").splitlines():
            if '"state_recovered"' in line:
                recovery = float(json.loads(line)["seconds"])
            elif '"qmaster_started"' in line:
                age = float(json.loads(line).get("age") or "nan")
    return age, recovery
