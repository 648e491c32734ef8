"""Exit codes, error mapping and qsub/qalter output as users see them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clients import qalter, qresub, qsub
from qmaster.gdi import client as gdi_client
from qmaster.gdi.answers import Status, error, ok, warning
from qmaster.gdi.client import GdiError, Reply

from .conftest import FakeQmaster

CLICK_TEXTS = ("Usage:", "Try '", "No such option", "Error:", "--help")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SGE_ROOT", str(tmp_path / "root"))
    (tmp_path / "job.sh").write_text("#!/bin/sh\n#$ -N scripted\nsleep 1\n")
    return tmp_path


def test_submit_prints_the_qmasters_answer(
    workdir: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qsub prints the qmaster's text on stdout and exits 0."""
    qmaster.reply("submit", [ok('Your job 1 ("scripted") has been submitted')], {"job_id": 1})
    assert qsub.main(["job.sh"], transport=qmaster) == 0
    assert capsys.readouterr().out == 'Your job 1 ("scripted") has been submitted\n'
    op, args = qmaster.last
    assert (op, args["verify"], args["job"]["N"]) == ("submit", "n", "scripted")


def test_terse_prints_only_the_array_id(
    workdir: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-terse prints 5.1-10:1 for an array job and nothing else."""
    data = {"job_id": 5, "name": "x", "tasks": "1-10:1"}
    qmaster.reply("submit", [ok('Your job-array 5.1-10:1 ("x") has been submitted')], data)
    assert qsub.main(["-terse", "-t", "1-10", "job.sh"], transport=qmaster) == 0
    assert capsys.readouterr().out == "5.1-10:1\n"


@pytest.mark.parametrize(("status", "code"), [(Status.NOTOK_DOAGAIN, 25), (Status.ESEMANTIC, 1)])
def test_refused_submission_exits_25_for_limits_else_1(
    workdir: Path,
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
    status: Status,
    code: int,
) -> None:
    """A refusal prints 'Unable to run job: <reason>.' and 'Exiting.' on stderr."""
    reason = "job rejected: Only 2 jobs are allowed per user (current job count: 2)"
    qmaster.reply("submit", [error(reason, status)])
    assert qsub.main(["job.sh"], transport=qmaster) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"Unable to run job: {reason}.\nExiting.\n"


def test_verify_mode_prints_the_verification_and_passes_the_mode(
    workdir: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-w v sends verify=v and prints the qmaster's verification line."""
    qmaster.reply("submit", [ok("verification: found suitable queue(s)")])
    assert qsub.main(["-w", "v", "job.sh"], transport=qmaster) == 0
    assert qmaster.last[1]["verify"] == "v"
    assert capsys.readouterr().out == "verification: found suitable queue(s)\n"


def test_verify_without_suitable_queue_lists_reasons_and_exits_1(
    workdir: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-w v with no suitable queue prints each reason, then the verdict, and exits 1."""
    reason = (
        'cannot run in queue "all.q@host1" because it is not contained in its hard queue list (-q)'
    )
    qmaster.reply("submit", [ok(reason), error("verification: no suitable queues")])
    assert qsub.main(["-w", "v", "job.sh"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.out == reason + "\n"
    assert captured.err == "verification: no suitable queues\n"


def test_warnings_go_to_stderr(
    workdir: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """With -w w the warning goes to stderr and the job line to stdout."""
    qmaster.reply(
        "submit",
        [warning("warning: no suitable queues"), ok('Your job 2 ("x") has been submitted')],
    )
    assert qsub.main(["-w", "w", "job.sh"], transport=qmaster) == 0
    captured = capsys.readouterr()
    assert captured.err == "warning: no suitable queues\n"
    assert captured.out == 'Your job 2 ("x") has been submitted\n'


@pytest.mark.parametrize(
    ("argv", "line", "code"),
    [
        (["-bogus", "job.sh"], 'qsub: ERROR! invalid option argument "-bogus"', 2),
        (["-N"], "qsub: ERROR! -N option must have argument", 2),
        (["-a", "13011200", "job.sh"], 'qsub: ERROR! Wrong date/time format "13011200"', 7),
        (["-j", "maybe", "job.sh"], 'qsub: invalid option argument "-j maybe"', 7),
    ],
)
def test_bad_options_exit_with_the_parser_status_in_grid_engine_words(
    workdir: Path,
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    line: str,
    code: int,
) -> None:
    """Bad options print 'qsub: ' and GE's error, no usage, exit 2 or 7 as GE's qsub."""
    assert qsub.main(argv, transport=qmaster) == code
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1].startswith(line)
    assert "usage: qsub" not in captured.err
    assert not any(text in captured.err + captured.out for text in CLICK_TEXTS)
    assert qmaster.calls == []


@pytest.mark.parametrize("command", [qsub, qalter])
def test_help_prints_version_and_usage_on_stdout_and_exits_0(
    command: Any, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-help prints 'GE 6.2u5' and the usage on stdout and exits 0."""
    assert command.main(["-help"], transport=qmaster) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"GE 6.2u5\nusage: {command.__name__.split('.')[-1]}")
    assert captured.err == ""


def test_unreachable_qmaster_is_one_line_and_exit_1(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """When the socket cannot be reached the command says so on stderr and exits 1."""

    def refuse(op: str, args: object = None, **_: object) -> Reply:
        raise GdiError('unable to contact qmaster using socket "/x": No such file')

    monkeypatch.setattr(gdi_client, "call", refuse)
    assert qsub.main(["job.sh"]) == 1
    captured = capsys.readouterr()
    assert captured.err == 'error: unable to contact qmaster using socket "/x": No such file\n'
    assert captured.out == ""


def test_qalter_sends_changed_keys_and_prints_answers(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qalter sends only the given switches with the job ids; answers are printed."""
    qmaster.reply("alter", [ok("modified hard resource list of job 12")])
    assert qalter.main(["-l", "h_rt=60", "12"], transport=qmaster) == 0
    op, args = qmaster.last
    assert op == "alter"
    assert args == {"job_ids": ["12"], "job": {"l_hard": {"h_rt": "60"}}, "verify": "n"}
    assert capsys.readouterr().out == "modified hard resource list of job 12\n"


def test_qalter_verify_shows_the_request_and_changes_nothing(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """clients/qalter qalter_verify: -verify is taken (it was an invalid option); as
    qalter.c's cull_show_job(request, FLG_QALTER) it shows the request, without a job
    number: what it changes, the job_name it always carries (empty without -N), the
    env_list -verify adds (a bare empty line without -v) and -w's verify_suitable_queues;
    it sends nothing and exits 0."""
    argv = ["-verify", "-N", "other", "-ac", "a=1", "-q", "all.q@host1", "12"]
    assert qalter.main(argv, transport=qmaster) == 0
    assert qmaster.calls == []
    assert capsys.readouterr().out == (
        "job_name:                   other\n"
        "hard_queue_list:            all.q@host1\n"
        "\n"
        "context:                    a=1\n"
    )
    assert qalter.main(["-verify", "12"], transport=qmaster) == 0
    assert capsys.readouterr().out == "job_name:                   \n\n"
    assert qalter.main(["-verify", "-w", "v", "-v", "A=1", "12"], transport=qmaster) == 0
    assert capsys.readouterr().out == (
        "job_name:                   \n"
        "env_list:                   A=1\n"
        "verify_suitable_queues:     3\n"
    )


def test_qresub_verify_shows_the_request_and_copies_nothing(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qresub is qalter.c: with -verify it shows the request (cull_show_job) and exits 0;
    no copy of the job is submitted."""
    assert qresub.main(["-verify", "-h", "u", "12"], transport=qmaster) == 0
    assert qmaster.calls == []
    assert capsys.readouterr().out == "job_name:                   \n\n"


def test_qresub_complains_about_every_switch_it_does_not_take(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qalter.c leaves qalter's switches on qresub's command line and complains about each
    (STATUS_ENOIMP, exit 5), -w, -u and -terse too, which minige took and ignored; no
    copy is asked for."""
    assert qresub.main(["-w", "v", "-h", "u", "-terse", "-u", "bob", "12"], transport=qmaster) == 5
    assert qmaster.calls == []
    assert capsys.readouterr().err == (
        "Unknown option -w v\nUnknown option -terse\nUnknown option -u bob\n"
    )


def test_qalter_error_answer_exits_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error answer from alter is printed on stdout, as qalter.c prints it, exit 1."""
    qmaster.reply("alter", [error('denied: job "99" does not exist', Status.EEXIST)])
    assert qalter.main(["-p", "5", "99"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ('denied: job "99" does not exist\n', "")


def test_qalter_without_arguments_prints_usage_and_exits_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qalter with nothing to do complains and shows its usage."""
    assert qalter.main([], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qalter")
    assert err.endswith("\nERROR! no option argument\n")
