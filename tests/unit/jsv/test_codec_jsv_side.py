"""The JSV end of the codec, as a Python JSV uses it."""

from __future__ import annotations

import pytest

from qmaster.jsv.errors import JsvProtocolError
from qmaster.jsv.jsv_side import NEED_DATA, Begin, Env, Param, Quit, ScriptConnection, Start

INPUT = b"START\nPARAM VERSION 1.0\nPARAM N my job\nPARAM l_soft \nENV ADD HOME /h\nBEGIN\nQUIT\n"
EXPECTED = [
    Start(),
    Param("VERSION", "1.0"),
    Param("N", "my job"),
    Param("l_soft", ""),
    Env("ADD", "HOME", "/h"),
    Begin(),
    Quit(),
]


@pytest.mark.parametrize("split", range(1, len(INPUT)))
def test_commands_parse_at_every_split(split: int) -> None:
    """The JSV sees the same commands however stdin delivers the bytes."""
    conn = ScriptConnection()
    events = []
    for piece in (INPUT[:split], INPUT[split:]):
        conn.receive_data(piece)
        while (event := conn.next_event()) is not NEED_DATA:
            events.append(event)
    assert events == EXPECTED


def test_replies_are_protocol_lines() -> None:
    """Builders produce the lines the qmaster expects, RESULT ending the job."""
    conn = ScriptConnection()
    conn.receive_data(b"START\nBEGIN\n")
    assert conn.next_event() == Start()
    assert conn.started(send_env=True) == b"SEND ENV\nSTARTED\n"
    assert conn.next_event() == Begin()
    assert conn.param("pe_max", "4") == b"PARAM pe_max 4\n"
    assert conn.log("INFO", "hi there") == b"LOG INFO hi there\n"
    assert conn.result("CORRECT", "fixed") == b"RESULT STATE CORRECT fixed\n"
    assert conn.state == "initialized"


def test_begin_before_start_is_a_protocol_error() -> None:
    """Commands out of order are refused in the shell library's words."""
    conn = ScriptConnection()
    conn.receive_data(b"BEGIN\n")
    with pytest.raises(JsvProtocolError, match="got BEGIN command but is in state initialized"):
        conn.next_event()


def test_end_of_input_means_quit() -> None:
    """A closed stdin ends the JSV like QUIT."""
    conn = ScriptConnection()
    conn.receive_data(b"")
    assert conn.next_event() == Quit()
