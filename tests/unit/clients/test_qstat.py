"""qstat layouts, built from Grid Engine's printf formats, on fixed reply data."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from clients import qstat
from clients.qstat_render.detail import render_detail
from clients.qstat_render.listing import render_full
from clients.qstat_render.text import render_jobs

from .conftest import FakeQmaster

T0 = 1767261600.0  # 01/01/2026 10:00:00 UTC


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def running(**over: Any) -> dict[str, Any]:
    row = {
        "job_id": 1,
        "prior": 0.555,
        "name": "sleepingbeauty",
        "owner": "alice",
        "state": "r",
        "submit_time": T0 - 60,
        "start_time": T0,
        "queue": "all.q@host1",
        "slots": 1,
        "tasks": None,
    }
    return {**row, **over}


def pending(**over: Any) -> dict[str, Any]:
    row = running(job_id=2, prior=0.0, name="arr", owner="bob", state="qw")
    row.update(start_time=None, queue=None, submit_time=T0, tasks="1-10:1")
    return {**row, **over}


HEADER = (
    "job-ID  prior   name       user         state submit/start at     "
    "queue                          slots ja-task-ID \n" + "-" * 113 + "\n"
)


def test_default_listing_matches_grid_engine_columns() -> None:
    """Rows use %7d %7.5f %-10.10s %-12.12s %-5.5s time %-30.30s %5d and task ids."""
    expected = (
        HEADER
        + "      1 0.55500 sleepingbe alice        r     01/01/2026 10:00:00 "
        + "all.q@host1                        1        \n"
        + "      2 0.00000 arr        bob          qw    01/01/2026 10:00:00 "
        + " " * 30
        + "     1 1-10:1\n"
    )
    assert render_jobs([pending(), running()]) == expected


def test_no_jobs_prints_nothing(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """qstat without jobs prints nothing at all and exits 0."""
    qmaster.reply("job_list", data={"jobs": [], "now": T0})
    assert qstat.main([], transport=qmaster) == 0
    assert capsys.readouterr().out == ""


def test_full_listing_groups_jobs_under_queues_then_pending() -> None:
    """-f prints each queue instance with its jobs, then the PENDING JOBS block."""
    queue = {
        "name": "all.q@host1",
        "qtype": "BIP",
        "resv": 0,
        "used": 1,
        "total": 4,
        "load_avg": 0.5,
        "arch": "lx-amd64",
        "states": "",
    }
    idle = {**queue, "name": "all.q@host2", "used": 0, "load_avg": None, "states": "u"}
    expected = (
        "queuename                      qtype resv/used/tot. load_avg arch          states\n"
        + "-" * 81
        + "\n"
        + "all.q@host1                    BIP   0/1/4          0.50     lx-amd64      \n"
        + "      1 0.55500 sleepingbe alice        r     01/01/2026 10:00:00     1        \n"
        + "-" * 81
        + "\n"
        + "all.q@host2                    BIP   0/0/4          -NA-     lx-amd64      u\n"
        + "\n"
        + "#" * 76
        + "\n - PENDING JOBS - PENDING JOBS - PENDING JOBS - PENDING JOBS - PENDING JOBS\n"
        + "#" * 76
        + "\n"
        + "      2 0.00000 arr        bob          qw    01/01/2026 10:00:00     1 1-10:1\n"
    )
    assert render_full([queue, idle], [running(), pending()]) == expected


def test_user_filter_all_users_is_null_and_lists_are_split(qmaster: FakeQmaster) -> None:
    """-u '*' asks for every user; -u a,b asks for those users."""
    qmaster.reply("job_list", data={"jobs": []})
    qstat.main(["-u", "*"], transport=qmaster)
    assert qmaster.last[1]["users"] is None
    qstat.main(["-u", "a,b", "-s", "p"], transport=qmaster)
    assert qmaster.last[1] == {"users": ["a", "b"], "states": "p", "full": False}


def test_without_u_only_the_callers_jobs_are_asked_for(qmaster: FakeQmaster) -> None:
    """Plain qstat shows the caller's own jobs, as Grid Engine 6.2 does."""
    import getpass

    qmaster.reply("job_list", data={"jobs": []})
    qstat.main([], transport=qmaster)
    assert qmaster.last[1]["users"] == [getpass.getuser()]


DETAIL = {
    "job_id": 7,
    "owner": "alice",
    "uid": 1000,
    "group": "users",
    "gid": 100,
    "submission_time": T0,
    "state": "qw",
    "job": {
        "N": "sleep",
        "CMDNAME": "sleep.sh",
        "l_hard": {"h_rt": "60", "mem": "1G"},
        "v": {"SGE_O_HOME": "/home/alice", "X": "1"},
        "t_min": 1,
        "t_max": 4,
        "t_step": 1,
    },
    "tasks": [],
    "scheduling_info": ["first reason", "second reason"],
}


