"""The ``qmaster`` command: create a cell, start and stop its daemon."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click

from qmaster.cell import Cell, default_root
from qmaster.digits import is_digits
from qmaster.gdi.client import GdiError
from qmaster.gdi.client import call as gdi_call
from qmaster.spool.lock import lock_holder
from qmaster.version import VERSION


def _cell() -> Cell:
    return Cell.from_env()


def _embedded(cell: Cell) -> bool:
    return "SGE_ROOT" not in os.environ and cell.root == default_root()


@click.group(context_settings={"help_option_names": ["-h", "--help", "-help"]})
@click.version_option(VERSION, message="GE 6.2u5\nminige %(version)s")
def main() -> None:
    """minige's qmaster: a Grid Engine master daemon with simulated execution hosts."""


@main.command()
@click.option(
    "--from",
    "source",
    type=click.Path(path_type=Path, file_okay=False),
    help="Configuration folder (default: the project's conf/).",
)
def init(source: Path | None) -> None:
    """Create the cell at $SGE_ROOT/$SGE_CELL from a configuration folder."""
    from qmaster.cell_init import CellExists, init_cell
    from qmaster.conf.errors import ConfigError

    cell = _cell()
    try:
        init_cell(cell, source)
    except (ConfigError, CellExists, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f'created cell "{cell.path}"')


@main.command()
@click.option("--foreground", is_flag=True, help="Stay attached (for systemd and make run).")
@click.option(
    "--ignore-state-errors", is_flag=True, help="Start with what can be read of a damaged spool."
)
@click.option(
    "--timeout", default=15.0, show_default=True, help="Seconds to wait for the daemon to answer."
)
def start(foreground: bool, ignore_state_errors: bool, timeout: float) -> None:
    """Start the daemon; without --foreground, return once it answers requests."""
    cell = _cell()
    if not cell.database.exists():
        if not _embedded(cell):
            raise click.ClickException(
                f'cell "{cell.path}" does not exist; create it with "qmaster init" '
                f"(SGE_ROOT={cell.root}, SGE_CELL={cell.name})"
            )
        from qmaster.cell_init import init_cell

        init_cell(cell)
        click.echo(f'created cell "{cell.path}" from the project\'s conf/', err=True)
    if ignore_state_errors:
        _salvage(cell)
    if foreground:
        sys.exit(_run_foreground(cell, ignore_state_errors))
    _start_detached(cell, ignore_state_errors, timeout)


def _salvage(cell: Cell) -> None:
    """Put what can be read of a damaged spool database in its place, under the cell lock
    (a running daemon's database is left alone: the start will refuse anyway)."""
    from qmaster.spool.lock import CellLock, LockHeld
    from qmaster.spool.salvage import salvage

    lock = CellLock(cell.lock)
    try:
        lock.acquire()
    except LockHeld:
        return
    try:
        done = salvage(cell.database)
    finally:
        lock.release()
    if done is not None:
        click.echo(done.summary(), err=True)


def _run_foreground(cell: Cell, ignore_state_errors: bool) -> int:
    from qmaster import logs
    from qmaster.conf.errors import ConfigError
    from qmaster.conf.settings import load_settings
    from qmaster.daemon import Daemon, StartupError

    try:
        settings = load_settings(cell.settings)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        return 1
    console = (
        settings.log_format if sys.stderr.isatty() or os.environ.get("MINIGE_LOG_CONSOLE") else None
    )
    logs.configure(cell.messages, console)
    daemon = Daemon(cell, settings, ignore_state_errors=ignore_state_errors)
    answering = False

    def ready() -> None:
        nonlocal answering
        answering = True
        _notify_ready()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, daemon.stop)
        await daemon.run(ready=ready)

    try:
        import uvloop

        uvloop.run(run())
    except StartupError as exc:
        click.echo(f"error: {exc}", err=True)
        return 1
    except OSError as exc:
        if answering:  # not a start that the system refused: let it show where it came from
            raise
        # the system refused the start (a socket path that is no socket, a spool not ours...)
        click.echo(f"error: {exc}", err=True)
        return 1
    return 0


def _notify_ready() -> None:
    """Tell systemd (Type=notify) that requests are being answered."""
    import socket

    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return
    if addr.startswith("@"):
        addr = "\0" + addr[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.sendto(b"READY=1", addr)


def _start_detached(cell: Cell, ignore_state_errors: bool, timeout: float) -> None:
    running = lock_holder(cell.lock)
    if running is not None:
        raise click.ClickException(
            f'a qmaster is already running on this cell (pid {running}, lock "{cell.lock}")'
        )
    cell.spool.mkdir(parents=True, exist_ok=True)
    out = cell.spool / "qmaster.out"
    seen = out.stat().st_size if out.exists() else 0  # earlier starts' lines are not ours
    cmd = [sys.executable, "-m", "qmaster", "start", "--foreground"]
    if ignore_state_errors:
        cmd.append("--ignore-state-errors")
    with open(out, "ab") as log:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            with open(out, "rb") as fh:
                fh.seek(seen)
                tail = fh.read().decode(errors="replace").strip().splitlines()[-3:]
            raise click.ClickException("qmaster did not start: " + " / ".join(tail))
        try:
            gdi_call("ping", path=cell.socket, timeout=max(0.05, deadline - time.monotonic()))
        except GdiError:
            time.sleep(0.05)
            continue
        click.echo(f'qmaster started on cell "{cell.path}" (pid {proc.pid})')
        return
    proc.terminate()
    raise click.ClickException(f"qmaster did not answer within {timeout:g} s")


@main.command()
@click.option("--timeout", default=15.0, show_default=True)
def stop(timeout: float) -> None:
    """Shut the daemon down cleanly (like qconf -km)."""
    cell = _cell()
    # the lock, not the pidfile, says which process is the daemon: a pidfile left by a
    # crash may name a process that has nothing to do with us by now
    holder = lock_holder(cell.lock)
    if holder is None:
        raise click.ClickException(f'no qmaster is running on cell "{cell.path}"')
    if not is_digits(holder):
        raise click.ClickException(f'cannot tell which process holds "{cell.lock}"')
    pid = int(holder)
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        raise click.ClickException(f'no qmaster is running on cell "{cell.path}"') from None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # the lock goes with the process's descriptors, before a parent reaps it
        if lock_holder(cell.lock) is None:
            click.echo("qmaster stopped")
            return
        time.sleep(0.02)
    raise click.ClickException(f"qmaster (pid {pid}) did not stop within {timeout:g} s")


@main.command()
def status() -> None:
    """Say whether the daemon answers."""
    cell = _cell()
    try:
        reply = gdi_call("ping", path=cell.socket)
    except GdiError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    click.echo(f'qmaster {reply.data["version"]} is running on cell "{cell.path}"')
