"""qstat -j's layout and XML, the scheduler summary, -s checking, finished jobs in -f."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from clients import qstat
from clients.qstat_render.detail import render_detail
from clients.qstat_render.listing import render_full
from clients.qstat_render.summary import render_summary

from .conftest import FakeQmaster

T0 = 1767261600.0  # 01/01/2026 10:00:00 UTC


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def full_detail() -> dict[str, Any]:
    return {
        "job_id": 9,
        "owner": "alice",
        "uid": 1000,
        "group": "users",
        "gid": 100,
        "submission_time": T0,
        "exec_file": "job_scripts/9",
        "account": "sge",
        "mail_list": ["alice@host1"],
        "predecessors": [3],
        "successors": [12],
        "job": {
            "N": "big",
            "CMDNAME": "big.sh",
            "CMDARGS": ["60"],
            "dl": "202601021200.00",
            "a": "202601011100.00",
            "v": {"SGE_O_HOME": "/home/alice", "SGE_O_HOST": "host1"},
            "A": "sge",
            "ckpt": "blcr",
            "c_occasion": "xs",
            "c_interval": "0:5:0",
            "wd": "/tmp",
            "e": ["/tmp/err"],
            "R": True,
            "j": True,
            "l_hard": {"h_rt": "60"},
            "m": "eb",
            "notify": True,
            "o": ["host2:/tmp/out"],
            "i": ["/dev/null"],
            "p": -5,
            "js": 10,
            "q_hard": ["all.q"],
            "r": True,
            "S": ["/bin/sh"],
            "masterq": ["all.q@host1"],
            "pe_name": "mpi",
            "pe_min": 2,
            "pe_max": 4,
            "hold_jid": ["3"],
            "w": "w",
            "ot": 50,
            "P": "proj",
            "ar": 4,
            "t_min": 1,
            "t_max": 2,
            "t_step": 1,
            "ac": {"k": "v"},
        },
        "tasks": [
            {"task_number": 1, "state": "r", "queue": "all.q@host1", "usage": {"cpu": 65.0}},
            {"task_number": 2, "state": "Eqw", "queue": None, "message": "no shell"},
        ],
        "scheduling_info": ["Job is in hold state"],
    }


def test_detail_prints_every_line_in_show_job_order() -> None:
    """-j lists the fields in cull_show_job's order with Grid Engine's keys and values."""
    text = render_detail(full_detail())
    keys = [ln.split(":")[0] for ln in text.splitlines()[1:]]
    assert keys == [
        "job_number", "exec_file", "submission_time", "deadline", "owner", "uid", "group",
        "gid", "sge_o_home", "sge_o_host", "execution_time", "account", "checkpoint_object",
        "checkpoint_attr", "checkpoint_interval", "cwd", "stderr_path_list", "reserve", "merge",
        "hard resource_list", "mail_options", "mail_list", "notify", "job_name",
        "stdout_path_list", "stdin_path_list", "priority", "jobshare", "hard_queue_list",
        "restart", "shell_list", "env_list", "job_args", "master hard queue_list",
        "script_file", "parallel environment", "jid_predecessor_list (req)",
        "jid_predecessor_list", "jid_successor_list", "verify_suitable_queues", "oticket",
        "project", "ar_id", "job-array tasks", "context", "usage    1", "error reason    2",
        "scheduling info",
    ]  # fmt: skip
    assert "jid_predecessor_list (req):  3\n" in text
    assert "master hard queue_list:     all.q@host1\n" in text
    assert "stdout_path_list:           host2:NONE:/tmp/out\n" in text
    assert "shell_list:                 NONE:/bin/sh\n" in text
    assert "checkpoint_attr:            sx    \n" in text
    assert "checkpoint_interval:        300 seconds\n" in text
    assert "mail_options:               be\n" in text
    assert "deadline:                   Fri Jan  2 12:00:00 2026\n" in text
    assert "jobshare:                   10\n" in text
    assert "verify_suitable_queues:     2\n" in text
    assert (
        "usage    1:                 cpu=00:01:05, mem=0.00000 GBs, io=0.00000, "
        "vmem=N/A, maxvmem=N/A\n"
    ) in text
    assert "error reason    2:          no shell\n" in text


def test_detail_prints_env_list_and_jobshare_even_when_empty() -> None:
    """env_list and jobshare are printed for every job, empty or 0, as Grid Engine does."""
    text = render_detail({"job_id": 1, "submission_time": T0, "job": {"N": "x"}})
    assert "jobshare:                   0\nenv_list:                   \n" in text


def test_summary_lists_job_ids_per_message_wrapped_after_eight() -> None:
    """qstat -j alone: messages by number, each text then tab-separated ids, 8 per line."""
    summary = {
        "global_messages": [{"number": 28, "text": "(turned off)"}],
        "messages": [
            {"number": 36, "text": "Queue instances full", "job_ids": list(range(1, 11))},
            {"number": 32, "text": "Jobs on hold", "job_ids": [12]},
        ],
    }
    assert render_summary(summary) == (
        "scheduling info:            (turned off)\n\n"
        "Jobs on hold\n"
        "\t12\n\n"
        "Queue instances full\n"
        "\t1,\t2,\t3,\t4,\t5,\t6,\t7,\t8,\n\t9,\t10\n"
    )


def test_j_without_a_list_asks_for_the_summary(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -j with no job list is accepted and prints the scheduler's messages."""
    qmaster.reply(
        "job_detail",
        data={"summary": {"global_messages": [], "messages": [
            {"number": 32, "text": "Jobs dropped because of hold state", "job_ids": [1]}
        ]}},
    )  # fmt: skip
    assert qstat.main(["-j"], transport=qmaster) == 0
    assert qmaster.last == ("job_detail", {"job_ids": None})
    assert capsys.readouterr().out == "Jobs dropped because of hold state\n\t1\n"


