"""Attacks on a running qmaster process, shared by the reliability suite and ``make soak``.

A *ledger* records what the daemon acknowledged while clients submit, delete and
alter jobs and submit and delete advance reservations over real sockets; after a
crash and a restart, :func:`audit` compares it with what the daemon recovered.
An acknowledged job, alteration, deletion or reservation must come back as it
was answered; a request whose answer never arrived may have gone either way.
"""

from __future__ import annotations

import os
import random
import shutil
import socket as sock_mod
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.gdi import unixpath
from qmaster.gdi.client import Connection, GdiError, Reply
from qmaster.gdi.frames import HEADER, encode_frame

HELD_JOB: dict[str, Any] = {"CMDNAME": "sleep", "CMDARGS": ["1000"], "b": True, "h": True}


def roomy_conf(dest: Path) -> Path:
    """The default configuration (copied to ``dest``) with room for many reservations."""
    shutil.copytree(DEFAULT_CONF_DIR, dest)
    conf = dest / "configuration"
    text = conf.read_text()
    conf.write_text(
        text.replace("max_advance_reservations     10", "max_advance_reservations     100000")
    )
    return dest


@dataclass
class Ledger:
    """What the daemon acknowledged (and what it was asked without answering)."""

    jobs: set[int] = field(default_factory=set)
    deleted: set[int] = field(default_factory=set)
    names: dict[int, str] = field(default_factory=dict)
    ars: set[int] = field(default_factory=set)
    ars_deleted: set[int] = field(default_factory=set)
    unsure_jobs: set[int] = field(default_factory=set)
    unsure_ars: set[int] = field(default_factory=set)
    acks: int = 0
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def acknowledged(self) -> int:
        """Requests answered with success."""
        return self.acks


@dataclass
class Audit:
    """What came back of a ledger after a restart."""

    acknowledged: int
    expected: int
    recovered: int
    lost: list[str]
    duplicates: list[int]
    new_id_ok: bool

    @property
    def ok(self) -> bool:
        return not self.lost and not self.duplicates and self.new_id_ok


class MixedClient:
    """One client's loop of submit / qdel / qalter / qrsub / qrdel, writing the ledger."""

    def __init__(self, socket: Path, ledger: Ledger, seed: int, ars: bool = True) -> None:
        self.socket = socket
        self.ledger = ledger
        self.rng = random.Random(seed)
        self.mine: list[int] = []
        self.my_ars: list[int] = []
        self.ars = ars
        self.seq = 0

    def run(self, stop: threading.Event) -> None:
        """Send requests until ``stop`` is set or the daemon goes away."""
        try:
            with Connection(self.socket, timeout=10) as conn:
                while not stop.is_set():
                    self._one(conn)
        except (GdiError, OSError):
            return

    def _one(self, conn: Connection) -> None:
        roll = self.rng.random()
        if roll < 0.45 or not self.mine:
            self._submit(conn)
        elif roll < 0.6:
            self._delete(conn)
        elif roll < 0.85:
            self._alter(conn)
        elif self.ars and roll < 0.95:
            self._ar_submit(conn)
        elif self.ars and self.my_ars:
            self._ar_delete(conn)

    def _call(self, conn: Connection, op: str, args: dict[str, Any], unsure: set[int]) -> Reply:
        started = time.monotonic()
        try:
            reply = conn.call(op, args)
        except GdiError:
            with self.ledger.lock:
                self.ledger.unsure_jobs.update(unsure)
            raise
        with self.ledger.lock:
            self.ledger.latencies.append(time.monotonic() - started)
            if reply.ok:
                self.ledger.acks += 1
        return reply

    def _submit(self, conn: Connection) -> None:
        reply = self._call(conn, "submit", {"job": HELD_JOB}, set())
        if reply.ok:
            job_id = int(reply.data["job_id"])
            self.mine.append(job_id)
            with self.ledger.lock:
                self.ledger.jobs.add(job_id)
                self.ledger.names[job_id] = "sleep"

    def _delete(self, conn: Connection) -> None:
        job_id = self.mine.pop(self.rng.randrange(len(self.mine)))
        reply = self._call(conn, "delete", {"job_ids": [str(job_id)]}, {job_id})
        if reply.ok:
            with self.ledger.lock:
                self.ledger.deleted.add(job_id)

    def _alter(self, conn: Connection) -> None:
        job_id = self.rng.choice(self.mine)
        self.seq += 1
        name = f"a{self.seq}"
        reply = self._call(conn, "alter", {"job_ids": [str(job_id)], "job": {"N": name}}, {job_id})
        if reply.ok:
            with self.ledger.lock:
                self.ledger.names[job_id] = name

    def _ar_submit(self, conn: Connection) -> None:
        start = time.time() + 86_400 + self.rng.randrange(86_400)
        spec = {"a": start, "d": 600.0}
        reply = self._call(conn, "ar_submit", {"ar": spec}, set())
        if reply.ok:
            ar_id = int(reply.data["ar_id"])
            self.my_ars.append(ar_id)
            with self.ledger.lock:
                self.ledger.ars.add(ar_id)

    def _ar_delete(self, conn: Connection) -> None:
        ar_id = self.my_ars.pop()
        try:
            reply = self._call(conn, "ar_delete", {"ar_ids": [str(ar_id)]}, set())
        except GdiError:
            with self.ledger.lock:
                self.ledger.unsure_ars.add(ar_id)
            raise
        if reply.ok:
            with self.ledger.lock:
                self.ledger.ars_deleted.add(ar_id)


