"""``python -m bench.gdi_bench`` — how fast the qmaster accepts jobs through the GDI.

Three figures, each next to a baseline measured in the same run:

* submissions per second (``submit`` of ``-b y true``, each acknowledged only
  once its rows are committed to the spool) with 1 and with N concurrent
  clients on persistent connections, and with N clients opening a new
  connection per request (like ``qsub`` processes do). The baseline is a bare
  echo server (uvloop, asyncio streams, the same frame codec) driven by the
  same client code over the same kind of Unix socket;
* the median wall time of a ``qsub -b y -terse true`` process, next to the
  start-up of ``python -c pass``.

The daemon runs as its own process on a temporary cell copied from ``conf/``
with ``schedule_interval`` set to 10 minutes, so scheduling passes do not run
during the measurement (``--default-scheduler`` keeps the 1 s default).
Client load comes from threads of this process, one ``Connection`` each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bench.common import (
    Row,
    cpu_count,
    daemon_sync_mode,
    median_ms,
    print_table,
    process_cpu_seconds,
    running_cell,
)
from bench.common import wall_times as process_wall_times
from qmaster.gdi.client import Connection, GdiError
from qmaster.gdi.frames import NEED_DATA, FrameDecoder, encode_frame

if TYPE_CHECKING:
    from qmaster.testing import RunningCell

SUBMIT_ARGS: dict[str, Any] = {"job": {"CMDNAME": "true", "b": True}, "verify": "n"}
TARGET_RATE = 5_000.0
TARGET_QSUB_MS = 150.0


# -- the baseline server -----------------------------------------------------------


async def _echo_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    decoder = FrameDecoder()
    try:
        while True:
            body = decoder.next_frame()
            if body is None:
                break
            if body is NEED_DATA:
                decoder.receive_data(await reader.read(1 << 16))
                continue
            assert isinstance(body, bytes)
            writer.write(encode_frame(body))
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def _echo_serve(path: Path) -> None:
    server = await asyncio.start_unix_server(_echo_connection, path=str(path), limit=1 << 16)
    print("ready", flush=True)
    async with server:
        await asyncio.to_thread(sys.stdin.read)  # serve until our parent closes stdin


@contextlib.contextmanager
def echo_server(path: Path) -> Iterator[Path]:
    """Run the bare echo server as its own process (like the daemon) while inside."""
    cmd = [sys.executable, "-m", "bench.gdi_bench", "--echo-server", str(path)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdin is not None
    try:
        if proc.stdout.readline().strip() != b"ready":
            raise RuntimeError("the echo server did not start")
        yield path
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- load generation ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """What one client did during the measured window."""

    done: int = 0
    failed: int = 0
    seconds: float = 0.0
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Load:
    """What all the clients of one measurement did."""

    results: list[Result]
    warmup: int = 0

    @property
    def rate(self) -> float:
        """Completed requests per second, summed over the clients."""
        return sum(r.done / r.seconds for r in self.results if r.seconds)

    @property
    def done(self) -> int:
        return sum(r.done for r in self.results)

    @property
    def failed(self) -> int:
        return sum(r.failed for r in self.results)

    @property
    def errors(self) -> list[str]:
        return [r.error for r in self.results if r.error]


Check = Callable[[Any], bool]


class _Barrier(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...
    def abort(self) -> None: ...


def _client(
    path: Path,
    reconnect: bool,
    check: Check,
    barrier: _Barrier,
    seconds: float,
    submit: dict[str, Any] = SUBMIT_ARGS,
) -> Result:
    """Send ``submit`` until the window closes; the window opens when every client is ready."""
    done = failed = 0
    conn: Connection | None = None
    try:
        conn = None if reconnect else Connection(path)
        barrier.wait(timeout=30)
        began = time.perf_counter()
        while time.perf_counter() - began < seconds:
            if conn is None:
                with Connection(path) as fresh:
                    reply = fresh.call("submit", submit)
            else:
                reply = conn.call("submit", submit)
            if check(reply):
                done += 1
            else:
                failed += 1
        return Result(done, failed, time.perf_counter() - began)
    except GdiError as exc:
        barrier.abort()  # nobody waits for a client that will never arrive
        return Result(done, failed, 0.0, str(exc))
    except threading.BrokenBarrierError:
        return Result(error="another client could not start")
    finally:
        if conn is not None:
            conn.close()


def _in_process(queue: Any, *args: Any) -> None:
    queue.put(_client(*args))


def _threads(
    clients: int, path: Path, reconnect: bool, check: Check, seconds: float, submit: dict[str, Any]
) -> Load:
    results: list[Result] = []
    barrier = threading.Barrier(clients)

    def one() -> None:
        results.append(_client(path, reconnect, check, barrier, seconds, submit))

    threads = [threading.Thread(target=one) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Load(results)


def _processes(
    clients: int, path: Path, reconnect: bool, check: Check, seconds: float, submit: dict[str, Any]
) -> Load:
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    args = (queue, path, reconnect, check, ctx.Barrier(clients), seconds, submit)
    workers = [ctx.Process(target=_in_process, args=args) for _ in range(clients)]
    for w in workers:
        w.start()
    try:
        found = [queue.get(timeout=seconds + 60) for _ in workers]
    finally:
        for w in workers:
            w.join(timeout=10)
    return Load(found)


def drive(
    path: Path,
    clients: int,
    seconds: float,
    *,
    reconnect: bool,
    check: Check,
    procs: bool,
    submit: dict[str, Any] = SUBMIT_ARGS,
) -> Load:
    """``clients`` clients (processes, or threads of this one) sending ``submit`` to ``path``."""
    run = _processes if procs else _threads
    return run(clients, path, reconnect, check, seconds, submit)


def acknowledged(reply: Any) -> bool:
    """A submit reply that says the job was accepted."""
    return bool(reply.ok and isinstance(reply.data, dict) and reply.data.get("job_id"))


def answered(reply: Any) -> bool:
    """Any decoded reply (the echo server's)."""
    return reply is not None


# -- the measurement -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    """One load shape: how many clients, and whether each request opens a connection."""

    label: str
    clients: int
    reconnect: bool


def cases(clients: int) -> list[Case]:
    return [
        Case("submit/s, 1 client, persistent connection", 1, False),
        Case(f"submit/s, {clients} clients, persistent connections", clients, False),
        Case(f"submit/s, {clients} clients, a connection per request", clients, True),
    ]


def _measure(path: Path, case: Case, args: argparse.Namespace, check: Check) -> Load:
    def go(seconds: float) -> Load:
        return drive(
            path,
            case.clients,
            seconds,
            reconnect=case.reconnect,
            check=check,
            procs=not args.threads,
        )

    warm = go(min(0.3, args.seconds))
    load = go(args.seconds)
    load = Load(load.results, warm.done)
    if load.errors or load.failed:
        raise RuntimeError(
            f"{case.label}: {load.failed} refused, errors: {'; '.join(load.errors[:3])}"
        )
    return load


def known_jobs(database: Path, accounting: Path) -> int:
    """Jobs the cell still holds in its spool or has written to ``accounting`` as finished.

    Read after the daemon stopped, so every buffered accounting line is on disk.
    """
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        ids = {int(row[0]) for row in db.execute("SELECT job_id FROM jobs")}
    finally:
        db.close()
    if accounting.exists():
        with accounting.open() as fh:
            ids.update(int(line.split(":")[5]) for line in fh if not line.startswith("#"))
    return len(ids)


@dataclass(slots=True)
class Report:
    """The table rows and the notes printed under them."""

    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _daemon_rows(
    cell: RunningCell, args: argparse.Namespace, base: dict[str, float], report: Report
) -> int:
    """Measure every shape against the daemon into ``report``; returns the jobs acknowledged."""
    acked = 0
    for case in cases(args.clients):
        before = process_cpu_seconds(cell.pid())
        load = _measure(cell.cell.socket, case, args, acknowledged)
        cpu = process_cpu_seconds(cell.pid()) - before
        acked += load.done + load.warmup
        report.notes.append(
            f"daemon CPU per submission, {case.label.removeprefix('submit/s, ')}: "
            f"{cpu / (load.done + load.warmup) * 1e6:,.0f} µs"
        )
        met = load.rate >= TARGET_RATE if case.clients >= 8 and not case.reconnect else None
        target = "≥ 5,000/s" if met is not None else ""
        report.rows.append(Row(case.label, load.rate, "/s", base[case.label], "echo", target, met))
    return acked


def run(args: argparse.Namespace) -> Report:
    """Measure everything."""
    report = Report()
    interval = None if args.default_scheduler else "0:10:0"
    env = {"MINIGE_SYNC": args.sync} if args.sync else {}
    with tempfile.TemporaryDirectory(prefix="minige-bench-") as tmp:
        root = Path(tmp)
        with echo_server(root / "echo.sock") as echo:
            base = {c.label: _measure(echo, c, args, answered).rate for c in cases(args.clients)}
        with running_cell(root, interval, env) as cell:
            print(f"daemon: sync={daemon_sync_mode(cell)}, scheduler interval "
                  f"{interval or 'default (0:0:1)'}, {cpu_count()} CPUs, clients as {'threads' if args.threads else 'processes'}")  # fmt: skip
            acked = _daemon_rows(cell, args, base, report)
            qsub = process_wall_times(["qsub", "-b", "y", "-terse", "true"], args.runs, cell.env)
        stored = known_jobs(cell.cell.database, cell.cell.common / "accounting")
        acked += args.runs
        report.notes.append(
            f"spool check: {acked} submissions acknowledged, {stored} jobs spooled or accounted"
        )
        if stored < acked:
            raise RuntimeError(f"{acked - stored} acknowledged jobs are missing from the spool")
        python = process_wall_times([sys.executable, "-c", "pass"], args.runs)
    q_ms, py_ms = median_ms(qsub), median_ms(python)
    report.rows.append(
        Row(f"qsub round trip, median of {args.runs}", q_ms, "ms", py_ms, "python -c pass",
            "≤ 150 ms", q_ms <= TARGET_QSUB_MS)
    )  # fmt: skip
    return report


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gdi_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--runs", type=int, default=30, help="qsub processes to time")
    parser.add_argument("--sync", choices=["normal", "full"], help="MINIGE_SYNC for the daemon")
    parser.add_argument(
        "--default-scheduler", action="store_true", help="keep schedule_interval 0:0:1"
    )
    parser.add_argument(
        "--threads", action="store_true", help="clients as threads of one process, not processes"
    )
    parser.add_argument("--echo-server", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.echo_server is not None:
        import uvloop

        uvloop.run(_echo_serve(args.echo_server))
        return 0
    report = run(args)
    print_table("GDI: job submission through the qmaster", report.rows)
    for note in report.notes:
        print(f"  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
