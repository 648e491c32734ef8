"""qmod: the requests it sends, where it prints answers, its exit codes."""

from __future__ import annotations

import pytest

from clients import qmod
from qmaster.gdi.answers import Status, error, ok

from .conftest import FakeQmaster


def test_words_after_an_action_are_its_targets_with_force_anywhere(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qmod -d a,b c -f sends one request with three targets and force."""
    qmaster.reply("qmod", [ok('root@h changed state of "all.q@host1" (disabled)')])
    assert qmod.main(["-d", "all.q@host1,all.q@host2", "all.q@host3", "-f"], transport=qmaster) == 0
    assert qmaster.last == (
        "qmod",
        {"action": "d", "targets": ["all.q@host1", "all.q@host2", "all.q@host3"], "force": True},
    )
    assert capsys.readouterr().out == 'root@h changed state of "all.q@host1" (disabled)\n'


def test_every_answer_goes_to_stdout_and_an_error_exits_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Like Grid Engine's qmod, errors are printed on stdout too; the exit code says 1."""
    qmaster.reply("qmod", [error('invalid queue "x.q"', Status.EEXIST)])
    assert qmod.main(["-e", "x.q"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ('invalid queue "x.q"\n', "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "ERROR! no option argument"),
        (["-t", "1-3", "1"], 'ERROR! invalid option argument "1"'),
        (["all.q"], 'ERROR! invalid option argument "all.q"'),
        (["-sj", "a", "-t"], "ERROR! -t option must have a list of task id ranges"),
    ],
)
def test_bad_command_lines_are_refused_before_any_request(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """Bad command lines print the usage, then Grid Engine's message, on stderr, exit 1."""
    assert qmod.main(argv, transport=qmaster) == 1
    assert qmaster.calls == []
    err = capsys.readouterr().err
    assert err.rstrip("\n").endswith(message)
    assert "usage: qmod [options]" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-d"], "ERROR! -d option must have argument"),
        (["-d", "-f"], "ERROR! -d option must have argument"),
        (["--suspendjob"], "ERROR! --suspendjob option must have argument"),
        (["-sj", "1abc"], "ERROR! 1abc is a invalid job-task identifier"),
        (["-s", "0"], "ERROR! 0 is a invalid job-task identifier"),
        (["-usj", "1,2"], "ERROR! 1,2 is a invalid job-task identifier"),
        (["-c", "1", "-sj", "2", "-t", "1"],
         "found lonely '-t 1' option (The -t option needs a leading job name)."),
        (["-d", "all.q", "-t", "2"],
         "found lonely '-t 2' option (The -t option needs a leading job name)."),
    ],
)  # fmt: skip
def test_refusals_without_the_usage(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    """sge_parse_cmdline_qmod's missing arguments and sge_parse_qmod's bad job words:
    the message alone on stderr, exit 1, nothing sent (qmod -sj 1abc suspended job 1)."""
    assert qmod.main(argv, transport=qmaster) == 1
    assert qmaster.calls == []
    assert capsys.readouterr().err == message + "\n"


def test_t_gives_the_tasks_of_the_last_job_word_before_it(qmaster: FakeQmaster) -> None:
    """qmod -sj a b -t 2-3 suspends tasks 2-3 of b and all of a."""
    qmaster.reply("qmod", [ok("done")])
    assert qmod.main(["-sj", "a", "b", "-t", "2-3"], transport=qmaster) == 0
    assert qmaster.last[1]["targets"] == ["a", "b.2-3:1"]


def test_t_is_added_to_the_range_a_job_word_has() -> None:
    """qmod -sj 7.1 -t 2 names tasks 1 and 2 (sge_parse_jobtasks() joins both lists)."""
    assert qmod.parse_qmod(["-sj", "7.1", "-t", "2"]).steps == [("sj", ["7.1-2:1"])]
    assert qmod.parse_qmod(["-s", "7.3", "-t", "1"]).steps == [("s", ["7.1-3:2"])]
    assert qmod.parse_qmod(["-s", "7.4", "-t", "1-2"]).steps == [("s", ["7.1-2:1,4-4:1"])]


def test_actions_go_in_grid_engines_order_and_long_names_are_aliases(
    qmaster: FakeQmaster,
) -> None:
    """sge_parse_qmod takes -d before -e whatever the command line's order."""
    qmaster.reply("qmod", [ok("done")])
    assert qmod.main(["--enable", "q1,q2", "-d", "q3", "--force"], transport=qmaster) == 0
    assert [call[1] for call in qmaster.calls] == [
        {"action": "d", "targets": ["q3"], "force": True},
        {"action": "e", "targets": ["q1", "q2"], "force": True},
    ]


def test_help_beside_another_option_is_too_many_options_and_f_alone_does_nothing(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qmod -help -d q: the usage on stdout, 'too many options' on stderr, exit 1."""
    assert qmod.main(["-usj", "1", "-help"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("GE 6.2u5\nusage: qmod [options]\n")
    assert captured.err == "ERROR! too many options\n"
    assert qmod.main(["--help"], transport=qmaster) == 0
    assert qmod.main(["-f"], transport=qmaster) == 0
    assert qmaster.calls == []
    assert capsys.readouterr().err == ""