def mixed_load(
    socket: Path, ledger: Ledger, clients: int, seed: int, *, ars: bool = True
) -> tuple[threading.Event, list[threading.Thread]]:
    """Start ``clients`` mixed clients; set the event and join the threads to end them."""
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=MixedClient(socket, ledger, seed * 1000 + i, ars).run, args=(stop,), daemon=True
        )
        for i in range(clients)
    ]
    for t in threads:
        t.start()
    return stop, threads


def end_load(stop: threading.Event, threads: list[threading.Thread]) -> None:
    stop.set()
    for t in threads:
        t.join(30)


def wait_for_acks(ledger: Ledger, at_least: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while ledger.acks < at_least and time.monotonic() < deadline:
        time.sleep(0.01)


def audit(socket: Path, ledger: Ledger) -> Audit:
    """Compare the restarted daemon's jobs and reservations with the ledger."""
    with Connection(socket, timeout=30) as conn:
        rows = conn.call("job_list", {"users": ["*"]}).data["jobs"]
        ar_rows = conn.call("ar_list", {"users": None, "ar_ids": None}).data["ars"]
        listed = [r["job_id"] for r in rows]
        names = {r["job_id"]: r["name"] for r in rows}
        new_job = conn.call("submit", {"job": HELD_JOB})
        new_ar = conn.call("ar_submit", {"ar": {"a": time.time() + 90_000, "d": 60.0}})
    ar_ids = {r["ar_id"] for r in ar_rows}
    lost: list[str] = []
    unsure = ledger.unsure_jobs
    expected_jobs = ledger.jobs - ledger.deleted - unsure
    lost += [f"job {j}" for j in sorted(expected_jobs - set(listed))]
    lost += [f"deleted job {j} is back" for j in sorted((ledger.deleted - unsure) & set(listed))]
    lost += [
        f"job {j} named {names.get(j)!r}, not {n!r}"
        for j, n in sorted(ledger.names.items())
        if j in expected_jobs and j in names and names[j] != n
    ]
    expected_ars = ledger.ars - ledger.ars_deleted - ledger.unsure_ars
    lost += [f"AR {a}" for a in sorted(expected_ars - ar_ids)]
    dupes = (
        sorted({j for j in listed if listed.count(j) > 1}) if len(set(listed)) < len(listed) else []
    )
    new_ok = new_job.ok and int(new_job.data["job_id"]) > max(ledger.jobs, default=0)
    if ledger.ars and new_ar.ok:
        new_ok = new_ok and int(new_ar.data["ar_id"]) > max(ledger.ars)
    return Audit(
        acknowledged=ledger.acks,
        expected=len(expected_jobs) + len(expected_ars),
        recovered=len(expected_jobs & set(listed)) + len(expected_ars & ar_ids),
        lost=lost,
        duplicates=dupes,
        new_id_ok=new_ok,
    )


# -- the daemon process seen from outside ----------------------------------------------


def descriptors(pid: int) -> int:
    """Open descriptors of process ``pid``."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def ping_seconds(socket: Path, timeout: float = 10.0) -> float:
    """How long a well-behaved client waits for the answer to a ping (inf: no answer)."""
    started = time.monotonic()
    try:
        with Connection(socket, timeout=timeout) as conn:
            conn.call("ping", {})
    except GdiError:
        return float("inf")
    return time.monotonic() - started


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# -- slow and never-reading clients ------------------------------------------------------


def dribblers(socket_path: Path, count: int, stop: threading.Event, pause: float = 0.3) -> None:
    """``count`` connections that send a frame header and then one byte every ``pause``
    seconds (each connection is reopened when the daemon cuts it off), until ``stop``."""
    socks: list[sock_mod.socket | None] = [None] * count
    try:
        while not stop.is_set():
            for i in range(count):
                s = socks[i]
                try:
                    if s is None:
                        s = socks[i] = sock_mod.socket(sock_mod.AF_UNIX, sock_mod.SOCK_STREAM)
                        s.settimeout(1.0)
                        unixpath.connect(s, socket_path)
                        s.sendall(HEADER.pack(4096))
                    s.sendall(b" ")
                except OSError:
                    if s is not None:
                        s.close()
                    socks[i] = None
            stop.wait(pause)
    finally:
        for s in socks:
            if s is not None:
                s.close()


LIST_ALL = b'{"v":1,"op":"job_list","args":{"users":["*"],"full":true}}'


def never_readers(socket_path: Path, count: int, requests: int = 30) -> list[sock_mod.socket]:
    """``count`` connections that each ask ``requests`` times for every job and queue and
    never read an answer; the caller closes them."""
    socks = []
    for _ in range(count):
        s = sock_mod.socket(sock_mod.AF_UNIX, sock_mod.SOCK_STREAM)
        s.setsockopt(sock_mod.SOL_SOCKET, sock_mod.SO_RCVBUF, 4096)
        s.settimeout(2.0)
        try:
            unixpath.connect(s, socket_path)
            s.sendall(encode_frame(LIST_ALL) * requests)
        except OSError:
            pass
        socks.append(s)
    return socks


def ping_while(socket_path: Path, stop: threading.Event, into: list[float]) -> None:
    """A well-behaved client pinging every 0.1 s, recording each wait, until ``stop``."""
    while not stop.is_set():
        into.append(ping_seconds(socket_path))
        stop.wait(0.1)
