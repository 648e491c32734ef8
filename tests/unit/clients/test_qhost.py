"""qhost and qselect clients: Grid Engine 6.2u5's layouts, options and exit codes."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from clients import qhost, qselect
from clients.qhost_render.text import render_text, scaled
from clients.qhost_render.xml import render_xml
from qmaster.gdi.answers import Answer, Quality, Status
from tests.unit.clients.conftest import FakeQmaster

G = 1024**3
GLOBAL: dict[str, Any] = {"name": "global", "resources": [], "queues": []}


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def host(name: str = "host1", **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "name": name, "arch": "lx-amd64", "num_proc": "4", "load_avg": 1.0,
        "mem_total": 8.0 * G, "mem_used": 0.0, "swap_total": 2.0 * G, "swap_used": 0.0,
        "resources": [["hl", "arch", "lx-amd64", "a"], ["hl", "mem_total", "8.000G", "mt"]],
        "queues": [],
    }  # fmt: skip
    row.update(kw)
    return row


def queue(jobs: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    row = {"name": "all.q@host1", "cqueue": "all.q", "qtype": "BIP", "resv": 0, "used": 1,
           "total": 4, "states": "", "jobs": jobs or []}  # fmt: skip
    row.update(kw)
    return row


def job_line(master: str = "MASTER", first: bool = True, **kw: Any) -> dict[str, Any]:
    row = {"job_id": 7, "prior": 0.555, "name": "sleeper_long", "owner": "alice", "state": "r",
           "start_time": 1795435200.0, "queue": "all.q@host1", "task": None,
           "master": master, "first": first}  # fmt: skip
    row.update(kw)
    return row


HEADER = "HOSTNAME                ARCH         NCPU  LOAD  MEMTOT  MEMUSE  SWAPTO  SWAPUS"
DASHES = "-" * 79
GLOBAL_LINE = "global                  -               -     -       -       -       -       -"
HOST1 = "host1                   lx-amd64        4  1.00    8.0G     0.0    2.0G     0.0"


def text(hosts: list[dict[str, Any]], **kw: Any) -> list[str]:
    opts = {"queues": False, "jobs": False, "wanted": None, "resources": False, **kw}
    return render_text(hosts, **opts).splitlines()


def test_default_layout_is_grid_engines_head_format() -> None:
    """Header, 79 dashes, the global host with dashes, then each host's load and memory."""
    assert text([GLOBAL, host()]) == [HEADER, DASHES, GLOBAL_LINE, HOST1]
    assert render_text([], queues=False, jobs=False, wanted=None, resources=False) == ""


def test_values_are_scaled_to_k_m_g_of_1024() -> None:
    """reformatDoubleValue: G/M/K of 1024, no unit below 1K, '-' when absent."""
    assert scaled(1536 * 1024**2, "%.1f") == "1.5G"
    assert scaled(300.5 * 1024**2, "%.1f") == "300.5M"
    assert scaled(2048, "%.1f") == "2.0K"
    assert scaled(0.37, "%.2f") == "0.37"
    assert scaled(None, "%.1f") == "-"


def test_queue_lines_show_qtype_reserved_used_total_and_states() -> None:
    """-q: '   all.q                BIP   0/1/4' padded as qhost pads it, states last."""
    lines = text([host(queues=[queue(), queue(states="d", resv=2)])], queues=True)
    assert lines[3] == "   all.q                BIP   0/1/4         "
    assert lines[4] == "   all.q                BIP   2/1/4         d"


def test_jobs_without_queues_get_qstats_header_once_and_a_queue_column(utc: None) -> None:
    """-j: one job header for the whole output; each line names its queue (10 wide)."""
    hosts = [
        host(queues=[queue([job_line()])]),
        host("host2", queues=[queue([job_line(job_id=8)])]),
    ]
    lines = text(hosts, jobs=True)
    assert lines[3] == (
        "   job-ID  prior   name       user         state submit/start at     "
        "queue      master ja-task-ID "
    )
    assert lines[4] == "   " + "-" * 94
    assert lines[5] == (
        "         7 0.55500 sleeper_lo alice        r     11/23/2026 12:00:00 all.q@host MASTER        "
    )
    assert lines[6].startswith("host2 ")
    assert lines[7].startswith("         8 0.55500 ")
    assert sum(line.lstrip().startswith("job-ID") for line in lines) == 1


def test_jobs_under_queues_drop_the_queue_column_and_slaves_show_no_job(utc: None) -> None:
    """-q -j: no job header; a parallel job's further slots are SLAVE lines without the job."""
    lines = [job_line(task="3"), job_line("SLAVE", first=False, task="3")]
    out = text([host(queues=[queue(lines)])], queues=True, jobs=True)
    assert out[4] == "         7 0.55500 sleeper_lo alice        r     11/23/2026 12:00:00 MASTER 3"
    assert out[5] == "   " + " " * 66 + "SLAVE  3"


