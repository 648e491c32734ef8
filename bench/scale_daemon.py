"""The scale benchmark's work against a real qmaster: filling it, and timing what users do.

Jobs are submitted over the GDI by ``CLIENTS`` forked processes, one persistent
connection each, every submission acknowledged (committed) before the next;
each client notes the monotonic time of every acknowledgement, so the rate
over any slice of the fill can be read afterwards. Everything that waits on
the daemon has a deadline or a timeout: a daemon that falls behind makes a
figure "over budget" or "timed out", never a hang.
"""

from __future__ import annotations

import compileall
import json
import multiprocessing
import os
import statistics
import subprocess
import threading
import time
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import clients
import qmaster
import schedd
from bench.common import process_cpu_seconds
from bench.scale_cell import PROJECTS, RUNTIME, pending_spec, runner_spec
from qmaster.gdi.client import Connection, GdiError

if TYPE_CHECKING:
    from qmaster.testing import RunningCell

CLIENTS = 4
IDLE_SECONDS = 5.0
CPU_SAMPLE_SECONDS = 0.1
SETTLE_SECONDS = 2.0


# -- filling ------------------------------------------------------------------------


@dataclass(slots=True)
class Fill:
    """What the clients of one fill did: acknowledgement times (sorted) and job ids."""

    started: float
    acks: list[float] = field(default_factory=list)
    job_ids: list[int] = field(default_factory=list)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    cpu: list[tuple[float, float]] = field(default_factory=list)
    """(monotonic time, the daemon's CPU seconds so far), sampled while the fill ran."""

    def rate(self, first: bool, share: float = 0.1) -> float | None:
        """Submissions per second over the first (or last) ``share`` of the acknowledgements.

        Timed from acknowledgement to acknowledgement, so the clients' start (forking,
        connecting) is not counted against the daemon.
        """
        n = int(len(self.acks) * share)
        if n < 2:
            return None
        span = self.acks[n - 1] - self.acks[0] if first else self.acks[-1] - self.acks[-n]
        return (n - 1) / span if span > 0 else None

    def cpu_per_job(self, first: bool, share: float = 0.1) -> float | None:
        """The daemon's CPU seconds per submission over the first (or last) ``share`` of
        the acknowledgements: unlike the rate, not lowered by other load on the machine."""
        n = int(len(self.acks) * share)
        if n < 2 or len(self.cpu) < 2:
            return None
        t0, t1 = (self.acks[0], self.acks[n - 1]) if first else (self.acks[-n], self.acks[-1])
        used = self._cpu_at(t1) - self._cpu_at(t0)
        return used / (n - 1) if used > 0 else None

    def _cpu_at(self, t: float) -> float:
        """The daemon's CPU seconds at time ``t``, between the two samples around it."""
        times = [s[0] for s in self.cpu]
        i = min(max(bisect_left(times, t), 1), len(times) - 1)
        (ta, ca), (tb, cb) = self.cpu[i - 1], self.cpu[i]
        return ca + (cb - ca) * min(max((t - ta) / (tb - ta), 0.0), 1.0) if tb > ta else cb

    def overall(self) -> float | None:
        """Submissions per second over the whole fill, acknowledgement to acknowledgement."""
        return self.rate(first=True, share=1.0)


def _client(
    queue: Any, path: Path, numbers: range, runners: bool, deadline: float, stall: float
) -> None:  # pragma: no cover - runs in a forked process
    acks, ids = array("d"), array("q")
    refused, error = 0, ""
    try:
        with Connection(path, timeout=stall) as conn:  # a reply later than ``stall``: give up
            for n in numbers:
                if time.monotonic() >= deadline:
                    break
                spec = runner_spec() if runners else pending_spec(n)
                reply = conn.call("submit", {"job": spec, "verify": "n"})
                if reply.ok and isinstance(reply.data, dict) and reply.data.get("job_id"):
                    acks.append(time.monotonic())
                    ids.append(int(reply.data["job_id"]))
                else:
                    refused += 1
                    error = error or "; ".join(a.text for a in reply.answers)
    except (GdiError, OSError) as exc:
        error = str(exc)
    except Exception as exc:  # a client that dies still reports, so fill() never waits on it
        error = f"{type(exc).__name__}: {exc}"
    queue.put((acks.tobytes(), ids.tobytes(), refused, error))


def _sample_cpu(pid: int, into: list[tuple[float, float]], done: threading.Event) -> None:
    while True:
        try:
            into.append((time.monotonic(), process_cpu_seconds(pid)))
        except OSError:
            return
        if done.wait(CPU_SAMPLE_SECONDS):
            into.append((time.monotonic(), process_cpu_seconds(pid)))
            return


