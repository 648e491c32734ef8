"""qrstat: the request it sends, Grid Engine's summary/detail/XML layouts, JSON, exit codes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients import qrstat
from qmaster.gdi.answers import error

from .ar_support import ar_row, isolate_cell, local_zone
from .conftest import FakeQmaster

SUMMARY = """\
ar-id   name       owner        state start at             end at               duration
------------------------------------------------------------------------------------------
      1            alice        w     01/01/2026 10:00:00  01/01/2026 11:00:00  01:00:00
      2 nightly_re bob          r     01/01/2026 09:00:00  01/02/2026 12:46:40  27:46:40
"""

DETAIL = """\
--------------------------------------------------------------------------------
id                             7
name                           nightly
owner                          alice
state                          E
start_time                     01/01/2026 10:00:00
end_time                       01/01/2026 11:00:00
duration                       01:00:00
message                        queue all.q@h1 is unknown
submission_time                01/01/2026 09:00:00
group                          staff
account                        sge
resource_list                  arch=lx-amd64, h_rt=3600
error_handling                 true
granted_slots_list             all.q@h1=2,all.q@h2=1
granted_parallel_environment   mpi slots 2-4
master hard queue_list         all.q@h1
checkpoint_name                blcr
mail_options                   be
mail_list                      alice@example.com,bob@NONE
acl_list                       alice,@staff
xacl_list                      eve
"""


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Every test runs as alice, in UTC, against an empty cell and HOME."""
    found = isolate_cell(monkeypatch, tmp_path)
    with local_zone("UTC"):
        yield found


def _two_ars() -> list[dict[str, Any]]:
    return [
        ar_row(1),
        ar_row(
            2,
            name="nightly_reservation",
            owner="bob",
            state="r",
            start_time=1767258000.0,
            end_time=1767358000.0,
            duration=100000.0,
        ),
    ]


def _full_ar() -> dict[str, Any]:
    return ar_row(
        7,
        name="nightly",
        state="E",
        messages=["queue all.q@h1 is unknown"],
        resource_list={"arch": "lx-amd64", "h_rt": "3600"},
        error_handling=True,
        granted_slots=[["all.q@h1", 2], ["all.q@h2", 1]],
        granted_pe={"name": "mpi", "slots": "2-4"},
        masterq=["all.q@h1"],
        ckpt="blcr",
        mail_options="be",
        mail_list=["alice@example.com", "bob"],
        acl_list=["alice", "@staff"],
        xacl_list=["eve"],
    )


def test_default_lists_only_the_callers_ars(qmaster: FakeQmaster) -> None:
    """Without -u the filter is the caller's own name."""
    qrstat.main([], transport=qmaster)
    assert qmaster.last == ("ar_list", {"users": ["alice"], "ar_ids": None})


def test_user_filters(qmaster: FakeQmaster) -> None:
    """-u lists users, '*' means everybody (null), $user stands for the caller."""
    qrstat.main(["-u", "bob,carol", "-u", "$user"], transport=qmaster)
    assert qmaster.last[1]["users"] == ["bob", "carol", "alice"]
    qrstat.main(["-u", "*"], transport=qmaster)
    assert qmaster.last[1]["users"] is None


def test_ar_ids_ignore_the_user_filter(qmaster: FakeQmaster) -> None:
    """-ar asks for those ids whoever owns them, as Grid Engine's qrstat does."""
    qrstat.main(["-ar", "1,2", "-ar", "5"], transport=qmaster)
    assert qmaster.last == ("ar_list", {"users": None, "ar_ids": ["1", "2", "5"]})


