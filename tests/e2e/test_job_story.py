"""qstat -j JOB -story, run as installed: a job's changes, kept across a qmaster restart."""

from __future__ import annotations

import re
import time

import pytest

from qmaster.testing import RunningCell
from tests.e2e import cells

pytestmark = pytest.mark.timeout(120)

LINE = re.compile(r"^(?:story:)?\s+\d\d/\d\d/\d{4} \d\d:\d\d:\d\d\s+(\d+)\s+(.+?)\s{2,}(.+)$")


def story(cell: RunningCell, job: str) -> list[tuple[int, str, str]]:
    """The (id, stimulus, transition) lines qstat -j JOB -story prints after the job block."""
    done = cell.run("qstat", "-j", job, "-story")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\nstory:", 1)[1].splitlines()
    found = [LINE.match(("story:" if i == 0 else "") + ln) for i, ln in enumerate(lines)]
    assert all(found), lines
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in found if m]


def wait_running(cell: RunningCell, job: str) -> None:
    deadline = time.monotonic() + 20
    while not any("-> running" in t for _, _, t in story(cell, job)):
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.2)


def test_story_shows_each_change_and_survives_a_restart(stopped_cell: RunningCell) -> None:
    """Submit, start, a hold set and removed: each a line with a rising id, the same after a
    restart; plain qstat -j prints no story."""
    cell = stopped_cell
    cell.start()
    assert cell.run("qsub", "-terse", "-b", "y", "sleep", "1000").stdout.strip() == "1"
    wait_running(cell, "1")
    held = cell.run("qsub", "-terse", "-h", "-t", "1-3", "-b", "y", "sleep", "1000")
    assert held.stdout.strip() == "2.1-3:1"
    assert cell.run("qalter", "-h", "o", "2").returncode == 0
    assert cell.run("qrls", "-h", "o", "2").returncode == 0
    assert "story:" not in cell.run("qstat", "-j", "1").stdout
    user = cell.run("id", "-un").stdout.strip()
    first = story(cell, "1")
    assert [(s, t) for _, s, t in first] == [
        (f"submit by {user}", "new -> pending"),
        ("pass", "pending -> transferring (all.q@host1)"),
        ("timer start", "transferring -> running (all.q@host1)"),
    ]
    second = story(cell, "2")
    assert [t for _, _, t in second] == [
        "new -> pending (tasks 1-3:1)",
        "hold o set",
        "hold o removed",
    ]
    for lines in (first, second):
        assert [i for i, _, _ in lines] == sorted({i for i, _, _ in lines})
    ids = [i for i, _, _ in first + second]
    assert len(ids) == len(set(ids))
    cells.stop(cell)
    cell.start()
    assert story(cell, "1") == first
    assert story(cell, "2") == second
    assert cell.run("qalter", "-N", "renamed", "2").returncode == 0
    last = story(cell, "2")[-1]
    assert last[2] == "altered N"
    assert last[0] > max(ids)
