"""qrdel: the ar_delete request, every answer on stdout, exit codes."""

from __future__ import annotations

import pytest

from clients import qrdel
from qmaster.gdi.answers import Status, error, ok

from .conftest import FakeQmaster


def test_deletes_ids_names_and_patterns(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Words and comma lists are sent in order; the answers are printed, exit 0."""
    qmaster.reply(
        "ar_delete",
        [
            ok("alice has deleted advance_reservation 1"),
            ok("alice has registered the advance_reservation 2 for deletion"),
        ],
    )
    assert qrdel.main(["1,nightly", "night*"], transport=qmaster) == 0
    assert qmaster.last == (
        "ar_delete",
        {"ar_ids": ["1", "nightly", "night*"], "users": None, "force": False},
    )
    assert capsys.readouterr().out == (
        "alice has deleted advance_reservation 1\n"
        "alice has registered the advance_reservation 2 for deletion\n"
    )


@pytest.mark.parametrize("flag", ["-f", "--force"])
def test_force_flag(qmaster: FakeQmaster, flag: str) -> None:
    """-f and --force both ask for a forced deletion."""
    qrdel.main([flag, "3"], transport=qmaster)
    assert qmaster.last[1]["force"] is True


def test_errors_are_printed_on_stdout_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown AR is reported on stdout and makes the exit code 1."""
    qmaster.reply(
        "ar_delete",
        [
            ok("alice has deleted advance_reservation 1"),
            error('denied: advance_reservation "7" does not exist', Status.EEXIST),
        ],
    )
    assert qrdel.main(["1", "7"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1] == 'denied: advance_reservation "7" does not exist'
    assert captured.err == ""


def test_user_list_alone_deletes_their_ars(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-u without ids asks for all ARs of those users; none found is exit 1."""
    text = "There is no advance_reservation registered for the following users: bob"
    qmaster.reply("ar_delete", [error(text, Status.EEXIST)])
    assert qrdel.main(["-u", "bob"], transport=qmaster) == 1
    assert qmaster.last[1] == {"ar_ids": [], "users": ["bob"], "force": False}
    assert capsys.readouterr().out == text + "\n"


def test_nothing_to_delete_is_a_usage_error(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without an AR list: usage on stderr, exit 1, nothing sent."""
    assert qrdel.main([], transport=qmaster) == 1
    assert "usage: qrdel" in capsys.readouterr().err
    assert qmaster.calls == []


def test_unknown_switch(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown switch: the usage, then GE's invalid option argument as logged, exit 1."""
    assert qrdel.main(["-x", "1"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qrdel")
    assert err.endswith('\nerror: ERROR! invalid option argument "-x"\n')
