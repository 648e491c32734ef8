"""qconf's resource quota set switches: what each sends, and the empty list's answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients import qconf
from qmaster.gdi.answers import ok

from .conftest import FakeQmaster

SET = "{\n   name         a\n   description  NONE\n   enabled      FALSE\n   limit        to slots=0\n}\n"


def test_file_switches_send_the_text_and_the_selection(
    qmaster: FakeQmaster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-Arqs adds; -Mrqs FILE NAME modifies the named sets; -Mrqs FILE replaces all."""
    (tmp_path / "f").write_text(SET)
    qmaster.reply("conf_modify", [ok('root@h added "a" to resource quota set list')])
    assert qconf.main(["-Arqs", str(tmp_path / "f"), "-Mrqs", str(tmp_path / "f"), "a"],
                      transport=qmaster) == 0  # fmt: skip
    assert qconf.main(["-Mrqs", str(tmp_path / "f"), "-srqsl"], transport=qmaster) == 0
    sent = [args for op, args in qmaster.calls if op == "conf_modify"]
    assert [(a.get("add"), a.get("select")) for a in sent] == [
        (True, None),
        (None, "a"),
        (None, None),
    ]
    assert all(a["text"] == SET and a["kind"] == "rqs" for a in sent)
    assert qconf.main(["-Mrqs"], transport=qmaster) == 1


def test_editor_switches_show_then_send(
    qmaster: FakeQmaster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-arqs opens the defaults of a set called "template" (or the names given); -mrqs
    alone opens every set and sends them to replace all; -mrqs NAME modifies NAME."""
    monkeypatch.setenv("EDITOR", "true")
    qmaster.reply("conf_show", data={"text": SET})
    for argv in (["-arqs"], ["-mrqs"], ["-mrqs", "a"]):
        assert qconf.main(argv, transport=qmaster) == 0
    shows = [args for op, args in qmaster.calls if op == "conf_show"]
    assert shows == [
        {"kind": "rqs", "name": "template", "template": True},
        {"kind": "rqs", "name": ""},
        {"kind": "rqs", "name": "a"},
    ]
    sent = [args for op, args in qmaster.calls if op == "conf_modify"]
    assert [(a.get("add"), a.get("select")) for a in sent] == [
        (True, None),
        (None, None),
        (None, "a"),
    ]


def test_an_empty_list_and_deletion(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    qmaster.reply("conf_show", data={"names": []})
    assert qconf.main(["-srqsl"], transport=qmaster) == 1
    assert capsys.readouterr().err == "no resource quota set list defined\n"
    qmaster.reply("conf_delete", [ok('root@h removed "a" from resource quota set list')])
    assert qconf.main(["-drqs", "a,b"], transport=qmaster) == 0
    assert [a["name"] for op, a in qmaster.calls if op == "conf_delete"] == ["a", "b"]


def test_attribute_verbs_name_the_resource_quota_object(qmaster: FakeQmaster) -> None:
    qmaster.reply("conf_attr", [ok('root@h modified "a" in resource quota set list')])
    argv = ["-mattr", "resource_quota", "limit", "slots=4", "a/1"]
    assert qconf.main(argv, transport=qmaster) == 0
    assert qmaster.last == (
        "conf_attr",
        {"kind": "rqs", "mode": "change", "pairs": [["limit", "slots=4"]], "name": "a/1"},
    )
