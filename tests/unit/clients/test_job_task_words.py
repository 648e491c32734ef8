"""Job id words as Grid Engine's sge_parse_jobtasks() reads them in qdel, qalter, qhold, qrls."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients import qalter, qdel, qhold, qrls
from clients.common.jobtasks import is_job_task
from qmaster.gdi.answers import ok
from tests.unit.clients.conftest import FakeQmaster


@pytest.mark.parametrize(
    ("word", "taken"),
    [
        ("7", True),
        ("007", True),
        ("7.1-5:2", True),
        ("4294967295", True),
        ("sleep", True),  # names and patterns go to the qmaster
        ("sl*", True),
        ("+1", True),  # not a digit first: a job name
        ("1e3", True),  # strtod reads an exponent
        ("", False),
        ("0", False),  # below 1
        ("1abc", False),  # strtod stops before the end
        ("1abc.2", False),
        ("1 ", False),
        ("4294967296", False),  # does not fit Grid Engine's 32-bit job number
        ("99999999999999999999", False),
        ("1e-1", False),
    ],
)
def test_job_task_words_as_sge_parse_jobtasks(word: str, taken: bool) -> None:
    """A word starting with a digit must be a whole job number from 1 to 2**32-1."""
    assert is_job_task(word) is taken


@pytest.fixture(autouse=True)
def _cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SGE_ROOT", str(tmp_path / "root"))


@pytest.mark.parametrize("word", ["1abc", "0"])
def test_qdel_refuses_a_bad_job_id_before_sending(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    """qdel 1abc: sge_parse_qdel's error on stderr, exit 1, nothing deleted (not job 1)."""
    assert qdel.main(["7", word], transport=qmaster) == 1
    assert capsys.readouterr().err == f"error: ERROR! {word} is a invalid job-task identifier\n"
    assert qmaster.calls == []


def test_qdel_drops_empty_items_of_a_word(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """str_list_parse_from_string() drops empty items: qdel 7 '' ',' deletes 7; qdel ''
    alone names no job (the usage and 'no option argument', nothing sent)."""
    qmaster.reply("delete", [])
    assert qdel.main(["7", "", ","], transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == ["7"]
    assert qdel.main([""], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.out == "ERROR! no option argument\n"
    assert "usage: qdel" in captured.err
    assert len(qmaster.calls) == 1


def test_qdel_t_gives_the_tasks_of_the_last_job_of_a_comma_list(qmaster: FakeQmaster) -> None:
    """parse_multi_jobtaskslist() gives -t's range to the word's last item only."""
    qmaster.reply("delete", [])
    assert qdel.main(["1,2", "-t", "3"], transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == ["1", "2.3-3:1"]


@pytest.mark.parametrize(
    ("cmd", "argv"),
    [(qalter, ["-p", "0", "1abc"]), (qhold, ["1abc"]), (qrls, ["7,1abc"])],
)
def test_qalter_family_refuses_a_bad_job_id_with_the_semantic_status(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], cmd: object, argv: list[str]
) -> None:
    """qalter, qhold, qrls: the text without prefix and exit 2 (STATUS_ESEMANTIC), no request."""
    assert cmd.main(argv, transport=qmaster) == 2  # type: ignore[attr-defined]
    assert capsys.readouterr().err == "ERROR! 1abc is a invalid job-task identifier\n"
    assert qmaster.calls == []


def test_names_and_plain_ids_still_reach_the_qmaster(qmaster: FakeQmaster) -> None:
    """A name that does not start with a digit (+1 included) is the qmaster's to look up."""
    qmaster.reply("delete", [ok("root has deleted job 7")])
    assert qdel.main(["7", "+1", "sl*"], transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == ["7", "+1", "sl*"]


@pytest.mark.parametrize(
    ("argv", "sent"),
    [
        (["7.1", "-t", "2"], ["7.1-2:1"]),  # both lists, compressed into one range
        (["7.1-5:2", "-t", "3"], ["7.1-5:2"]),  # the -t's task is one of the word's
        (["7.1", "-t", "4-6"], ["7.1-1:1,4-6:1"]),  # no one range: both, in order
        (["7.5", "-t", "1"], ["7.1-5:4"]),  # two ids are one range with a step
        (["7.5", "-t", "1-2"], ["7.1-2:1,5-5:1"]),
        (["a.1", "-t", "2"], ["a.1.2-2:1"]),  # a name's dot is part of the name
    ],
)
def test_qdel_joins_a_job_words_own_range_and_its_t_range(
    qmaster: FakeQmaster, argv: list[str], sent: list[str]
) -> None:
    """sge_parse_jobtasks() adds the -t list to the word's own range (qdel 7.1 -t 2 deletes
    tasks 1 and 2; it dropped one of them)."""
    qmaster.reply("delete", [])
    assert qdel.main(argv, transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == sent
