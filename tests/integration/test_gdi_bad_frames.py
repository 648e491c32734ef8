"""What the daemon does with frames that are too big, malformed or cut short: refuse, go on."""

from __future__ import annotations

import json
import resource
import socket
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qmaster.conf.settings import DaemonSettings
from qmaster.gdi.client import BUSY_LARGE
from qmaster.gdi.connection import LARGE_FRAME, LARGE_FRAMES
from qmaster.gdi.frames import HEADER
from qmaster.gdi.ops import OPS
from tests.integration.live import LiveDaemon, exchange, frame, job

pytestmark = pytest.mark.timeout(60)


def error_texts(replies: list[dict[str, Any]]) -> list[str]:
    """The texts of the ERROR answers in a list of reply frames."""
    return [t for r in replies for (_s, q, t) in r["answers"] if q in ("ERROR", "CRITICAL")]


def assert_well_formed(replies: list[dict[str, Any]]) -> None:
    """Every reply is a version-1 frame with an answer list of (int, str, str)."""
    for reply in replies:
        assert reply["v"] == 1
        for status, quality, text in reply["answers"]:
            assert isinstance(status, int)
            assert quality in ("CRITICAL", "ERROR", "WARNING", "INFO")
            assert isinstance(text, str)


def max_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_oversized_frame_is_refused_before_its_body_is_read(live: LiveDaemon) -> None:
    """A header announcing 2**31 bytes gets an error reply and a closed connection, memory flat."""
    before = max_rss_kib()
    sock = live.connect()
    flood_sent = threading.Event()

    def flood() -> None:  # keep sending body bytes the daemon must not buffer
        try:
            sock.sendall(HEADER.pack(2**31))
            chunk = b"x" * (1 << 16)
            for _ in range(128):
                sock.sendall(chunk)
        except OSError:
            pass
        flood_sent.set()

    sender = threading.Thread(target=flood)
    sender.start()
    replies = exchange(sock, b"")
    sender.join(20)
    sock.close()
    cap = DaemonSettings().max_frame_bytes
    assert error_texts(replies) == [
        f"request refused: frame of 2147483648 bytes exceeds the cap of {cap}"
    ]
    assert live.alive()
    assert max_rss_kib() - before < 32 * 1024


def test_other_clients_are_served_while_an_oversized_frame_is_refused(live: LiveDaemon) -> None:
    """A client sending a huge header does not stop another client's submit."""
    with live.connect() as bad:
        bad.sendall(HEADER.pack(2**31 - 1))
        assert live.call("submit", job("100")).ok
        assert error_texts(exchange(bad, b""))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(b"{not json", "malformed request", id="bad-json"),
        pytest.param(b"\xff\xfe\x00garbage", "malformed request", id="not-utf8"),
        pytest.param(b"[1, 2, 3]", "malformed request", id="array-not-object"),
        pytest.param(b'{"op": "ping", "args": {}}', "malformed request: v", id="missing-v"),
        pytest.param(b'{"v": 1, "args": {}}', "malformed request: op", id="missing-op"),
        pytest.param(b'{"v": 2, "op": "ping"}', "malformed request: v", id="wrong-version"),
        pytest.param(b'{"v": true, "op": "ping"}', "malformed request: v", id="version-true"),
        pytest.param(
            b'{"v":1,"op":"ar_submit","args":{"ar":{"d":1e18}}}',
            "malformed request: ar.d: Input should be less than or equal to 4294967295",
            id="ar-duration-beyond-32-bit-times",
        ),
        pytest.param(
            b'{"v":1,"op":"ar_submit","args":{"ar":{"a":NaN,"d":60}}}',
            "malformed request: ar.a",
            id="ar-start-nan",
        ),
        pytest.param(
            b'{"v":1,"op":"ar_submit","args":{"ar":{"e":Infinity}}}',
            "malformed request: ar.e",
            id="ar-end-infinite",
        ),
        pytest.param(
            b'{"v":1,"op":"submit","args":{"job":{"CMDNAME":"x","pe_name":"make","pe_max":1e12}}}',
            "malformed request: job.pe_max",
            id="slots-beyond-u_long32",
        ),
        pytest.param(
            b'{"v":1,"op":"ping","args":{"a":' + b"[" * 1000 + b"]" * 1000 + b"}}",
            "malformed request: Invalid JSON: recursion limit",
            id="nested-1000-deep",
        ),
        pytest.param(b'{"v": 1, "op": 7}', "malformed request: op", id="op-not-string"),
        pytest.param(
            b'{"v": 1, "op": "ping", "args": []}', "malformed request: args", id="args-list"
        ),
        pytest.param(
            b'{"v": 1, "op": "submit", "args": {}}', "malformed request: job", id="missing-job"
        ),
        pytest.param(
            b'{"v":1,"op":"submit","args":{"job":{"CMDNAME":"x","CMDARGS":5}}}',
            "malformed request: job.CMDARGS",
            id="wrong-type-in-spec",
        ),
        pytest.param(
            b'{"v":1,"op":"submit","args":{"job":{"CMDNAME":"x"},"bogus":1}}',
            "malformed request: bogus",
            id="unknown-arg",
        ),
        pytest.param(
            b'{"v":1,"op":"delete","args":{"job_ids":"1"}}',
            "malformed request: job_ids",
            id="string-for-list",
        ),
    ],
)
def test_malformed_request_gets_an_error_and_the_connection_closes(
    live: LiveDaemon, body: bytes, expected: str
) -> None:
    """A frame that is not a valid request is answered with an error, then the daemon hangs up."""
    with live.connect() as sock:
        replies = exchange(sock, frame(body) + frame(b'{"v":1,"op":"ping"}'))
    assert len(replies) == 1, "the daemon must close after the error, not serve the ping"
    (text,) = error_texts(replies)
    assert text.startswith(expected)
    assert live.alive()
    assert live.call("job_list", {}).data["jobs"] == []


