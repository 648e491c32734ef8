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
        (["-d"], "ERROR! -d option must have argument"),
        (["-t", "1-3", "1"], 'ERROR! invalid option argument "-t"'),
        (["all.q"], 'ERROR! invalid option argument "all.q"'),
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
