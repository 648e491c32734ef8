"""qdel and qconf: requests sent, answers printed, exit codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clients import qconf, qdel
from qmaster.gdi.answers import Status, error, ok
from qmaster.gdi.client import Reply

from .conftest import FakeQmaster


def test_qdel_sends_ids_and_prints_each_answer(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qdel prints one answer per job, all on stdout (qdel.c printf()s every answer);
    an error answer makes the exit code 1."""
    qmaster.reply("ping", data={"manager": True})
    qmaster.reply(
        "delete",
        [ok("alice has deleted job 1"), error('denied: job "7" does not exist', Status.EEXIST)],
    )
    assert qdel.main(["-f", "1,7", "3.1-5:2"], transport=qmaster) == 1
    assert qmaster.last == (
        "delete",
        {"job_ids": ["1", "7", "3.1-5:2"], "users": None, "force": True},
    )
    captured = capsys.readouterr()
    assert captured.out == 'alice has deleted job 1\ndenied: job "7" does not exist\n'
    assert captured.err == ""


def test_qdel_f_of_a_user_deletes_first_then_forces_silently(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """qdel.c's delete_mode 7: a user who is no manager gets a deletion without force (its
    answers printed), a line of dots, then the forced request, whose answers are not
    printed; its refusal still makes the exit code 1."""
    monkeypatch.setattr(qdel, "FORCE_WAIT", (3, 0.0))

    def answer(op: str, args: dict[str, Any]) -> Reply:
        if op == "ping":
            return Reply([], {"manager": False})
        if not args["force"]:
            return Reply([ok("alice has registered the job 7 for deletion")], None)
        text = '"alice" - forcing a job deletion requires manager privileges'
        return Reply([error(text, Status.EDENIED)], None)

    qmaster.handler = answer
    assert qdel.main(["-f", "7"], transport=qmaster) == 1
    sent = [args for name, args in qmaster.calls if name == "delete"]
    assert [a["force"] for a in sent] == [False, True]
    assert capsys.readouterr().out == "alice has registered the job 7 for deletion\n...\n"


def test_qdel_all_is_a_job_name(qmaster: FakeQmaster) -> None:
    """'all' goes to the qmaster as any name does, with -u or without (6.2u5's qdel has no
    "all jobs" request: sge_parse_jobtasks() takes it as a name)."""
    qmaster.reply("delete", [ok("alice has registered the job 4 for deletion")])
    assert qdel.main(["-u", "alice", "all"], transport=qmaster) == 0
    assert qmaster.last[1] == {"job_ids": ["all"], "users": ["alice"], "force": False}
    assert qdel.main(["all"], transport=qmaster) == 0
    assert qmaster.last[1] == {"job_ids": ["all"], "users": None, "force": False}


def test_qdel_without_arguments_is_a_usage_error(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qdel with nothing to delete prints its usage on stderr and exits 1."""
    assert qdel.main([], transport=qmaster) == 1
    assert "usage: qdel" in capsys.readouterr().err
    assert qmaster.calls == []


def test_qconf_show_list_prints_names_one_per_line(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-sql prints the queue names one per line."""
    qmaster.reply("conf_show", data={"names": ["all.q", "big.q"]})
    assert qconf.main(["-sql"], transport=qmaster) == 0
    assert qmaster.last == ("conf_show", {"kind": "cqueue", "name": None})
    assert capsys.readouterr().out == "all.q\nbig.q\n"


def test_qconf_empty_list_says_none_defined(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty -sql prints GE's 'no cqueue list defined' on stderr."""
    qmaster.reply("conf_show", data={"names": []})
    assert qconf.main(["-sql"], transport=qmaster) == 1
    assert capsys.readouterr().err == "no cqueue list defined\n"


def test_qconf_show_object_prints_its_text(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-sq name and -sconf print the object's text as the qmaster sent it."""
    qmaster.reply("conf_show", data={"text": "qname all.q\n"})
    assert qconf.main(["-sq", "all.q", "-sconf"], transport=qmaster) == 0
    assert [args["name"] for _, args in qmaster.calls] == ["all.q", "global"]
    assert capsys.readouterr().out == "qname all.q\nqname all.q\n"


def test_qconf_modify_sends_the_file_text(
    tmp_path: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-Mq reads the file and sends its text; the qmaster's answer is printed."""
    path = tmp_path / "q.conf"
    path.write_text("qname all.q\nslots 4\n")
    qmaster.reply("conf_modify", [ok('root@h modified "all.q" in cluster queue list')])
    assert qconf.main(["-Mq", str(path)], transport=qmaster) == 0
    assert qmaster.last[1] == {
        "kind": "cqueue",
        "text": "qname all.q\nslots 4\n",
        "source": str(path),
    }
    assert capsys.readouterr().out == 'root@h modified "all.q" in cluster queue list\n'


def test_qconf_modify_with_missing_file_sends_nothing(
    tmp_path: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A -M* file that does not exist is reported and nothing is sent."""
    assert qconf.main(["-Mc", str(tmp_path / "nope")], transport=qmaster) == 1
    assert "does not exist" in capsys.readouterr().err
    assert qmaster.calls == []


def test_qconf_add_users_to_each_list(qmaster: FakeQmaster) -> None:
    """-au u1,u2 l1,l2 adds each user to each list, one request per pair as Grid Engine does."""
    qmaster.reply("conf_add", [ok("added")])
    assert qconf.main(["-au", "u1,u2", "l1,l2"], transport=qmaster) == 0
    assert qmaster.calls == [
        ("conf_add", {"kind": "userset", "name": list_, "members": [user]})
        for list_ in ("l1", "l2")
        for user in ("u1", "u2")
    ]


def test_qconf_unknown_switch_is_refused(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown qconf switch: GE's logged message and the -help hint, exit 1."""
    assert qconf.main(["-bogus"], transport=qmaster) == 1
    assert capsys.readouterr().err == (
        'error: invalid option argument "-bogus"\nUsage: qconf -help\n'
    )