def test_unknown_operation_is_refused_but_the_connection_stays_usable(live: LiveDaemon) -> None:
    """An unknown op gets 'unknown operation' and the same connection still answers a ping."""
    with live.connect() as sock:
        replies = exchange(
            sock, frame(b'{"v":1,"op":"frobnicate"}') + frame(b'{"v":1,"op":"ping"}'), shut=True
        )
    assert error_texts(replies[:1]) == ['unknown operation "frobnicate"']
    assert replies[1]["answers"] == []
    assert "version" in replies[1]["data"]


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(HEADER.pack(100) + b'{"v":1,', id="body-cut-short"),
        pytest.param(HEADER.pack(100)[:2], id="header-cut-short"),
        pytest.param(b"", id="nothing-at-all"),
    ],
)
def test_truncated_frame_then_eof_is_a_clean_close(live: LiveDaemon, raw: bytes) -> None:
    """A peer that hangs up inside a frame gets no reply and a closed socket; the daemon goes on."""
    with live.connect() as sock:
        replies = exchange(sock, raw, shut=True)
    assert replies == []
    assert live.alive()


# -- fuzzing ----------------------------------------------------------------------------

SAFE_OPS = [*sorted(OPS - {"shutdown"}), "subscribe_nope", "", "PING"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
spec_keys = st.sampled_from(["CMDNAME", "CMDARGS", "b", "N", "l_hard", "t_min", "t_max", "p", "h"])
requests = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 1, 1, 0, "1", None]), "op": st.sampled_from(SAFE_OPS)},
    optional={
        "args": st.dictionaries(
            st.sampled_from(["job", "job_ids", "users", "kind", "name", "text", "verify", "x"]),
            json_values | st.dictionaries(spec_keys, json_values, max_size=5),
            max_size=4,
        )
        | json_values,
        "user": json_values,
    },
)


def fuzz_once(live: LiveDaemon, raw: bytes) -> None:
    with live.connect() as sock:
        try:
            replies = exchange(sock, raw, shut=True)
        except (BrokenPipeError, ConnectionResetError):
            replies = []
    assert_well_formed(replies)
    assert live.call("ping").ok


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=st.binary(max_size=300), lie=st.integers(-8, 8))
def test_fuzzed_frame_bytes_never_hurt_the_daemon(live: LiveDaemon, body: bytes, lie: int) -> None:
    """Random bodies behind honest or lying length headers get replies or a close, never a crash."""
    length = max(0, len(body) + lie)
    fuzz_once(live, HEADER.pack(length) + body)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(request=requests)
def test_fuzzed_json_requests_never_hurt_the_daemon(
    live: LiveDaemon, request: dict[str, Any]
) -> None:
    """JSON requests of every shape get well-formed replies and leave the daemon answering."""
    try:
        body = json.dumps(request).encode()
    except ValueError:
        body = b"{}"
    fuzz_once(live, frame(body))


def test_socket_pair_misuse_does_not_hang(live: LiveDaemon) -> None:
    """A client that connects and vanishes without a byte leaves the daemon serving others."""
    socks = [live.connect() for _ in range(20)]
    for s in socks:
        s.shutdown(socket.SHUT_RDWR)
        s.close()
    assert live.alive()


def test_large_frames_are_read_a_few_at_a_time(live: LiveDaemon) -> None:
    """While LARGE_FRAMES connections are inside frames over LARGE_FRAME bytes, another
    large frame is turned away (try again), small requests are still served, and a place is
    free again once one of them is whole."""
    size = LARGE_FRAME + 1
    readers = [live.connect() for _ in range(LARGE_FRAMES)]
    for sock in readers:
        sock.sendall(HEADER.pack(size) + b" " * 1024)
    turned = live.connect()
    turned.sendall(HEADER.pack(size))
    assert error_texts(exchange(turned, b"")) == [BUSY_LARGE]
    turned.close()
    assert live.call("submit", job("100")).ok
    first = readers.pop()
    first.sendall(b" " * (size - 1024))
    assert error_texts(exchange(first, b""))  # whole (and not JSON): answered
    first.close()
    again = live.connect()
    again.sendall(HEADER.pack(size) + b" " * size)
    assert error_texts(exchange(again, b"")) != [BUSY_LARGE]
    again.close()
    for sock in readers:
        sock.close()