def test_summary_golden(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary is byte-exact: header, 90 dashes, truncated names, hours past 24."""
    qmaster.reply("ar_list", data={"ars": _two_ars(), "missing": []})
    assert qrstat.main(["-u", "*"], transport=qmaster) == 0
    assert capsys.readouterr().out == SUMMARY


def test_summary_with_explain_adds_messages(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-explain puts each message on its own line, indented 7 spaces, under its AR."""
    row = ar_row(3, state="W", messages=["host h1 is unknown", "queue q is disabled"])
    qmaster.reply("ar_list", data={"ars": [row], "missing": []})
    qrstat.main(["-explain"], transport=qmaster)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith("01:00:00")
    assert lines[3:] == ["       host h1 is unknown", "       queue q is disabled"]


def test_summary_without_explain_hides_messages(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without -explain the summary has one line per AR."""
    qmaster.reply("ar_list", data={"ars": [ar_row(3, messages=["x"])], "missing": []})
    qrstat.main([], transport=qmaster)
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_no_ars_prints_nothing(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """With no ARs there is no header either, exit 0."""
    qmaster.reply("ar_list", data={"ars": [], "missing": []})
    assert qrstat.main([], transport=qmaster) == 0
    assert capsys.readouterr().out == ""


def test_detail_golden(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """-ar prints 80 dashes and every field in Grid Engine's order and format."""
    qmaster.reply("ar_list", data={"ars": [_full_ar()], "missing": []})
    assert qrstat.main(["-ar", "7"], transport=qmaster) == 0
    assert capsys.readouterr().out == DETAIL


def test_detail_leaves_out_unset_optional_fields(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain AR shows only id..duration, submission_time, group and account."""
    qmaster.reply("ar_list", data={"ars": [ar_row(1)], "missing": []})
    qrstat.main(["-ar", "1"], transport=qmaster)
    keys = [line.split(" ", 1)[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert keys == [
        *("id", "name", "owner", "state", "start_time", "end_time", "duration"),
        *("submission_time", "group", "account"),
    ]


def test_missing_ar_is_reported_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-ar of ARs that do not exist lists them and exits 1."""
    qmaster.reply("ar_list", data={"ars": [], "missing": ["99", "100"]})
    assert qrstat.main(["-ar", "99,100"], transport=qmaster) == 1
    assert capsys.readouterr().out == "Following advance reservations do not exist:\n99, 100\n"


def test_partly_missing_shows_the_found_ones(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-ar 1,99 with AR 1 present prints AR 1 only, exit 0."""
    qmaster.reply("ar_list", data={"ars": [ar_row(1)], "missing": ["99"]})
    assert qrstat.main(["-ar", "1,99"], transport=qmaster) == 0
    out = capsys.readouterr().out
    assert "do not exist" not in out
    assert out.splitlines()[1] == "id                             1"


def test_xml_summary_shape_and_escaping(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-xml is well-formed, escapes names like a<b&c, keeps Grid Engine's element names."""
    qmaster.reply("ar_list", data={"ars": [ar_row(4, name="a<b&c")], "missing": []})
    assert qrstat.main(["-xml"], transport=qmaster) == 0
    out = capsys.readouterr().out
    assert out.startswith("<?xml version='1.0'?>\n<qrstat xmlns:xsd=")
    assert "      <name>a&lt;b&amp;c</name>\n" in out
    root = ET.fromstring(out)
    summary = root.find("ar_summary")
    assert summary is not None
    assert [child.tag for child in summary] == [
        *("id", "name", "owner", "state", "start_time", "end_time", "duration"),
    ]
    assert summary.findtext("name") == "a<b&c"
    assert summary.findtext("start_time") == "2026-01-01T10:00:00"
    assert summary.findtext("duration") == "01:00:00"


def test_xml_detail_carries_lists(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """-xml -ar writes resources with the value in 'type', slots, PE, mail and ACLs."""
    row = _full_ar()
    row["resource_list"] = {"arch": 'x"<y'}
    qmaster.reply("ar_list", data={"ars": [row], "missing": []})
    qrstat.main(["-xml", "-ar", "7"], transport=qmaster)
    out = capsys.readouterr().out
    assert '         <granted_slots  queue_instance="all.q@h1" slots="2"/>\n' in out
    summary = ET.fromstring(out).find("ar_summary")
    assert summary is not None
    resource = summary.find("resource_list/resource")
    assert resource is not None
    assert resource.attrib == {"name": "arch", "type": 'x"<y'}
    assert summary.findtext("granted_parallel_environment/parallel_environment") == "mpi"
    assert summary.findtext("granted_parallel_environment/slots") == "2-4"
    mails = [m.attrib for m in summary.iterfind("mail_list/mail")]
    assert mails == [{"user": "alice", "host": "example.com"}, {"user": "bob", "host": "NONE"}]
    assert [a.attrib["user"] for a in summary.iterfind("xacl_list/acl")] == ["eve"]
    assert summary.findtext("message") == "queue all.q@h1 is unknown"
    assert summary.findtext("error_handling") == "true"


def test_xml_of_missing_ars(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """-xml -ar of unknown ids writes one ar_unknown per id and exits 1."""
    qmaster.reply("ar_list", data={"ars": [], "missing": ["99"]})
    assert qrstat.main(["-xml", "-ar", "99"], transport=qmaster) == 1
    root = ET.fromstring(capsys.readouterr().out)
    assert [u.findtext("id") for u in root.iterfind("ar_unknown")] == ["99"]


RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")


@pytest.mark.parametrize("switches", [["-json"], ["-fmt", "json"], ["--json"]])
def test_json_summary(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], switches: list[str]
) -> None:
    """-json and -fmt json give {"ars": [...]} with RFC 3339 times and int durations."""
    qmaster.reply("ar_list", data={"ars": _two_ars(), "missing": []})
    assert qrstat.main(switches, transport=qmaster) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [ar["id"] for ar in doc["ars"]] == [1, 2]
    second = doc["ars"][1]
    assert second["name"] == "nightly_reservation"
    assert second["duration"] == 100000
    assert second["start_time"] == "2026-01-01T09:00:00+00:00"
    assert set(second) == {"id", "name", "owner", "state", "start_time", "end_time", "duration"}


def test_json_detail_matches_the_ocs_shape(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-json -ar adds the detailed fields in Open Cluster Scheduler's shapes."""
    qmaster.reply("ar_list", data={"ars": [_full_ar()], "missing": []})
    with local_zone("Europe/Berlin"):
        qrstat.main(["-json", "-ar", "7"], transport=qmaster)
    ar = json.loads(capsys.readouterr().out)["ars"][0]
    assert ar["start_time"] == "2026-01-01T11:00:00+01:00"
    assert all(RFC3339.match(ar[k]) for k in ("submission_time", "start_time", "end_time"))
    assert ar["resource_list"] == [
        {"name": "arch", "value": "lx-amd64"},
        {"name": "h_rt", "value": "3600"},
    ]
    assert ar["exec_queue_list"] == [
        {"name": "all.q@h1", "slots": 2},
        {"name": "all.q@h2", "slots": 1},
    ]
    assert ar["granted_parallel_environment"] == [{"name": "mpi", "range": "2-4"}]
    assert ar["mail_options"] == "be"
    assert ar["mail_list"][1] == {"user": "bob", "host": "NONE"}
    assert (ar["acl_list"], ar["xacl_list"]) == (["alice", "@staff"], ["eve"])
    assert (ar["group"], ar["account"]) == ("staff", "sge")


def test_json_of_missing_ars_exits_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-json -ar of unknown ids prints an empty list, names them on stderr, exit 1."""
    qmaster.reply("ar_list", data={"ars": [], "missing": ["99"]})
    assert qrstat.main(["-json", "-ar", "99"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"ars": []}
    assert "99" in captured.err


def test_bad_format_and_option(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown -fmt value or switch is Grid Engine's invalid option argument, exit 1."""
    assert qrstat.main(["-fmt", "yaml"], transport=qmaster) == 1
    assert 'ERROR! invalid option argument "yaml"' in capsys.readouterr().err
    assert qrstat.main(["-bogus"], transport=qmaster) == 1
    assert 'ERROR! invalid option argument "-bogus"' in capsys.readouterr().err
    assert qmaster.calls == []


def test_qmaster_error_is_printed_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An error answer from the qmaster is printed and ends with exit 1."""
    qmaster.reply("ar_list", [error("denied: no way")])
    assert qrstat.main([], transport=qmaster) == 1
    assert capsys.readouterr().err == "denied: no way\n"


def test_default_files_are_read_before_the_command_line(
    qmaster: FakeQmaster, tmp_path: Path, home: Path
) -> None:
    """common/sge_qrstat and ~/.sge_qrstat add their options; the command line adds more."""
    (tmp_path / "default" / "common" / "sge_qrstat").write_text("# all users\n-u bob\n")
    (home / ".sge_qrstat").write_text("-u carol\n")
    qrstat.main(["-u", "dave"], transport=qmaster)
    assert qmaster.last[1]["users"] == ["bob", "carol", "dave"]


def test_help_goes_to_stdout(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """-help prints the version line and usage on stdout and exits 1 as GE's qrstat does."""
    assert qrstat.main(["-help"], transport=qmaster) == 1
    assert capsys.readouterr().out.startswith("GE 6.2u5\nusage: qrstat")
    assert qmaster.calls == []


def test_no_mail_is_not_shown(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """An AR submitted with -m n has no mail_options line, as in Grid Engine."""
    qmaster.reply("ar_list", data={"ars": [ar_row(1, mail_options="n")], "missing": []})
    qrstat.main(["-ar", "1"], transport=qmaster)
    assert "mail_options" not in capsys.readouterr().out
