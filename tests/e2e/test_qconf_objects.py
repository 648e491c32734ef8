"""qconf's list, add and delete switches for whole objects, against a running qmaster."""

from __future__ import annotations

import os
import pwd
import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def test_lists_of_usersets_and_host_groups(minige_cell: RunningCell) -> None:
    """-sul lists the usersets, -shgrpl the host groups, -shgrp shows one."""
    assert minige_cell.run("qconf", "-sul").stdout.split() == [
        "arusers",
        "deadlineusers",
        "defaultdepartment",
    ]
    assert minige_cell.run("qconf", "-shgrpl").stdout.split() == ["@allhosts"]
    shown = minige_cell.run("qconf", "-shgrp", "@allhosts").stdout
    assert shown.splitlines()[0].split() == ["group_name", "@allhosts"]


def test_add_then_delete_a_queue(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-Aq adds a queue from a file and -dq removes it, in Grid Engine's words."""
    text = minige_cell.run("qconf", "-sq", "all.q").stdout.replace("all.q", "short.q", 1)
    (tmp_path / "q").write_text(text)
    added = minige_cell.run("qconf", "-Aq", str(tmp_path / "q"))
    assert added.returncode == 0
    assert added.stdout.strip().endswith('added "short.q" to cluster queue list')
    assert minige_cell.run("qconf", "-sql").stdout.split() == ["all.q", "short.q"]
    removed = minige_cell.run("qconf", "-dq", "short.q")
    assert removed.stdout.strip().endswith('removed "short.q" from cluster queue list')
    assert minige_cell.run("qconf", "-sql").stdout.split() == ["all.q"]


def test_truncated_modify_is_refused(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-Mq of a file with only its name is refused; the queue keeps its hosts."""
    (tmp_path / "q").write_text("qname all.q\n")
    result = minige_cell.run("qconf", "-Mq", str(tmp_path / "q"))
    assert result.returncode == 1
    assert 'Required attribute "hostlist" is missing' in result.stdout + result.stderr
    assert "@allhosts" in minige_cell.run("qconf", "-sq", "all.q").stdout


def _running_tasks(cell: RunningCell, want: int) -> list[str]:
    """The running tasks' ids, once ``want`` of them run (or after 10 s)."""
    deadline = time.monotonic() + 10
    tasks: list[str] = []
    while time.monotonic() < deadline:
        rows = [ln.split() for ln in cell.run("qstat").stdout.splitlines()[2:]]
        tasks = [r[-1] for r in rows if len(r) > 4 and r[4] == "r"]
        if len(tasks) >= want:
            break
        time.sleep(0.2)
    return tasks


def test_resource_quota_set_limits_jobs_and_qquota_shows_use(
    minige_cell: RunningCell, tmp_path: Path
) -> None:
    """qconf -Arqs adds a set; a task beyond it waits with Grid Engine's reason; qquota
    shows the use; -drqs removes the set."""
    me = pwd.getpwuid(os.getuid()).pw_name
    text = (
        "{\n   name         max_u_slots\n   description  NONE\n   enabled      TRUE\n"
        "   limit        users {*} to slots=2\n}\n"
    )
    (tmp_path / "rqs").write_text(text)
    added = minige_cell.run("qconf", "-Arqs", str(tmp_path / "rqs"))
    assert added.stdout.strip().endswith('added "max_u_slots" to resource quota set list')
    assert minige_cell.run("qconf", "-srqs").stdout == text
    job = minige_cell.run("qsub", "-terse", "-t", "1-3", "-b", "y", "sleep", "1000").stdout
    assert _running_tasks(minige_cell, 2) == ["1", "2"]
    why = minige_cell.run("qstat", "-j", job.split(".")[0]).stdout
    assert f'cannot run because it exceeds limit "{me}/////" in rule "max_u_slots/1"' in why
    assert minige_cell.run("qquota").stdout.splitlines() == [
        "resource quota rule limit                filter",
        "-" * 80,
        f"max_u_slots/1      slots=2/2            users {me}",
    ]
    assert minige_cell.run("qconf", "-drqs", "max_u_slots").returncode == 0
    assert minige_cell.run("qconf", "-srqsl").stderr == "no resource quota set list defined\n"
