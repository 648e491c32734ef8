"""qevent: its Grid Engine options (-ts, -trigger), minige's -json, and the event streams."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clients.common.errors import ClientError
from clients.qevent import main, parse_args, print_events, run, subscription_kinds
from clients.qevent_modes import SuiteMode, run_script
from qmaster.events.records import record_to_event
from qmaster.events.testing import acct, job_log
from qmaster.gdi.answers import Answer
from qmaster.gdi.client import Reply


@pytest.fixture
def script(tmp_path: Path) -> Path:
    """An executable trigger script that appends its arguments to calls.txt."""
    path = tmp_path / "on_end.sh"
    path.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "calls.txt"}\n')
    path.chmod(0o755)
    return path


def test_json_flag_in_both_spellings() -> None:
    """-json and --json both select JSON output, for all kinds by default."""
    assert subscription_kinds(parse_args(["-json"])) is None
    assert parse_args(["--json", "-kinds", "job_log,acct"]).kinds == ["job_log", "acct"]


def test_testsuite_in_both_spellings() -> None:
    """-ts and -testsuite select the testsuite mode."""
    assert parse_args(["-ts"]).mode == "testsuite"
    assert parse_args(["-testsuite"]).mode == "testsuite"


def test_trigger_is_repeatable(script: Path) -> None:
    """Each -trigger EVENT SCRIPT is kept; the qmaster is asked for their events only."""
    opts = parse_args(["-trigger", "JB_END", str(script), "-trigger", "JB_TASK_END", str(script)])
    assert opts.triggers == [("JB_END", str(script)), ("JB_TASK_END", str(script))]
    assert subscription_kinds(opts) == ["jatask_del", "job_del"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "error: no option selected"),
        (["-bogus"], "error: unkown option: -bogus"),
        (["-ts", "word"], "error: unkown argument: word"),
        (["-trigger"], 'error: option "-trigger": found no EVENT argument'),
        (["-trigger", "JB_START", "/bin/true"], 'error: option "-trigger": undefined EVENT type'),
        (["-trigger", "JB_END"], 'error: option "-trigger": found no SCRIPT argument'),
        (
            ["-trigger", "JB_END", "/no/such/script"],
            'error: option "-trigger": SCRIPT file /no/such/script not found',
        ),
        (["-sm", "extra"], "error: unkown argument: extra"),
    ],
)
def test_bad_command_lines_are_refused(argv: list[str], message: str) -> None:
    """qevent.c's complaints, with the usage after them."""
    with pytest.raises(ClientError) as caught:
        parse_args(argv)
    assert caught.value.message == message
    assert caught.value.show_usage


def test_trigger_script_must_be_executable(tmp_path: Path) -> None:
    """A SCRIPT without the execute bit is refused on the command line."""
    plain = tmp_path / "plain.sh"
    plain.write_text("true\n")
    with pytest.raises(ClientError, match=r"SCRIPT file .* not executable"):
        parse_args(["-trigger", "JB_END", str(plain)])


def test_usage_error_logs_then_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad command line: the complaint on stderr, the usage on stdout, exit 1."""
    assert main(["-x"]) == 1
    captured = capsys.readouterr()
    assert captured.err == "error: unkown option: -x\n"
    assert captured.out.startswith("GE 6.2u5\nusage:\nqevent [-h|-help] -ts|-testsuite\n")


def test_help_wins_over_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """-h with a bad option still prints the usage on stdout and exits 0."""
    assert main(["-x", "-h"]) == 0
    assert "-trigger EVENT SCRIPT  start SCRIPT" in capsys.readouterr().out


def test_trigger_script_gets_event_job_and_task(script: Path, tmp_path: Path) -> None:
    """The script gets the event name, the job id and the task id as its arguments."""
    opts = parse_args(["-trigger", "JB_END", str(script), "-trigger", "JB_TASK_END", str(script)])
    events = [
        {"type": "subscribed"},
        {"type": "jatask_del", "time": 5, "job_number": 7, "task_number": 1},
        {"type": "job_del", "time": 6, "job_number": 7, "task_number": 2},
    ]
    assert run(opts, [Reply([], e) for e in events]) == 0
    calls = (tmp_path / "calls.txt").read_text().splitlines()
    assert calls == ["JB_TASK_END 7 1", "JB_END 7 2"]


def test_failing_script_is_logged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A script ending with status 3 is reported as Grid Engine's qevent does."""
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/sh\nexit 3\n")
    bad.chmod(0o755)
    assert run_script(str(bad), "JB_END", 1, 1) == 3
    assert capsys.readouterr().err == "error: exit status of script: 3\n"


def test_testsuite_lines_and_counters() -> None:
    """-ts prints JOB_ADD/JOB_START/JOB_FINISH/JOB_DEL and the counters after each."""
    lines: list[str] = []
    ts = SuiteMode(lambda fd, text: lines.extend(text.splitlines()) is None)
    ts.handle({"type": "new_job", "time": 10, "job_number": 3, "task_number": 0, "project": ""})
    ts.handle(
        {"type": "job_log", "event": "running", "time": 11, "job_number": 3, "task_number": 1}
    )
    ts.handle({"type": "acct", "time": 12, "job_number": 3, "task_number": 1})
    ts.handle({"type": "job_del", "time": 12, "job_number": 3, "task_number": 1})
    assert lines[0::2] == [
        "JOB_ADD (3.0:ECL_TIME=10:project=NONE)",
        "JOB_START (3.1:ECL_TIME=11)",
        "JOB_FINISH (3.1:ECL_TIME=12)",
        "JOB_DEL (3.1:ECL_TIME=12)",
    ]
    states = [line.split(":ECL_TIME")[0] for line in lines[1::2]]
    assert states == [
        "ECL_STATE (jobs_running=0:jobs_registered=1",
        "ECL_STATE (jobs_running=1:jobs_registered=1",
        "ECL_STATE (jobs_running=0:jobs_registered=1",
        "ECL_STATE (jobs_running=0:jobs_registered=0",
    ]


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
