"""qacct's -l selection against a cell's configuration, and its command-line corner cases."""

from __future__ import annotations

from typing import Any

import pytest

from clients.acct import resources
from clients.acct.options import Usage, parse_args, parse_tasks
from clients.common.errors import ClientError
from qmaster.events.records import Acct

COMPLEXES = """\
arch                a          RESTRING    ==    YES         NO         NONE     0
h_rt                h_rt       TIME        <=    YES         NO         0:0:0    0
hostname            h          HOST        ==    YES         NO         NONE     0
load_avg            la         DOUBLE      >=    NO          NO         0        0
mem_total           mt         MEMORY      <=    YES         NO         0        0
qname               q          RESTRING    ==    YES         NO         NONE     0
slots               s          INT         <=    YES         YES        1        1000
"""
OBJECTS = {
    ("cqueue", "all.q"): "qname all.q\nhostlist @allhosts\nslots 1,[host1=4]\nh_rt 1:0:0\n"
    "complex_values NONE\n",
    ("hostgroup", "@allhosts"): "group_name @allhosts\nhostlist host1 host2\n",
    (
        "exechost",
        "host1",
    ): "hostname host1\ncomplex_values NONE\nload_values arch=lx-amd64,mem_total=8G\n",
    (
        "exechost",
        "host2",
    ): "hostname host2\ncomplex_values NONE\nload_values arch=lx-arm64,mem_total=2G\n",
    ("exechost", "global"): "hostname global\ncomplex_values NONE\nload_values NONE\n",
}


@pytest.fixture
def cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The qmaster's configuration, answered without a qmaster."""

    def call(op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        assert op == "conf_show"
        if args["kind"] == "complex":
            return {"text": COMPLEXES}
        if args["name"] is None:
            return {"names": [n for k, n in OBJECTS if k == args["kind"]]}
        text = OBJECTS.get((args["kind"], args["name"]))
        return None if text is None else {"text": text}

    monkeypatch.setattr(resources, "_call", call)


def fields(qname: str, host: str) -> list[bytes]:
    line = Acct(0, qname, host, "g", "u", "j", 1, "sge", 0, 1, 2, 3, 0, 0, 1).accounting_line()
    return line.encode().split(b":")


@pytest.mark.usefixtures("cell")
@pytest.mark.parametrize(
    ("request_text", "host1", "host2"),
    [
        ("arch=lx-amd64", True, False),
        ("a=lx-*", True, True),
        ("mem_total=4G", True, False),
        ("h_rt=0:30:0", True, True),
        ("h_rt=2:0:0", False, False),
        ("slots=2", True, False),
        ("hostname=host2", False, True),
        ("q=all.q,arch=lx-arm64", False, True),
    ],
)
def test_requests_select_by_the_queue_instance_offer(
    request_text: str, host1: bool, host2: bool
) -> None:
    """A record is kept when its queue instance offers what -l asks, at every level."""
    select = resources.resource_selector(request_text)
    assert select(fields("all.q", "host1")) is host1
    assert select(fields("all.q", "host2")) is host2


@pytest.mark.usefixtures("cell")
def test_instances_that_are_gone_are_ignored() -> None:
    """A queue or host the cell no longer has gives None (counted as ignored)."""
    select = resources.resource_selector("arch=*")
    assert select(fields("gone.q", "host1")) is None
    assert select(fields("all.q", "host9")) is None


@pytest.mark.usefixtures("cell")
def test_bad_requests_are_refused() -> None:
    """Unknown, non-requestable or malformed requests end qacct with Grid Engine's words."""
    with pytest.raises(ClientError, match='unknown resource "nosuch"'):
        resources.resource_selector("nosuch=1")
    with pytest.raises(ClientError, match="configured as non requestable"):
        resources.resource_selector("load_avg=1")
    with pytest.raises(ClientError):
        resources.resource_selector("mem_total=lots")
    with pytest.raises(Usage):
        resources.resource_selector("=3")


def test_job_argument_is_read_as_c_reads_it() -> None:
    """-j takes a leading number as the job id and anything else as a name pattern."""
    assert parse_args(["-j", "12abc"]).job_number == 12
    opts = parse_args(["-j", "sleep*"])
    assert (opts.job_number, opts.job_name) == (0, "sleep*")
    assert "job" in parse_args(["-j", "-o"]).flags


def test_numeric_group_names_its_group() -> None:
    """-g with a gid the system knows is that group's name."""
    import grp

    entry = grp.getgrgid(0)
    assert parse_args(["-g", "0"]).group == entry.gr_name
    assert parse_args(["-g", "nosuchgroup"]).group == "nosuchgroup"


def test_days_count_back_from_the_end_or_now() -> None:
    """-d counts back from -e, or from now when neither -b nor -e is given."""
    opts = parse_args(["-d", "2"], now=1_000_000)
    assert (opts.begin, opts.end) == (1_000_000 - 2 * 86400, None)


def test_task_ranges() -> None:
    """-t keeps the first range of its list; 0, reversed or stepless ranges are refused."""
    first = parse_tasks("3-9:3,20")
    assert [t for t in range(12) if t in first] == [3, 6, 9]
    for bad in ("0", "5-2", "1-4:0", "a"):
        with pytest.raises(Usage):
            parse_tasks(bad)
