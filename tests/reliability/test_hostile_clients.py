"""Slow, never-reading and malformed clients against a daemon process: a well-behaved client
is answered within 1 s meanwhile, and descriptors and memory come back afterwards."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.attacks import (
    descriptors,
    dribblers,
    never_readers,
    ping_seconds,
    ping_while,
    rss_mib,
)
from qmaster.gdi import unixpath
from qmaster.gdi.client import Connection
from qmaster.gdi.frames import HEADER, encode_frame
from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(150)


@pytest.fixture
def strict(stopped_cell: RunningCell) -> RunningCell:
    """A daemon process with a 2 s request deadline and a 1 MiB frame cap, holding 300 jobs
    with long names."""
    stopped_cell.env["MINIGE_REQUEST_TIMEOUT"] = "2"
    stopped_cell.env["MINIGE_MAX_FRAME_BYTES"] = str(1024 * 1024)
    stopped_cell.start()
    with Connection(stopped_cell.cell.socket) as conn:
        for i in range(300):
            job = {"CMDNAME": "sleep", "b": True, "h": True, "N": f"n{i}" + "x" * 200}
            assert conn.call("submit", {"job": job}).ok
        for _ in range(5):  # the daemon's memory after answering big listings
            conn.call("job_list", {"users": ["*"], "full": True})
    return stopped_cell


def settle(pid: int, fds: int, timeout: float = 15.0) -> int:
    deadline = time.monotonic() + timeout
    while descriptors(pid) > fds + 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    return descriptors(pid)


def test_dribbling_and_never_reading_clients_keep_nobody_waiting(strict: RunningCell) -> None:
    """150 connections dripping a byte every 0.3 s and 8 that never read their large
    answers: pings are answered within 1 s throughout, and afterwards the daemon's
    descriptors are back at their baseline and its memory within 10 % of it."""
    pid = strict.pid()
    fds, rss = descriptors(pid), rss_mib(pid)
    stop = threading.Event()
    waits: list[float] = []
    attack = threading.Thread(target=dribblers, args=(strict.cell.socket, 150, stop))
    pinger = threading.Thread(target=ping_while, args=(strict.cell.socket, stop, waits))
    attack.start()
    pinger.start()
    hogs = never_readers(strict.cell.socket, 8)
    try:
        time.sleep(5)
        during = descriptors(pid)
    finally:
        stop.set()
        attack.join()
        pinger.join()
        for s in hogs:
            s.close()
    assert during > fds + 100, "the attack never reached the daemon"
    assert len(waits) >= 20
    assert max(waits) < 1.0, sorted(waits)[-5:]
    assert settle(pid, fds) <= fds + 2
    assert rss_mib(pid) <= rss * 1.10 + 2, (rss, rss_mib(pid))
    assert ping_seconds(strict.cell.socket) < 1.0


def exchange(cell: RunningCell, data: bytes) -> bytes:
    """Send raw bytes, half-close, and read whatever comes back until the daemon closes."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        unixpath.connect(s, cell.cell.socket)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPS = st.sampled_from(
    ["ping", "submit", "job_list", "job_detail", "delete", "alter", "ar_submit", "ar_list",
     "ar_delete", "conf_show", "conf_modify", "qmod", "host_list", "subscribe", "nope"]
)  # fmt: skip
FRAMES = st.one_of(
    st.binary(max_size=64),  # raw bytes, header or not
    st.binary(max_size=200).map(encode_frame),  # a well-framed body that is not JSON
    st.builds(
        lambda v, op, args: encode_frame(
            json.dumps({"v": v, "op": op, "args": args}, allow_nan=True).encode()
        ),
        st.sampled_from([1, 1, 1, 0, 2, True, "1", None]),
        OPS,
        JSON_VALUES,
    ),
)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(FRAMES, min_size=1, max_size=3))
def test_fuzzed_frames_get_an_answer_or_a_close_and_never_hurt_the_daemon(
    shared_served: RunningCell, frames: list[bytes]
) -> None:
    """Random bytes, bodies that are not JSON and JSON of every shape for every op over a
    real socket: each gets error answers or a clean close, never an internal error, and a
    ping is answered within 1 s after each."""
    exchange(shared_served, b"".join(frames))
    assert ping_seconds(shared_served.cell.socket) < 1.0


def test_huge_announced_frames_cost_no_memory(strict: RunningCell) -> None:
    """Headers announcing 2**31 bytes and bodies one byte over the cap are refused with an
    error answer, and the daemon's memory stays where it was."""
    pid = strict.pid()
    rss = rss_mib(pid)
    for _ in range(20):
        assert exchange(strict, HEADER.pack(2**31) + b"{}")
        assert exchange(strict, encode_frame(b" " * (1024 * 1024 + 1)))
    assert rss_mib(pid) < rss + 20
    assert ping_seconds(strict.cell.socket) < 1.0