def test_j_xml_writes_detailed_job_info(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -j 9 -xml writes <detailed_job_info> with djob_info and messages, not text."""
    detail = full_detail()
    detail["messages"] = [{"number": 32, "text": "Job is in hold state"}]
    qmaster.reply("job_detail", data={"jobs": [detail], "missing": [], "global_messages": []})
    assert qstat.main(["-j", "9", "-xml"], transport=qmaster) == 0
    out = capsys.readouterr().out
    assert out.startswith("<?xml version='1.0'?>\n<detailed_job_info  xmlns:xsd=")
    root = ET.fromstring(out.split("\n", 1)[1])
    job = root.find("djob_info/qmaster_response")
    assert job is not None
    assert [c.tag for c in job][:6] == [
        "JB_job_number", "JB_ar", "JB_exec_file", "JB_submission_time", "JB_owner", "JB_uid",
    ]  # fmt: skip
    assert job.findtext("JB_priority") == "1019"
    assert job.findtext("JB_stdout_path_list/path_list/PN_host") == "host2"
    assert job.findtext("JB_ja_tasks/ulong_sublist/JAT_task_number") == "1"
    message = root.find("messages/qmaster_response/SME_message_list/element")
    assert message is not None
    assert message.findtext("MES_job_number_list/ulong_sublist/ULNG_value") == "9"
    assert message.findtext("MES_message_number") == "32"


def test_bad_s_is_refused_before_asking_the_qmaster(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -s x prints the usage, then 'ERROR! wrong argument to -s option', exit 1."""
    assert qstat.main(["-s", "x"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qstat")  # qstat_usage() first, as qstat.c
    assert err.endswith("\nERROR! wrong argument to -s option\n")
    assert qmaster.calls == []


def test_full_listing_puts_finished_jobs_under_their_banner() -> None:
    """qstat -f -s z prints finished jobs after the FINISHED JOBS banner."""
    row = {
        "job_id": 3, "prior": 0.555, "name": "done", "owner": "bob", "state": "z",
        "submit_time": T0, "start_time": None, "queue": None, "slots": 1, "tasks": None,
    }  # fmt: skip
    text = render_full([], [row])
    assert text.startswith("\n" + "#" * 76 + "\n --  FINISHED JOBS  -  FINISHED JOBS  -")
    assert "PENDING" not in text
    assert text.endswith("z     01/01/2026 10:00:00     1        \n")


def test_cb_adds_the_binding_lines_and_xml(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -cb -j shows the requested binding and each running task's (NONE when simulated)."""
    detail = full_detail()
    detail["job"].update(binding_type="set", binding_strategy="linear_automatic", binding_amount=2)
    qmaster.reply("job_detail", data={"jobs": [detail], "missing": [], "global_messages": []})
    assert qstat.main(["-cb", "-j", "9"], transport=qmaster) == 0
    text = capsys.readouterr().out
    assert "context:                    k=v\nbinding:                    set linear:2\n" in text
    assert "maxvmem=N/A\nbinding    1:               NONE\nerror reason" in text
    assert "binding:" not in render_detail(detail)
    assert qstat.main(["-cb", "-j", "9", "-xml"], transport=qmaster) == 0
    root = ET.fromstring(capsys.readouterr().out.split("\n", 1)[1])
    assert root.findtext("djob_info/qmaster_response/JB_binding/binding/BN_strategy") == (
        "linear_automatic"
    )


def test_detail_of_a_pe_job_spooled_without_a_slot_range() -> None:
    """A job spooled with pe_name but no range (older cells) shows range 1 instead of failing."""
    job = {"N": "x", "pe_name": "mpi"}
    text = render_detail({"job_id": 1, "submission_time": T0, "job": job})
    assert "parallel environment:  mpi range: 1\n" in text
