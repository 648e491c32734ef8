"""A cell in local execution mode for end-to-end tests, and waits on what its jobs write."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.testing import (
    RunningCell,
    create_cell,
    fail_on_internal_errors,
    private_tmpdir,
    set_execution,
)
from tests.e2e.cells import stop_quietly


def local_cell_at(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell whose qmaster.toml says execution = "local", its daemon running, under
    a 0755 directory so that other users reach its socket."""
    base = Path(tempfile.mkdtemp(prefix="minige-local-"))
    base.chmod(0o755)
    running = create_cell(base / "sge", private_tmpdir(base / "conf"))
    for path in (base / "sge", running.cell.path, running.cell.common, running.cell.spool):
        path.chmod(path.stat().st_mode | 0o055)
    set_execution(running, "local")
    running.start()
    try:
        yield running
    finally:
        stop_quietly(running)
        shutil.rmtree(base, ignore_errors=True)
    fail_on_internal_errors(running.internal_errors(), request.node)


def wait_file(path: Path, timeout: float = 20.0) -> str:
    """The file's text once it has some."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()):
        if time.monotonic() > deadline:
            pytest.fail(f"{path} was not written")
        time.sleep(0.05)
    return path.read_text()


def wait_file_exists(path: Path, timeout: float = 20.0) -> None:
    """Wait until the file exists."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"{path} was not created")
        time.sleep(0.05)


def accounting(cell: RunningCell, count: int = 1, timeout: float = 20.0) -> list[list[str]]:
    """The accounting file's lines as fields, once it has ``count`` (or at the timeout)."""
    path = cell.cell.common / "accounting"
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text() if path.exists() else ""
        lines = [ln.split(":") for ln in text.splitlines() if ln and not ln.startswith("#")]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def processes_with(marker: str) -> list[int]:
    """The pids of the processes whose environment or command line holds ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            data = (proc / "cmdline").read_bytes() + (proc / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in data:
            found.append(int(proc.name))
    return found
