"""The client/qmaster end of the JSV codec, fed transcripts split at every byte offset."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.jsv.errors import JsvClosed, JsvLimitError, JsvProtocolError, JsvValueError
from qmaster.jsv.protocol import (
    NEED_DATA,
    Finished,
    JsvContext,
    Limits,
    Logged,
    ResultState,
    Started,
    SubmitterConnection,
    Verdict,
)

CTX = JsvContext(user="ernst", group="staff", client="qsub", context="server", job_id=7)
SPEC: dict[str, Any] = {
    "CMDNAME": "/sge_root/examples/jobs/sleeper.sh",
    "CMDARGS": ["12"],
    "l_hard": {"a": "1", "b": "5"},
    "l_soft": {"q": "all.q"},
    "pe_name": "p",
    "pe_min": 3,
    "pe_max": 3,
    "b": True,
    "v": {"HOME": "/home/ernst"},
}


def run(
    reply: bytes, spec: dict[str, Any] | None = None, *, split: int | None = None
) -> tuple[Verdict, bytes, list[Any]]:
    """Drive one verification, feeding ``reply`` in two pieces cut at ``split``."""
    conn = SubmitterConnection(Limits(max_line=200, max_lines=50, max_bytes=4000))
    sent = conn.start(spec or SPEC, CTX)
    pieces = [reply] if split is None else [reply[:split], reply[split:]]
    pieces = [p for p in pieces if p]  # b"" would mean end of file
    events: list[Any] = []
    for piece in pieces:
        conn.receive_data(piece)
        while (event := conn.next_event()) is not NEED_DATA:
            events.append(event)
            if isinstance(event, Started):
                sent += event.reply
            if isinstance(event, Finished):
                return event.verdict, sent, events
    raise AssertionError("no verdict")


CORRECT = (
    b"SEND ENV\nSTARTED\nLOG INFO checking\nPARAM pe_max 4\nPARAM l_soft \n"
    b"ENV ADD TMP /scratch\nENV DEL HOME\nRESULT STATE CORRECT no multiple of 4\n"
)


@pytest.mark.parametrize("split", range(len(CORRECT) + 1))
def test_correct_transcript_at_every_split(split: int) -> None:
    """A CORRECT applies exactly the params and env sent back, however the bytes arrive."""
    verdict, _, events = run(CORRECT, split=split)
    assert verdict.state is ResultState.CORRECT
    assert verdict.spec["pe_max"] == 4
    assert "l_soft" not in verdict.spec
    assert verdict.env == {"TMP": "/scratch"}
    assert verdict.spec["v"] == {"TMP": "/scratch"}
    assert verdict.message == "no multiple of 4"
    assert [e.line.message for e in events if isinstance(e, Logged)] == ["checking"]


def test_master_sends_version_first_then_pseudo_params_then_job() -> None:
    """The JSV sees START, VERSION first, the pseudo parameters, the job, env only on request."""
    _, sent, _ = run(b"SEND ENV\nSTARTED\nRESULT STATE ACCEPT\n")
    lines = sent.decode().splitlines()
    assert lines[:7] == [
        "START",
        "PARAM VERSION 1.0",
        "PARAM CONTEXT server",
        "PARAM CLIENT qsub",
        "PARAM USER ernst",
        "PARAM GROUP staff",
        "PARAM JOB_ID 7",
    ]
    assert "PARAM l_hard a=1,b=5" in lines
    assert "PARAM CMDARGS 1" in lines
    assert "PARAM CMDARG0 12" in lines
    assert "PARAM b y" in lines
    assert "ENV ADD HOME /home/ernst" in lines
    assert lines[-1] == "BEGIN"


def test_env_is_not_sent_unless_asked() -> None:
    """Without SEND ENV the job environment stays private."""
    _, sent, _ = run(b"STARTED\nRESULT STATE ACCEPT\n")
    assert b"ENV ADD" not in sent


def test_accept_ignores_params_sent_before_it() -> None:
    """ACCEPT keeps the job as submitted even if the JSV sent changes."""
    verdict, _, _ = run(b"STARTED\nPARAM pe_max 99\nRESULT STATE ACCEPT\n")
    assert verdict.accepted
    assert verdict.spec["pe_max"] == 3


@pytest.mark.parametrize(
    ("reply", "state", "message"),
    [
        (b"STARTED\nRESULT STATE REJECT\n", ResultState.REJECT, "JSV rejected job"),
        (b"STARTED\nRESULT STATE REJECT too big\n", ResultState.REJECT, "too big"),
        (
            b"STARTED\nRESULT STATE REJECT_WAIT\n",
            ResultState.REJECT_WAIT,
            "JSV temporarily rejected job",
        ),
    ],
)
def test_rejections_carry_grid_engine_texts(reply: bytes, state: ResultState, message: str) -> None:
    """A rejection without a message gets Grid Engine's default text."""
    verdict, _, _ = run(reply)
    assert (verdict.state, verdict.message, verdict.accepted) == (state, message, False)


