"""Clients that dribble, stop reading or crowd the socket cannot lock the others out."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvloop

from qmaster.conf.settings import DaemonSettings
from qmaster.gdi import client, unixpath
from qmaster.gdi.frames import HEADER
from qmaster.gdi.server import GdiServer, Reply
from tests.integration.live import LiveDaemon, frame, start_daemon, wait_for

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[LiveDaemon]:
    """A daemon with a 1 s request deadline and room for 8 connections."""
    running = start_daemon(tmp_path / "sge", DaemonSettings(request_timeout=1.0, max_connections=8))
    try:
        yield running
    finally:
        running.stop()


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_frame_that_drips_in_is_cut_off_at_the_request_deadline(strict: LiveDaemon) -> None:
    """A header and then a byte every 0.3 s: each byte used to reset the idle clock and
    keep the connection forever; now the frame must be whole within the deadline."""
    sock = strict.connect()
    sock.sendall(HEADER.pack(100))
    started = time.monotonic()
    closed = False
    while time.monotonic() - started < 10:
        try:
            sock.sendall(b"x")
            time.sleep(0.3)
            sock.settimeout(0.01)
            if sock.recv(1) == b"":
                closed = True
                break
        except TimeoutError:
            continue
        except OSError:
            closed = True
            break
    sock.close()
    assert closed, "the dribbling connection was never closed"
    assert time.monotonic() - started < 4.0


def test_dribbling_clients_do_not_keep_a_real_client_out(strict: LiveDaemon) -> None:
    """Eight connections (the cap) dripping bytes: a new client is answered once the
    deadline has cut them off, waiting instead of failing on 'too many connections'."""
    stop = threading.Event()
    socks = [strict.connect() for _ in range(8)]
    for s in socks:
        s.sendall(HEADER.pack(100))

    def drip() -> None:
        while not stop.is_set():
            for s in socks:
                with contextlib.suppress(OSError):
                    s.sendall(b"x")
            time.sleep(0.2)

    dripper = threading.Thread(target=drip)
    dripper.start()
    try:
        time.sleep(0.3)
        reply = client.call("ping", path=strict.socket_path, timeout=10)
        assert reply.ok
    finally:
        stop.set()
        dripper.join()
        for s in socks:
            s.close()


def test_a_client_that_never_reads_its_answer_gives_its_descriptor_back(
    strict: LiveDaemon,
) -> None:
    """Requests with a large answer, never read: the daemon drops them after the deadline
    and its descriptors return to where they were (they used to pile up past the cap)."""
    for i in range(20):
        strict.call("submit", {"job": {"CMDNAME": "sleep", "b": True, "N": f"j{i}" * 200}})
    before = _open_fds()
    hogs = []
    for _ in range(6):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        unixpath.connect(s, strict.socket_path)
        body = b'{"v":1,"op":"job_list","args":{"users":["*"],"full":true}}'
        for _ in range(50):
            s.sendall(frame(body))
        hogs.append(s)
    try:
        # the hogs' own sockets are in this process too; the daemon's ends must be gone
        wait_for(lambda: _open_fds() <= before + len(hogs), timeout=15, what="descriptors back")
        assert client.call("ping", path=strict.socket_path, timeout=10).ok
    finally:
        for s in hogs:
            s.close()


def test_the_client_waits_while_the_connection_cap_is_reached(strict: LiveDaemon) -> None:
    """With every slot taken by idle connections that then go away, a client retries
    'too many connections' with back-off and is answered instead of failing."""
    socks = [strict.connect() for _ in range(8)]
    wait_for(lambda: len(strict.daemon.server.connections) >= 8, what="slots taken")
    threading.Timer(0.5, lambda: [s.close() for s in socks]).start()
    started = time.monotonic()
    reply = client.call("ping", path=strict.socket_path, timeout=10)
    assert reply.ok
    assert time.monotonic() - started >= 0.4


def test_a_client_that_asks_again_without_reading_gets_no_more_work_done(
    strict: LiveDaemon,
) -> None:
    """Five listings asked at once and none read: only the first is worked out, and the
    connection is dropped at the deadline (the second was built too, for nobody)."""
    for i in range(300):
        job = {"CMDNAME": "sleep", "b": True, "h": True, "N": f"n{i}" + "x" * 200}
        assert strict.call("submit", {"job": job}).ok
    dispatch = strict.daemon.server.dispatch
    listings = []

    async def counting(who: Any, env: Any) -> Any:
        if env.op == "job_list":
            listings.append(env)
        return await dispatch(who, env)

    strict.daemon.server.dispatch = counting
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    unixpath.connect(s, strict.socket_path)
    try:
        body = b'{"v":1,"op":"job_list","args":{"users":["*"],"full":true}}'
        s.sendall(frame(body) * 5)
        # taken in first: until the daemon's loop has accepted the connection (a turn that
        # may come late under load) there is no connection, and "none left" would hold
        wait_for(lambda: listings, timeout=10, what="the first listing asked")
        wait_for(lambda: not strict.daemon.server.connections, timeout=10, what="dropped")
        assert len(listings) == 1
    finally:
        s.close()
        strict.daemon.server.dispatch = dispatch


def test_a_burst_of_connections_is_let_in_within_a_few_loop_iterations(tmp_path: Path) -> None:
    """200 clients connecting at once are all accepted within a few turns of uvloop's loop
    (libuv let in one a turn: a client connecting after a burst waited seconds)."""
    path = tmp_path / "gdi.sock"

    async def never(who: object, env: object) -> Reply:
        raise AssertionError("no request is sent")

    async def scenario() -> int:
        server = GdiServer(path, never)
        server.listen()
        socks = []
        try:
            for _ in range(200):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                unixpath.connect(s, path)  # into the listen backlog: returns at once
                socks.append(s)
            turns = 0
            while len(server.connections) < 200 and turns < 1000:
                await asyncio.sleep(0)  # one turn of the loop
                turns += 1
            return turns
        finally:
            for s in socks:
                s.close()
            await server.close(grace=0)

    assert uvloop.run(scenario()) <= 10
