"""``make soak`` (``python -m bench.soak``): the long versions of the reliability suite.

Against a daemon started with the installed ``qmaster`` command, in turn:

- **kill -9 trials**: mixed clients (submit, qdel, qalter, qrsub, qrdel) and a SIGKILL at a
  random moment, then a restart and an audit of everything acknowledged;
- **many clients**: ``--clients`` connections submitting, querying and deleting for
  ``--seconds``, with real ``qsub`` processes among them (their success rate and latency);
- **slow and never-reading clients**: dribblers and never-readers while a ping is timed;
- **a big cell restarted**: ``--jobs`` jobs and ``--ars`` advance reservations, the time
  from the start of the process to its first answer.

Each attack reports the daemon's descriptors and RSS before, during and after it. One table
is printed at the end with the targets of issue 14; the exit status is 1 when one is missed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.attacks import (
    HELD_JOB,
    Ledger,
    audit,
    dribblers,
    end_load,
    mixed_load,
    never_readers,
    percentile,
    roomy_conf,
    wait_for_acks,
)
from bench.probe import Probe
from bench.soak_restart import big_restart
from bench.soak_table import Table, Watch, ms, pings
from qmaster.gdi.client import Connection, GdiError
from qmaster.testing import RunningCell, create_cell

# -- kill -9 trials ------------------------------------------------------------------------


def kill_trials(root: Path, trials: int, table: Table, seed: int) -> None:
    cell = create_cell(root / "kill", roomy_conf(root / "kill-conf"))
    rng = random.Random(seed)
    ledger = Ledger()
    lost: list[str] = []
    dupes = 0
    ids_ok = True
    restarts: list[float] = []
    cell.start(timeout=60)
    for trial in range(trials):
        stop, threads = mixed_load(cell.cell.socket, ledger, clients=4, seed=seed + trial)
        wait_for_acks(ledger, ledger.acks + 10)
        time.sleep(rng.uniform(0.05, 1.5))
        _kill9(cell)
        end_load(stop, threads)
        started = time.monotonic()
        cell.start(timeout=60)
        restarts.append(time.monotonic() - started)
        result = audit(cell.cell.socket, ledger)
        lost += result.lost
        dupes += len(result.duplicates)
        ids_ok = ids_ok and result.new_id_ok
        if trial % 10 == 9:
            print(
                f"  kill -9: {trial + 1} trials, {ledger.acks} acknowledged, {len(lost)} lost",
                flush=True,
            )
    final = audit(cell.cell.socket, ledger)
    _stop(cell)
    attack = f"kill -9 x{trials}"
    table.add(attack, "trials", str(trials), ">= 50", trials >= 50)
    table.add(attack, "requests acknowledged", str(ledger.acks))
    table.add(attack, "jobs + ARs expected / recovered", f"{final.expected} / {final.recovered}")
    table.add(attack, "lost (all trials)", str(len(lost)), "0", not lost)
    table.add(
        attack,
        "duplicate ids; new id above acknowledged",
        f"{dupes}; {ids_ok}",
        "0; True",
        dupes == 0 and ids_ok,
    )
    table.add(attack, "restart (qmaster start) p50/p99", ms(restarts) + " ms")
    if lost:
        print("  lost:", lost[:20], flush=True)


def _kill9(cell: RunningCell) -> None:
    cell.kill9()


def _stop(cell: RunningCell) -> None:
    cell.run("qmaster", "stop", "--timeout", "60")


# -- many clients with a real qsub among them ----------------------------------------------------


def busy_client(
    socket: Path, stop: threading.Event, latencies: list[float], errors: list[str]
) -> None:
    """Submit a held job, look at it, delete it, ping; again until ``stop``."""
    try:
        with Connection(socket, timeout=30) as conn:
            while not stop.is_set():
                started = time.monotonic()
                reply = conn.call("submit", {"job": HELD_JOB})
                if reply.ok:
                    job = str(reply.data["job_id"])
                    conn.call("job_detail", {"job_ids": [job]})
                    conn.call("delete", {"job_ids": [job]})
                conn.call("ping", {})
                latencies.append((time.monotonic() - started) / 4)
    except GdiError as exc:
        errors.append(str(exc))


def real_qsubs(cell: RunningCell, stop: threading.Event, results: list[tuple[int, float]]) -> None:
    while not stop.is_set():
        started = time.monotonic()
        done = cell.run("qsub", "-b", "y", "-h", "sleep", "1", timeout=120)
        results.append((done.returncode, time.monotonic() - started))


def many_clients(root: Path, clients: int, seconds: float, table: Table) -> None:
    cell = create_cell(root / "busy")
    cell.start(timeout=60)
    watch = Watch(cell.pid())
    stop = threading.Event()
    latencies: list[float] = []
    errors: list[str] = []
    qsubs: list[tuple[int, float]] = []
    threads = [
        threading.Thread(
            target=busy_client, args=(cell.cell.socket, stop, latencies, errors), daemon=True
        )
        for _ in range(clients)
    ]
    threads.append(threading.Thread(target=real_qsubs, args=(cell, stop, qsubs), daemon=True))
    probe = Probe(cell.cell.socket)
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    waits = probe.finish()
    for t in threads:
        t.join(60)
    attack = f"{clients} clients x {seconds:.0f} s"
    table.add(attack, "requests answered", str(len(latencies) * 4))
    table.add(attack, "request p50/p99", ms(latencies) + " ms")
    table.add(attack, "client connections failed", str(len(errors)), "0", not errors)
    ok = [t for rc, t in qsubs if rc == 0]
    rate = 100.0 * len(ok) / len(qsubs) if qsubs else 0.0
    table.add(
        attack,
        "real qsub succeeded",
        f"{len(ok)}/{len(qsubs)} ({rate:.0f} %)",
        "100 %",
        bool(qsubs) and len(ok) == len(qsubs),
    )
    p99 = percentile([t for _, t in qsubs], 99)
    table.add(
        attack,
        "real qsub p50/p99",
        ms([t for _, t in qsubs]) + " ms",
        "p99 <= 2000 ms",
        p99 <= 2.0,
    )
    pings(table, attack, waits)
    watch.finish(table, attack)
    _stop(cell)


# -- slow and never-reading clients ----------------------------------------------------------------


def slow_clients(root: Path, dribbling: int, hogs: int, seconds: float, table: Table) -> None:
    cell = create_cell(root / "slow")
    cell.env["MINIGE_REQUEST_TIMEOUT"] = "2"
    cell.start(timeout=60)
    with Connection(cell.cell.socket) as conn:
        for i in range(300):
            conn.call("submit", {"job": {**HELD_JOB, "N": f"n{i}" + "x" * 200}})
        for _ in range(5):
            conn.call("job_list", {"users": ["*"], "full": True})
    watch = Watch(cell.pid())
    stop = threading.Event()
    probe = Probe(cell.cell.socket)
    dribbling_thread = threading.Thread(
        target=dribblers, args=(cell.cell.socket, dribbling, stop), daemon=True
    )
    dribbling_thread.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:  # a new wave of never-readers every 3 s
        socks = never_readers(cell.cell.socket, hogs)
        time.sleep(3)
        for s in socks:
            s.close()
    stop.set()
    waits = probe.finish()
    dribbling_thread.join(30)
    attack = f"{dribbling} dribblers + {hogs} never-readers/3 s x {seconds:.0f} s"
    pings(table, attack, waits)
    watch.finish(table, attack)
    _stop(cell)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--ars", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--only", choices=["kill", "clients", "slow", "restart"], action="append")
    args = parser.parse_args(argv)
    table = Table()
    parts: dict[str, Callable[[Path], None]] = {
        "kill": lambda root: kill_trials(root, args.trials, table, args.seed),
        "clients": lambda root: many_clients(root, args.clients, args.seconds, table),
        "slow": lambda root: slow_clients(root, 150, 12, min(args.seconds, 30.0), table),
        "restart": lambda root: big_restart(root, args.jobs, args.ars, table),
    }
    with tempfile.TemporaryDirectory(prefix="minige-soak-") as tmp:
        for name, part in parts.items():
            if args.only and name not in args.only:
                continue
            print(f"--- {name}", flush=True)
            part(Path(tmp))
    print("\n" + table.render())
    return 1 if table.missed else 0


if __name__ == "__main__":
    sys.exit(main())