def test_resource_values_print_dominance_and_a_first_line_prefix_for_a_list() -> None:
    """-F: '   hl:arch=lx-amd64'; with a list, 'Host Resource(s):' opens the first line."""
    assert text([host()], resources=True)[3:] == ["   hl:arch=lx-amd64", "   hl:mem_total=8.000G"]
    assert text([host()], resources=True, wanted=["a"])[3] == (
        "    Host Resource(s):      hl:arch=lx-amd64"
    )


def test_xml_document_has_grid_engines_shape(utc: None) -> None:
    """-xml: <qhost> with host/hostvalue, resourcevalue, queue/queuevalue and job/jobvalue."""
    hosts = [GLOBAL, host(queues=[queue([job_line(task="2")])])]
    doc = render_xml(hosts, queues=True, jobs=True, wanted=None, resources=True)
    lines = doc.splitlines()
    assert lines[:3] == [
        "<?xml version='1.0'?>",
        '<qhost xmlns="http://gridengine.sunsource.net/61/qhost">',
        " <host name='global'>",
    ]
    assert "   <hostvalue name='arch_string'>-</hostvalue>" in lines
    assert "   <hostvalue name='mem_total'>8.0G</hostvalue>" in lines
    assert "   <resourcevalue name='arch' dominance='hl'>lx-amd64</resourcevalue>" in lines
    assert "   <queuevalue qname='all.q' name='slots_resv'>0</queuevalue>" in lines
    assert "   <jobvalue jobid='7' name='priority'>'0.555000'</jobvalue>" in lines
    assert "   <jobvalue jobid='7' name='taskid'>2</jobvalue>" in lines
    assert "   <jobvalue jobid='7' name='queue_name'>all.q@host1</jobvalue>" not in lines
    root = ET.fromstring(doc)
    assert [h.get("name") for h in root] == ["global", "host1"]


def test_xml_escapes_markup_in_values() -> None:
    """A job name with markup characters stays well-formed XML."""
    hosts = [host(queues=[queue([job_line(name="a<b>&'c")])])]
    doc = render_xml(hosts, queues=False, jobs=True, wanted=None, resources=False)
    values = [
        e.text
        for e in ET.fromstring(doc).iter("{http://gridengine.sunsource.net/61/qhost}jobvalue")
    ]
    assert "a<b>&'c" in values


