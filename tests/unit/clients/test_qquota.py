"""qquota against an in-process qmaster: its table, selections, -xml, -help and errors."""

from __future__ import annotations

from typing import Any

import pytest

from clients import qquota
from qmaster.core import Core
from qmaster.gdi.client import FAKE_USER_ENV, Reply
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, request, run_until, submit

RQS = """{
name caps
enabled true
limit users {*} to slots=2
limit name mem users alice to h_vmem=4G,arch=lx-amd64
}
{
name hosts
enabled true
limit hosts {*} to slots=$num_proc*2
}
{
name off
enabled false
limit to slots=0
}
"""


def _transport(core: Core):  # type: ignore[no-untyped-def]
    def send(op: str, args: dict[str, Any]) -> Reply:
        out = request(core, ROOT, op, **args)
        return Reply(out.answers, out.data)

    return send


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> Core:
    monkeypatch.setenv(FAKE_USER_ENV, "alice")
    made = make_core()
    out = request(made, ROOT, "conf_modify", kind="rqs", text=RQS, add=True)
    assert not any(a.is_error for a in out.answers), out.answers
    for who in (ALICE, ALICE, ALICE, BOB):
        submit(made, who, CMDARGS=["10000"], l_hard={"h_vmem": "1G"})
    run_until(made, T0 + 5)
    return made


def _run(core: Core, capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert qquota.main(list(argv), transport=_transport(core)) == 0
    return capsys.readouterr().out.splitlines()


def test_the_calling_users_limits_and_use(core: Core, capsys: pytest.CaptureFixture[str]) -> None:
    """One line per matching rule, limit and usage entry; a disabled set shows nothing."""
    lines = _run(core, capsys)
    assert lines[:2] == ["resource quota rule limit                filter", "-" * 80]
    assert lines[2:5] == [
        "caps/1             slots=2/2            users alice",
        "caps/mem           h_vmem=4G            users alice",
        "caps/mem           arch=lx-amd64        users alice",
    ]
    hosts = [line.split() for line in lines[5:]]
    assert all(row[0] == "hosts/1" and row[2] == "hosts" for row in hosts)
    assert sum(int(row[1].split("=")[1].split("/")[0]) for row in hosts) == 3


def test_selections(core: Core, capsys: pytest.CaptureFixture[str]) -> None:
    """-u names other users, -l limits, -h hosts; the table is empty when nothing matches."""
    assert _run(core, capsys, "-u", "bob", "-l", "slots", "-h", "nosuch")[2:] == [
        "caps/1             slots=1/2            users bob",
    ]
    assert _run(core, capsys, "-u", "nobody", "-l", "h_vmem") == []


def test_xml(core: Core, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _run(core, capsys, "-xml", "-l", "s")
    assert lines[:4] == [
        "<?xml version='1.0'?>",
        '<qquota_result xmlns="http://gridengine.sunsource.net/61/qquota">',
        " <qquota_rule name='caps/1'>",
        "   <users>alice</users>",
    ]
    assert lines[4] == "   <limit resource='slots' limit='2' value='2'/>"
    assert lines[-1] == "</qquota_result>"


def test_help_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert qquota.main(["-help"], transport=lambda op, args: Reply()) == 0
    out = capsys.readouterr().out
    assert out.startswith("GE 6.2u5\nusage: qquota [options]\n  [-help]   ")
    assert "wc_project_list          wc_project[,wc_project,...]\n" in out
    assert qquota.main(["-x"], transport=lambda op, args: Reply()) == 1
    err = capsys.readouterr().err
    assert 'invalid option argument "-x"' in err
    assert "usage: qquota [options]" in err
    assert qquota.main(["-u"], transport=lambda op, args: Reply()) == 1
    assert "ERROR! -u option must have argument" in capsys.readouterr().err
