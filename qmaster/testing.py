"""minige's test kit, shipped with the package (and registered as a pytest plugin).

For tools that want integration tests against a real qmaster::

    def test_my_exporter(minige_cell):
        env = minige_cell.env            # SGE_ROOT, SGE_CELL, PATH for subprocesses
        minige_cell.run("qsub", "-b", "y", "sleep", "1")
        assert "sleep" in minige_cell.run("qstat").stdout

``minige_cell`` creates a cell from the project's ``conf/`` (or the folder
named by ``@pytest.mark.minige_conf(path)``) in a temporary directory, starts
``qmaster`` as a process on it, and stops it afterwards. Its jobs are
simulated; ``@pytest.mark.minige_cell(execution="local")`` (or
``@pytest.mark.parametrize("minige_cell", ["local"], indirect=True)``) makes
them run as real processes on this machine, as Grid Engine's execd would::

    @pytest.mark.minige_cell(execution="local")
    def test_my_workflow(minige_cell, tmp_path):
        done = minige_cell.run("qsub", "-sync", "y", "-cwd", "-b", "y", "echo", "hi",
                               cwd=tmp_path)
        assert done.returncode == 0 and (tmp_path / "echo.o1").read_text() == "hi\n"
 A test fails when the
daemon logged an internal error (a bug in minige) while it ran, unless it is
marked ``@pytest.mark.expect_internal_errors``. Also here: object factories
for core tests and an in-process daemon helper; :mod:`qmaster.testing_cores`
validates the cores a test builds.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import structlog
from structlog.typing import EventDict, WrappedLogger

from qmaster.cell import DEFAULT_CONF_DIR, Cell
from qmaster.logs import is_internal_error

EXPECT_INTERNAL_ERRORS = "expect_internal_errors"
NO_VALIDATE_STATE = "no_validate_state"

BIN_DIR = Path(sys.executable).parent
EXECUTION_MODES = ("simulated", "local")


@dataclass
class RunningCell:
    """A cell with a qmaster process running on it."""

    cell: Cell
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    log: list[str] = field(default_factory=list)
    _log_read: int = 0

    def run(
        self, *argv: str, input: str | None = None, check: bool = False, **kw: Any
    ) -> subprocess.CompletedProcess[str]:
        """Run an installed command (``qsub``, ``qstat``...) against this cell."""
        return subprocess.run(
            list(argv),
            env={**self.env, **kw.pop("env", {})},
            input=input,
            capture_output=True,
            text=True,
            check=check,
            timeout=kw.pop("timeout", 60),
            **kw,
        )

    def start(self, *extra: str, timeout: float = 20.0) -> None:
        """Start the daemon as a detached process and wait until it answers."""
        self.run("qmaster", "start", "--timeout", str(timeout), *extra, check=True)

    def stop(self) -> None:
        if self.cell.pidfile.exists():
            self.run("qmaster", "stop")

    def pid(self) -> int:
        return int(self.cell.pidfile.read_text().strip())

    def kill9(self) -> None:
        """Kill the daemon the hard way (a crash)."""
        from qmaster.spool.lock import lock_holder

        os.kill(self.pid(), 9)
        for _ in range(500):  # dead once the kernel has released its cell lock
            if lock_holder(self.cell.lock) is None:
                return
            time.sleep(0.01)

    def internal_errors(self) -> list[dict[str, Any]]:
        """Internal errors the daemon logged to ``messages`` since the last call."""
        try:
            with self.cell.messages.open("rb") as fh:
                fh.seek(self._log_read)
                data = fh.read()
        except FileNotFoundError:
            return []
        complete = data[: data.rfind(b"\n") + 1]
        self._log_read += len(complete)
        events = []
        for line in complete.splitlines():
            with contextlib.suppress(ValueError):
                events.append(json.loads(line))
        return [e for e in events if isinstance(e, dict) and is_internal_error(e)]


def fail_on_internal_errors(events: list[dict[str, Any]], node: pytest.Item | None) -> None:
    """Fail the test when a daemon logged an internal error it was not marked to expect."""
    if not events or (node is not None and node.get_closest_marker(EXPECT_INTERNAL_ERRORS)):
        return
    shown = "\n".join(json.dumps(e, default=str)[:2000] for e in events[:5])
    pytest.fail(f"the qmaster logged {len(events)} internal error(s):\n{shown}", pytrace=False)


@contextlib.contextmanager
def record_internal_errors() -> Iterator[list[dict[str, Any]]]:
    """Collect internal errors logged in this process (by an in-process daemon) meanwhile."""
    seen: list[dict[str, Any]] = []

    def recorder(logger: WrappedLogger, method: str, event: EventDict) -> EventDict:
        record = {"level": method, **event}
        if method == "exception" or is_internal_error(record):
            seen.append(record)
        return event

    before = structlog.get_config()["processors"]
    structlog.configure(processors=[recorder, *before])
    try:
        yield seen
    finally:
        structlog.configure(processors=before)


def make_cell_env(root: Path, name: str = "default") -> dict[str, str]:
    """The environment for commands that should use the cell at ``root``."""
    env = dict(os.environ)
    env.update(
        SGE_ROOT=str(root),
        SGE_CELL=name,
        PATH=f"{BIN_DIR}{os.pathsep}{env.get('PATH', '')}",
        HOME=str(root / "home"),
    )
    (root / "home").mkdir(parents=True, exist_ok=True)
    return env


def create_cell(root: Path, conf: Path | None = None) -> RunningCell:
    """Create (but do not start) a cell at ``root`` from ``conf``, as ``qmaster init --from
    conf`` does, in this process: the configuration's modules are imported once per test
    session rather than once per cell (a second a cell). Raises ConfigError for a bad ``conf``.
    """
    from qmaster.cell_init import init_cell

    env = make_cell_env(root)
    running = RunningCell(Cell(root, "default"), env)
    init_cell(running.cell, conf or DEFAULT_CONF_DIR)
    return running


def private_tmpdir(dest: Path, conf: Path | None = None) -> Path:
    """A copy of ``conf`` (default: the project's ``conf/``) at ``dest``, whose queues'
    ``tmpdir`` is ``dest/tmp``: local jobs of cells running side by side (parallel tests)
    then do not share ``/tmp/JOBID.TASK.QUEUE`` directories, which one cell's job end
    would remove under another's job."""
    shutil.copytree(conf or DEFAULT_CONF_DIR, dest)
    tmp = dest / "tmp"
    tmp.mkdir()
    tmp.chmod(0o1777)  # as /tmp: jobs of every user make their directories there
    for queue in (dest / "cqueues").glob("*"):
        lines = queue.read_text().splitlines()
        kept = [f"tmpdir {tmp}" if ln.split()[:1] == ["tmpdir"] else ln for ln in lines]
        queue.write_text("\n".join(kept) + "\n")
    return dest


def set_execution(running: RunningCell, mode: str) -> None:
    """Set the cell's ``execution`` (``simulated`` or ``local``) in its qmaster.toml."""
    if mode not in EXECUTION_MODES:
        raise ValueError(f"execution must be one of {', '.join(EXECUTION_MODES)}, not {mode!r}")
    path = running.cell.settings
    lines = path.read_text().splitlines() if path.exists() else []
    kept = [ln for ln in lines if ln.split("=")[0].strip() != "execution"]
    path.write_text("\n".join([*kept, f'execution = "{mode}"']) + "\n")


def _execution(request: pytest.FixtureRequest) -> str:
    """The execution mode asked for: the fixture's parameter, else the minige_cell marker."""
    param = getattr(request, "param", None)
    if isinstance(param, str):
        return param
    marker = request.node.get_closest_marker("minige_cell")
    return str(marker.kwargs.get("execution", "simulated")) if marker else "simulated"


@pytest.fixture
def minige_cell(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A temporary cell with a running qmaster; stopped when the test ends."""
    marker = request.node.get_closest_marker("minige_conf")
    conf = Path(marker.args[0]) if marker else None
    execution = _execution(request)
    if execution == "local":
        conf = private_tmpdir(tmp_path / "conf", conf)
    running = create_cell(tmp_path / "sge", conf)
    set_execution(running, execution)
    running.start()
    try:
        yield running
    finally:
        running.stop()
    fail_on_internal_errors(running.internal_errors(), request.node)


@pytest.fixture
def minige_conf_copy(tmp_path: Path) -> Path:
    """A writable copy of the default cell configuration, to edit before creating a cell."""
    dest = tmp_path / "conf"
    shutil.copytree(DEFAULT_CONF_DIR, dest)
    return dest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "minige_conf(path): create the minige_cell from this configuration folder"
    )
    config.addinivalue_line(
        "markers",
        'minige_cell(execution="local"): the minige_cell runs its jobs as real processes',
    )
    config.addinivalue_line(
        "markers",
        f"{EXPECT_INTERNAL_ERRORS}: the test provokes internal errors in the qmaster on purpose",
    )
    config.addinivalue_line(
        "markers",
        f"{NO_VALIDATE_STATE}: the test changes a core's state behind its back on purpose, "
        "so its cores are not validated after each stimulus",
    )