def test_help_prints_the_version_first_and_ends_with_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qhost -help: usage on stdout, 'GE 6.2u5' first, exit 1 as qhost.c leaves it."""
    assert qhost.main(["-help"], transport=qmaster) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == ["GE 6.2u5", "usage: qhost [options]"]
    assert qmaster.calls == []


def test_bad_option_is_refused_with_grid_engines_words(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown option: the usage, 'ERROR! invalid option argument', exit 1, nothing sent."""
    assert qhost.main(["-s"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qhost [options]\n")
    assert err.endswith('\nERROR! invalid option argument "-s"\n')
    assert qselect.main(["-s", "r"], transport=qmaster) == 1  # qstat's text (qselect mode)
    assert capsys.readouterr().err.endswith('\ninvalid option argument "-s"\n')
    assert qmaster.calls == []


def test_user_list_implies_jobs_and_lists_are_split(qmaster: FakeQmaster) -> None:
    """-u shows jobs (as -j); -h, -u and -l lists are sent split."""
    qmaster.reply("host_list", data={"hosts": []})
    assert (
        qhost.main(
            ["-u", "alice,bob", "-h", "host1", "-l", "arch=lx-amd64,h=host1"], transport=qmaster
        )
        == 0
    )
    assert qmaster.last == (
        "host_list",
        {"hosts": ["host1"], "resources": {"arch": "lx-amd64", "h": "host1"},
         "users": ["alice", "bob"], "queues": False, "jobs": True},
    )  # fmt: skip


def test_resource_list_keeps_names_and_shortcuts(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-F mt shows mem_total only, found by its shortcut."""
    qmaster.reply("host_list", data={"hosts": [host()]})
    assert qhost.main(["-F", "mt"], transport=qmaster) == 0
    assert capsys.readouterr().out.splitlines()[3:] == [
        "    Host Resource(s):      hl:mem_total=8.000G"
    ]


def test_qmaster_errors_are_printed_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused request prints the qmaster's text on stderr and ends with 1."""
    bad = Answer(Status.ESEMANTIC, Quality.ERROR, 'unknown resource "foo"')
    qmaster.reply("host_list", [bad])
    assert qhost.main(["-l", "foo=1"], transport=qmaster) == 1
    assert capsys.readouterr().err == 'unknown resource "foo"\n'


def test_qselect_prints_one_instance_per_line_and_1_when_none(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qselect: instance names on stdout, exit 0; an empty selection prints nothing, exit 1."""
    qmaster.reply("queue_select", data={"queues": ["all.q@host1", "all.q@host2"]})
    assert qselect.main(["-l", "arch=lx-amd64", "-pe", "mpi", "-qs", "d"], transport=qmaster) == 0
    assert capsys.readouterr().out == "all.q@host1\nall.q@host2\n"
    assert qmaster.last[1] == {
        "queues": None, "resources": {"arch": "lx-amd64"}, "pes": ["mpi"], "users": None,
        "states": "d",
    }  # fmt: skip
    qmaster.reply("queue_select", data={"queues": []})
    assert qselect.main([], transport=qmaster) == 1
    assert capsys.readouterr().out == ""


def test_host_and_user_lists_run_until_the_next_option(qmaster: FakeQmaster) -> None:
    """-h host1 host2 -u a b: every word up to the next option belongs to the list."""
    qmaster.reply("host_list", data={"hosts": []})
    assert qhost.main(["-h", "host1", "host2", "-u", "a", "b,c", "-q"], transport=qmaster) == 0
    args = qmaster.last[1]
    assert (args["hosts"], args["users"], args["queues"]) == (
        ["host1", "host2"],
        ["a", "b", "c"],
        True,
    )
    assert qhost.main(["-F", "arch", "mt", "-j"], transport=qmaster) == 0
    assert qmaster.last[1]["jobs"] is True


def test_core_binding_adds_sockets_and_cores_but_no_threads() -> None:
    """-cb: NSOC and NCOR after NCPU, 89 dashes; '-' where a host reports no m_socket/m_core."""
    lines = text([GLOBAL, host(m_socket="2", m_core="8"), host("host2")], binding=True)
    assert lines[0] == (
        "HOSTNAME                ARCH         NCPU NSOC NCOR  LOAD  MEMTOT  MEMUSE  SWAPTO  SWAPUS"
    )
    assert lines[1] == "-" * 89
    assert (
        lines[3]
        == "host1                   lx-amd64        4    2    8  1.00    8.0G     0.0    2.0G     0.0"
    )
    assert lines[4].split()[2:5] == ["4", "-", "-"]
    doc = render_xml(
        [host(m_socket="2")], queues=False, jobs=False, wanted=None, resources=False, binding=True
    )
    assert "   <hostvalue name='m_socket'>2</hostvalue>" in doc.splitlines()
    assert "NSOC" not in text([host()])[0]


def test_qselect_words_run_to_the_next_option(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-q a b -l x=1 y=2 -qs d u: every word up to the next option is the option's (the last
    -qs word counts); -cb is taken. qselect -q a b was 'invalid option argument ""'."""
    qmaster.reply("queue_select", data={"queues": ["a@h"]})
    argv = ["-q", "a", "b,c", "-l", "arch=x", "mem=1G", "-qs", "d", "u", "-cb", "-U", "u1"]
    assert qselect.main(argv, transport=qmaster) == 0
    assert qmaster.last[1] == {
        "queues": ["a", "b", "c"], "resources": {"arch": "x", "mem": "1G"}, "pes": None,
        "users": ["u1"], "states": "u",
    }  # fmt: skip
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("argv", "err"),
    [
        (["-q"], "ERROR! -q option must have argument\n"),
        (["-q", "-l", "arch=x", "-pe"],
         "ERROR! -q option must have argument\nERROR! -pe option must have argument\n"),
        (["-qs", "x"], "unknown queue state: x found in string: x\n"),
        (["-help", "-pe"], "ERROR! -pe option must have argument\n"),
    ],
)  # fmt: skip
def test_qselect_missing_arguments_are_one_line_each_without_the_usage(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], argv: list[str], err: str
) -> None:
    """parse_until_next_opt(): the complaint, the command line read on, no usage; exit 1."""
    assert qselect.main(argv, transport=qmaster) == 1
    assert capsys.readouterr() == ("", err)
    assert qmaster.calls == []


def test_qselect_a_word_no_option_takes_is_refused_with_the_usage(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qselect all.q: the usage, then 'invalid option argument "all.q"', exit 1."""
    assert qselect.main(["all.q"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qselect [options]\n")
    assert err.endswith('\ninvalid option argument "all.q"\n')
    assert qmaster.calls == []


def test_qselect_help_prints_its_usage_and_ends_with_0(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qselect -help: the version line, then its options (-l -pe -q -qs -U) on stdout, exit 0."""
    assert qselect.main(["-help"], transport=qmaster) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["GE 6.2u5", "usage: qselect [options]"]
    assert [line.split()[0] for line in out[2:8]] == [
        "[-help]",
        "[-l",
        "[-pe",
        "[-q",
        "[-qs",
        "[-U",
    ]