def test_job_detail_keys_are_padded_to_column_28() -> None:
    """-j prints the rule, key/value lines with values in column 29 and scheduling info."""
    expected = (
        "=" * 62
        + "\n"
        + "job_number:                 7\n"
        + "submission_time:            Thu Jan  1 10:00:00 2026\n"
        + "owner:                      alice\n"
        + "uid:                        1000\n"
        + "group:                      users\n"
        + "gid:                        100\n"
        + "sge_o_home:                 /home/alice\n"
        + "hard resource_list:         h_rt=60,mem=1G\n"
        + "notify:                     FALSE\n"
        + "job_name:                   sleep\n"
        + "jobshare:                   0\n"
        + "env_list:                   X=1\n"
        + "script_file:                sleep.sh\n"
        + "job-array tasks:            1-4:1\n"
        + "scheduling info:            first reason\n"
        + "                            second reason\n"
    )
    assert render_detail(DETAIL) == expected


def test_unknown_job_ids_are_reported_and_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-j with no existing job prints GE's 'Following jobs do not exist' on stderr."""
    qmaster.reply("job_detail", data={"jobs": [], "missing": ["7", "8"]})
    assert qstat.main(["-j", "7,8"], transport=qmaster) == 1
    assert qmaster.last == ("job_detail", {"job_ids": ["7", "8"]})
    assert capsys.readouterr().err == "Following jobs do not exist: \n7, 8\n"


def test_xml_has_grid_engine_shape_and_escapes_text(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-xml puts running jobs in queue_info, pending in job_info, with text escaped."""
    qmaster.reply("job_list", data={"jobs": [running(name="a<&>b"), pending()]})
    assert qstat.main(["-xml"], transport=qmaster) == 0
    out = capsys.readouterr().out
    assert out.startswith("<?xml version='1.0'?>\n<job_info  xmlns:xsd=")
    root = ET.fromstring(out.split("\n", 1)[1])
    run = root.find("queue_info/job_list")
    wait = root.find("job_info/job_list")
    assert run is not None
    assert wait is not None
    assert (run.get("state"), run.findtext("JB_name")) == ("running", "a<&>b")
    assert run.findtext("JAT_start_time") == "2026-01-01T10:00:00"
    assert (wait.get("state"), wait.findtext("tasks")) == ("pending", "1-10:1")


def test_json_is_a_stable_document(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-json gives the same rows with typed values and RFC 3339 times."""
    qmaster.reply("job_list", data={"jobs": [running()]})
    assert qstat.main(["-json"], transport=qmaster) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "minige.qstat.v1"
    assert doc["jobs"][0]["job_id"] == 1
    assert doc["jobs"][0]["start_time"] == "2026-01-01T10:00:00+00:00"
    assert doc["jobs"][0]["queue"] == "all.q@host1"


def test_combined_flags_are_refused_like_grid_engine(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -fj is one unknown option, not -f plus -j."""
    assert qstat.main(["-fj"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qstat")
    assert err.endswith('\ninvalid option argument "-fj"\n')
    assert qmaster.calls == []


@pytest.mark.parametrize(
    ("argv", "asked"),
    [
        (["-q", "a", "b"], {"queues": ["a", "b"]}),  # parse_multi_stringlist(): a,b
        (["-u", "a", "b", "-pe", "p1", "p2"], {"users": ["a", "b"], "pes": ["p1", "p2"]}),
        (["-l", "arch=x", "slots=1"], {"resources": ["arch=x", "slots=1"]}),
        (["-s", "p", "r"], {"states": "r"}),  # parse_string(): each in turn, the last counts
        (["-F", "a", "b"], {"queue_resources": ["a", "b"], "full": True}),
    ],
)
def test_an_options_words_run_to_the_next_option(
    qmaster: FakeQmaster, argv: list[str], asked: dict[str, object]
) -> None:
    """qstat -q a b is -q a,b (parse_until_next_opt()); it was refused as a stray word."""
    qmaster.reply("job_list", data={"jobs": []})
    assert qstat.main(argv, transport=qmaster) == 0
    assert qmaster.last[1].items() >= asked.items()


def test_each_word_of_s_is_checked(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -s x r: the first word is read and refused, though a later one is good."""
    assert qstat.main(["-s", "x", "r"], transport=qmaster) == 1
    assert capsys.readouterr().err.endswith("ERROR! wrong argument to -s option\n")
    assert qmaster.calls == []