def fill(
    path: Path,
    first: int,
    last: int,
    *,
    runners: bool,
    deadline: float,
    stall: float,
    pid: int | None = None,
) -> Fill:
    """Submit jobs ``first`` .. ``last - 1`` from ``CLIENTS`` processes until ``deadline``.

    A client whose request goes unanswered for ``stall`` seconds stops with an error.
    With ``pid`` (the daemon's), its CPU time is sampled while the fill runs.
    """
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    result = Fill(time.monotonic())
    done = threading.Event()
    sampler = threading.Thread(target=_sample_cpu, args=(pid, result.cpu, done), daemon=True)
    if pid is not None:
        sampler.start()
    workers = [
        ctx.Process(
            target=_client,
            args=(queue, path, range(first + k, last, CLIENTS), runners, deadline, stall),
        )
        for k in range(CLIENTS)
    ]
    for w in workers:
        w.start()
    for _ in workers:
        raw_acks, raw_ids, refused, error = queue.get(
            timeout=max(deadline - time.monotonic(), 0) + stall + 60
        )
        acks, ids = array("d"), array("q")
        acks.frombytes(raw_acks)
        ids.frombytes(raw_ids)
        result.acks.extend(acks)
        result.job_ids.extend(ids)
        result.refused += refused
        if error:
            result.errors.append(error)
    for w in workers:
        w.join(timeout=30)
    done.set()
    if pid is not None:
        sampler.join(timeout=5)
    result.acks.sort()
    result.job_ids.sort()
    return result


def wait_running(path: Path, count: int, deadline: float) -> int:
    """Poll until ``count`` jobs run (or the deadline passes); how many run."""
    running = 0
    with Connection(path, timeout=300) as conn:
        while time.monotonic() < deadline:
            reply = conn.call("job_list", {"users": ["*"], "states": "r"})
            running = len((reply.data or {}).get("jobs", []))
            if running >= count:
                break
            time.sleep(2.0)
    return running


# -- measuring ---------------------------------------------------------------------


def rss_bytes(pid: int) -> int:
    """The resident set size of a process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def idle_cpu_percent(pid: int, seconds: float = IDLE_SECONDS) -> float:
    """CPU the process used over ``seconds`` while nobody asks it anything, in % of one CPU."""
    before, started = process_cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (process_cpu_seconds(pid) - before) / (time.monotonic() - started) * 100.0


@dataclass(frozen=True, slots=True)
class Timed:
    """Wall seconds of one command (``None`` when it timed out or failed) and its output size."""

    seconds: float | None
    out_bytes: int = 0
    error: str = ""


def timed(cell: RunningCell, argv: list[str], timeout: float) -> Timed:
    """Run an installed command against the cell, timed."""
    started = time.monotonic()
    try:
        proc = subprocess.run(argv, env=cell.env, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return Timed(None, error=f"timed out after {timeout:g} s")
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip().splitlines()
        return Timed(None, error=f"exit {proc.returncode}: {err[-1] if err else ''}")
    return Timed(seconds, len(proc.stdout))


def compile_packages() -> None:
    """Byte-compile minige's packages as ``pip install`` does. An editable checkout run
    under ``PYTHONDONTWRITEBYTECODE`` never gets its ``.pyc`` files, so every ``qsub``
    process of the samples compiled its modules again (~20 ms of CPU each, load 7.9):
    not what an installed ``qsub`` costs. A tree that cannot be written stays as it is."""
    for package in (qmaster, clients, schedd):
        compileall.compile_dir(Path(package.__file__).parent, quiet=2)


def qsub_samples(cell: RunningCell, runs: int, timeout: float) -> tuple[list[float], list[str]]:
    """Wall seconds of ``runs`` qsub processes (each adds one pending job) and their errors.

    The first qsub that times out ends the samples: the daemon is not answering.
    """
    argv = ["qsub", "-b", "y", "-terse", "-P", PROJECTS[0], "sleep", RUNTIME]
    times, errors = [], []
    for _ in range(runs):
        t = timed(cell, argv, timeout)
        if t.seconds is None:
            errors.append(t.error)
            if t.error.startswith("timed out"):
                break
        else:
            times.append(t.seconds)
    return times, errors


def percentile(values: list[float], pct: float) -> float | None:
    """The ``pct``-th percentile (nearest rank) of ``values``."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, round(pct / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def _next_dispatch(sub: Connection, victim: int, timeout: float) -> bool:
    """Read the event stream until a job other than ``victim`` is sent to a host."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            reply = sub.receive(wait=left)
        except TimeoutError:
            return False
        if reply is None:
            return False
        event = reply.data if isinstance(reply.data, dict) else {}
        if event.get("event") == "sent" and event.get("job_number") != victim:
            return True
    return False


def pass_latencies(cell: RunningCell, victims: list[int], timeout: float) -> list[float | None]:
    """Seconds from ``qdel -f`` of a running job until the next pending job is dispatched.

    The job is force-deleted, so its slot is free once the delete is acknowledged;
    the figure includes the wait for the next scheduling pass (up to one
    ``schedule_interval``) and that pass.
    """
    found: list[float | None] = []
    with Connection(cell.cell.socket, timeout=timeout) as sub:
        sub.send("subscribe", {"kinds": ["job_log"]})
        sub.receive(wait=timeout)  # "subscribed"
        with Connection(cell.cell.socket, timeout=timeout) as conn:
            for victim in victims:
                reply = conn.call("delete", {"job_ids": [str(victim)], "force": True})
                acked = time.monotonic()
                if not reply.ok:
                    found.append(None)
                    continue
                ok = _next_dispatch(sub, victim, timeout)
                found.append(time.monotonic() - acked if ok else None)
    return found


def recovery_seconds(cell: RunningCell) -> float | None:
    """What the daemon's last ``state_recovered`` log line says recovery took."""
    seconds = None
    with cell.cell.messages.open() as fh:
        for line in fh:
            if '"state_recovered"' in line:
                try:
                    seconds = float(json.loads(line).get("seconds"))
                except (ValueError, TypeError):
                    continue
    return seconds


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def pid_alive(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}")
