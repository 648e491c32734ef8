"""qstat -j JOB -story (a minige addition): the job's block, then one line per change."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from clients import qstat
from clients.qstat_render.detail import render_detail

from .conftest import FakeQmaster

T0 = time.mktime((2026, 1, 1, 10, 0, 0, 0, 0, -1))

DETAIL: dict[str, Any] = {
    "job_id": 7,
    "owner": "alice",
    "uid": 1000,
    "group": "users",
    "gid": 100,
    "submission_time": T0,
    "state": "r",
    "job": {"N": "sleep", "CMDNAME": "sleep.sh", "t_min": 1, "t_max": 4, "t_step": 1},
    "tasks": [],
    "scheduling_info": [],
}
STORY = [
    [T0, 9, "submit by alice", "new -> pending (tasks 1-4:1)"],
    [T0 + 1, 12, "pass", "pending -> transferring (all.q@host1, tasks 1-4:1)"],
    [T0 + 61, 130, "delete by alice", "running -> deleting (all.q@host1, task 2)"],
]


def test_story_follows_the_job_block(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each change is a line under story: with local time, stimulus id, stimulus, transition."""
    qmaster.reply("job_detail", data={"jobs": [{**DETAIL, "story": STORY}], "missing": []})
    assert qstat.main(["-j", "7", "-story"], transport=qmaster) == 0
    assert qmaster.last == ("job_detail", {"job_ids": ["7"], "story": True})
    assert capsys.readouterr().out == render_detail(DETAIL) + (
        "story:                      01/01/2026 10:00:00    9  submit by alice  "
        "new -> pending (tasks 1-4:1)\n"
        "                            01/01/2026 10:00:01   12  pass             "
        "pending -> transferring (all.q@host1, tasks 1-4:1)\n"
        "                            01/01/2026 10:01:01  130  delete by alice  "
        "running -> deleting (all.q@host1, task 2)\n"
    )


def test_without_story_nothing_changes(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without -story, qstat -j asks and prints exactly what it did before."""
    qmaster.reply("job_detail", data={"jobs": [DETAIL], "missing": []})
    assert qstat.main(["-j", "7"], transport=qmaster) == 0
    assert qmaster.last == ("job_detail", {"job_ids": ["7"]})
    assert capsys.readouterr().out == render_detail(DETAIL)


@pytest.mark.parametrize("argv", [["-story"], ["-j", "-story"], ["-j", "7", "-story", "-xml"]])
def test_story_needs_a_job_list_in_text_or_json(
    argv: list[str], qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-story without -j and a job list, or with -xml, is refused and asks nothing."""
    assert qstat.main(argv, transport=qmaster) == 1
    assert qmaster.calls == []
    assert "-story" in capsys.readouterr().err


def test_help_says_story_is_a_minige_addition(capsys: pytest.CaptureFixture[str]) -> None:
    """qstat -help lists -story as a minige addition."""
    qstat.main(["-help"])
    assert "[-story]" in capsys.readouterr().out


def test_json_carries_the_story_rows(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -j 7 -story -json: each job has its story list as the qmaster sent it."""
    qmaster.reply("job_detail", data={"jobs": [{**DETAIL, "story": STORY}], "missing": []})
    assert qstat.main(["-j", "7", "-story", "-json"], transport=qmaster) == 0
    assert qmaster.last == ("job_detail", {"job_ids": ["7"], "story": True})
    assert json.loads(capsys.readouterr().out)["jobs"][0]["story"] == STORY