def test_error_rejects_and_asks_for_restart() -> None:
    """ERROR from the JSV rejects the job with its text and marks the JSV for restart."""
    verdict, _, _ = run(b"STARTED\nERROR cannot read db\n")
    assert not verdict.accepted
    assert verdict.message == "cannot read db"
    assert verdict.restart


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        (b"4711\n", 'master got unknown command from JSV: "4711"'),
        (b"\xff\xfe garbage\n", 'master got unknown command from JSV: "\\xff\\xfe"'),
        (b"PARAM pe_max 4\n", 'JSV sent "PARAM" in state WAIT_STARTED'),
        (b"STARTED\nRESULT STATE MAYBE\n", 'JSV sent unknown result "STATE MAYBE"'),
        (b"STARTED\nLOG DEBUG hi\n", 'received "hi" from JSV with invalid type "DEBUG"'),
        (b"SEND FILES\n", 'got "FILES" as object for SEND command'),
        (b"STARTED\nPARAM USER root\n", 'JSV tries to modify read-only parameter "USER"'),
        (
            b"STARTED\nPARAM CMDNAME /bin/evil\nRESULT STATE CORRECT\n",
            'JSV tries to modify read-only parameter "CMDNAME"',
        ),
    ],
)
def test_protocol_violations_raise_with_clear_text(reply: bytes, text: str) -> None:
    """Garbage, out-of-order and read-only changes are typed errors with GE's words."""
    spec = {**SPEC, "b": False}
    with pytest.raises(JsvProtocolError) as info:
        run(reply, spec)
    assert str(info.value) == text


def test_echoing_a_read_only_value_is_allowed() -> None:
    """Sending back USER unchanged is not a modification."""
    verdict, _, _ = run(b"STARTED\nPARAM USER ernst\nRESULT STATE CORRECT\n")
    assert verdict.accepted


def test_cmdname_may_change_for_binary_jobs() -> None:
    """With -b y the command is an ordinary parameter."""
    verdict, _, _ = run(b"STARTED\nPARAM CMDNAME /bin/true\nRESULT STATE CORRECT\n")
    assert verdict.spec["CMDNAME"] == "/bin/true"


def test_eof_mid_job_is_a_closed_error() -> None:
    """A JSV that dies during a job is reported as closed."""
    conn = SubmitterConnection()
    conn.start(SPEC, CTX)
    conn.receive_data(b"STARTED\n")
    assert isinstance(conn.next_event(), Started)
    conn.receive_data(b"")
    with pytest.raises(JsvClosed):
        conn.next_event()
    assert conn.state == "BROKEN"


def test_long_line_is_refused_before_it_ends() -> None:
    """An over-long line is refused without waiting for its newline."""
    conn = SubmitterConnection(Limits(max_line=100))
    conn.start(SPEC, CTX)
    conn.receive_data(b"LOG INFO " + b"x" * 200)
    with pytest.raises(JsvLimitError):
        conn.next_event()


def test_flood_of_log_lines_hits_the_per_job_cap() -> None:
    """Endless LOG lines are cut off at the per-verification line cap."""
    with pytest.raises(JsvLimitError, match="more than 50 lines"):
        run(b"STARTED\n" + b"LOG INFO spam\n" * 100)


def test_value_with_newline_is_refused_before_start() -> None:
    """A job value holding a newline cannot be sent and leaves the codec idle."""
    conn = SubmitterConnection()
    with pytest.raises(JsvValueError):
        conn.start({**SPEC, "N": "a\nb"}, CTX)
    assert conn.state == "IDLE"


def test_one_connection_verifies_many_jobs() -> None:
    """After a verdict the same connection starts the next job."""
    conn = SubmitterConnection()
    for n in range(3):
        assert conn.start({**SPEC, "N": f"j{n}"}, CTX) == b"START\n"
        conn.receive_data(b"STARTED\nRESULT STATE ACCEPT\n")
        assert isinstance(conn.next_event(), Started)
        event = conn.next_event()
        assert isinstance(event, Finished)
        assert event.verdict.spec["N"] == f"j{n}"
