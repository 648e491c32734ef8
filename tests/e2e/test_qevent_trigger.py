"""qevent's Grid Engine modes against a live cell: -trigger scripts and -ts lines."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)


def submit(cell: RunningCell, *argv: str) -> str:
    result = cell.run("qsub", "-terse", *argv)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split(".")[0]


def wait_for(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail("timed out")
        time.sleep(0.1)


def test_trigger_scripts_see_jobs_and_tasks_end(minige_cell: RunningCell, tmp_path: Path) -> None:
    """qevent -trigger JB_END/JB_TASK_END runs the script with event, job id and task id."""
    calls = tmp_path / "calls.txt"
    script = tmp_path / "on_end.sh"
    script.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    script.chmod(0o755)
    proc = subprocess.Popen(
        ["qevent", "-trigger", "JB_END", str(script), "-trigger", "JB_TASK_END", str(script)],
        env=minige_cell.env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(0.5)  # let the subscription register
        single = submit(minige_cell, "-b", "y", "sleep", "1")
        array = submit(minige_cell, "-t", "1-3", "-b", "y", "sleep", "1")

        def lines() -> list[str]:
            return calls.read_text().splitlines() if calls.exists() else []

        wait_for(lambda: sum(line.startswith("JB_END") for line in lines()) == 2)
        found = lines()
        assert f"JB_END {single} 1" in found
        mine = [line.split() for line in found if line.split()[1] == array]
        assert sorted(int(task) for _, _, task in mine) == [1, 2, 3]
        assert sorted(event for event, _, _ in mine) == ["JB_END", "JB_TASK_END", "JB_TASK_END"]
        assert proc.poll() is None  # it goes on watching
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_testsuite_mode_prints_a_jobs_life(minige_cell: RunningCell) -> None:
    """qevent -ts prints JOB_ADD, JOB_START, JOB_FINISH and JOB_DEL lines for a job."""
    proc = subprocess.Popen(
        ["qevent", "-ts"], env=minige_cell.env, stdout=subprocess.PIPE, text=True
    )
    try:
        time.sleep(0.5)  # let the subscription register
        job = submit(minige_cell, "-b", "y", "sleep", "0.2")
        assert proc.stdout is not None
        seen: list[str] = []
        while not any(line.startswith(f"JOB_DEL ({job}.") for line in seen):
            seen.append(proc.stdout.readline().rstrip("\n"))
        state = proc.stdout.readline()  # the counters after the job left
        events = [line.split(" (")[0] for line in seen if f"({job}." in line]
        assert events == ["JOB_ADD", "JOB_START", "JOB_FINISH", "JOB_DEL"]
        assert seen[-1].startswith(f"JOB_DEL ({job}.1:ECL_TIME=")
        assert state.startswith("ECL_STATE (jobs_running=0:jobs_registered=0:ECL_TIME=")
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
