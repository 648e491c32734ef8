"""qevent -json: options and the JSON line stream."""

from __future__ import annotations

import json
import os

import pytest

from clients.qevent import UsageError, main, parse_args, print_events
from qmaster.events.records import record_to_event
from qmaster.events.testing import acct, job_log
from qmaster.gdi.answers import Answer
from qmaster.gdi.client import Reply


def test_json_flag_in_both_spellings() -> None:
    """-json and --json both select JSON output, for all kinds by default."""
    assert parse_args(["-json"]) is None
    assert parse_args(["--json", "-kinds", "job_log,acct"]) == ["job_log", "acct"]


@pytest.mark.parametrize("argv", [[], ["-bogus"], ["-json", "-kinds"]])
def test_bad_command_lines_are_refused(argv: list[str]) -> None:
    """Without -json, with an unknown option or a missing argument, qevent refuses."""
    with pytest.raises(UsageError):
        parse_args(argv)


def test_usage_error_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """A usage error prints the usage on stderr and exits 1."""
    assert main(["-x"]) == 1
    assert "usage: qevent -json" in capsys.readouterr().err


def test_events_are_printed_one_json_object_per_line() -> None:
    """Each streamed reply's data becomes one JSON line, acks without data are skipped."""
    events = [record_to_event(job_log(1, "running", 4)), record_to_event(acct(2, 4))]
    replies = [Reply([], None), *(Reply([], e) for e in events)]
    r, w = os.pipe()
    assert print_events(replies, fd=w) == 0
    os.close(w)
    with os.fdopen(r) as fh:
        got = [json.loads(line) for line in fh]
    assert got == events
    assert got[0]["type"] == "job_log"


def test_error_answer_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """An error answer from the qmaster is printed and qevent exits 1."""
    assert print_events([Reply([Answer(9, "ERROR", "denied: no subscribe for you")])]) == 1
    assert "denied" in capsys.readouterr().err


def test_broken_stdout_ends_quietly() -> None:
    """When the reader goes away (EPIPE) qevent stops with exit 0."""
    r, w = os.pipe()
    os.close(r)
    replies = (Reply([], {"type": "acct", "n": i}) for i in range(3))
    assert print_events(replies, fd=w) == 0
    os.close(w)
