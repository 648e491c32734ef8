"""Simulated execution on the real clock: runtimes, h_rt limits, array tasks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.live import LiveDaemon, job, wait_for

pytestmark = pytest.mark.timeout(60)

FAILED, EXIT_STATUS, RU_WALLCLOCK, TASK_NUMBER = 11, 12, 13, 35


def rows(live: LiveDaemon) -> list[dict[str, Any]]:
    return list(live.call("job_list", {"users": ["*"]}).data["jobs"])


def accounting(live: LiveDaemon) -> list[list[str]]:
    path: Path = live.cell.common / "accounting"
    if not path.exists():
        return []
    return [
        line.split(":")
        for line in path.read_text().splitlines()
        if len(line) > 1 and not line.startswith("#")
    ]


def acct_of(live: LiveDaemon, job_id: int) -> list[list[str]]:
    return [f for f in accounting(live) if f[5] == str(job_id)]


def test_a_numeric_first_argument_is_the_runtime(live: LiveDaemon) -> None:
    """A job 'sleep 0.3' runs, then finishes about 0.3 s after it started, exit status 0."""
    live.call("submit", job("0.3"))
    wait_for(lambda: any(r["state"] == "r" for r in rows(live)), what="job 1 running")
    started = time.monotonic()
    wait_for(lambda: not rows(live), what="job 1 to finish")
    assert time.monotonic() - started < 3
    (line,) = wait_for(lambda: acct_of(live, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "0")
    assert line[0] == "all.q"


def test_a_long_job_is_still_running_before_its_runtime_is_up(live: LiveDaemon) -> None:
    """A job 'sleep 100' stays in state r and writes no accounting while it runs."""
    live.call("submit", job("100"))
    wait_for(lambda: any(r["state"] == "r" for r in rows(live)), what="job 1 running")
    (row,) = rows(live)
    assert row["queue"].startswith("all.q@")
    assert acct_of(live, 1) == []


def test_h_rt_ends_a_job_early_with_status_137(live: LiveDaemon) -> None:
    """A job asking for 100 s under h_rt=1 is killed after 1 s: accounting failed 100, exit 137."""
    live.call("submit", job("100", l_hard={"h_rt": "0:0:1"}))
    wait_for(lambda: any(r["state"] == "r" for r in rows(live)), what="job 1 running")
    wait_for(lambda: not rows(live), timeout=5, what="job 1 to be killed by h_rt")
    (line,) = wait_for(lambda: acct_of(live, 1), what="accounting line of job 1")
    assert line[EXIT_STATUS] == "137"
    assert line[FAILED] == "100"
    assert int(line[RU_WALLCLOCK]) <= 2


def test_array_job_tasks_have_their_own_states(live: LiveDaemon) -> None:
    """-t 1-20 on 16 slots: 16 tasks run one row each, the rest pend as one '17-20:1' row."""
    reply = live.call("submit", job("100", t_min=1, t_max=20, t_step=1))
    assert reply.data["tasks"] == "1-20:1"
    pending = [r for r in rows(live) if r["state"] == "qw"]
    assert [r["tasks"] for r in pending] == ["1-20:1"]
    running = wait_for(
        lambda: [r for r in rows(live) if r["state"] == "r"], what="array tasks running"
    )
    assert sorted(int(r["tasks"]) for r in running) == list(range(1, 17))
    assert [r["tasks"] for r in rows(live) if r["state"] == "qw"] == ["17-20:1"]
    detail = live.call("job_detail", {"job_ids": ["1"]}).data["jobs"][0]
    states = {t["task_id"]: t["state"] for t in detail["tasks"]}
    assert states[3] == "r"


def test_each_array_task_is_accounted_separately(live: LiveDaemon) -> None:
    """-t 1-4 with a 0.3 s runtime writes one accounting line per task, numbered 1 to 4."""
    live.call("submit", job("0.3", t_min=1, t_max=4, t_step=1))
    lines = wait_for(lambda: len(acct_of(live, 1)) == 4 and acct_of(live, 1), what="4 lines")
    assert sorted(int(f[TASK_NUMBER]) for f in lines) == [1, 2, 3, 4]
    assert rows(live) == []


def test_deleting_one_array_task_leaves_the_others(live: LiveDaemon) -> None:
    """qdel 1.2 of a running array removes task 2 only; tasks 1 and 3 keep running."""
    live.call("submit", job("100", t_min=1, t_max=3, t_step=1))
    wait_for(lambda: len([r for r in rows(live) if r["state"] == "r"]) == 3, what="3 running")
    assert live.call("delete", {"job_ids": ["1.2"]}).ok
    wait_for(lambda: sorted(int(r["tasks"]) for r in rows(live)) == [1, 3], what="task 2 to go")
