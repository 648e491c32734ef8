"""The installed qstat against a daemon: -s flags, -j layouts and XML, prior, finished jobs."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)


def job_ids(cell: RunningCell, *argv: str) -> list[int]:
    out = cell.run("qstat", *argv, check=True).stdout.splitlines()[2:]
    return [int(line.split()[0]) for line in out]


def wait_for(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_qstat_s_j_and_prior_as_grid_engine_shows_them(served: RunningCell) -> None:
    """-s hu/hj/a select by hold, -j alone summarises, -j N -xml is XML, prior is 0.55500."""
    served.run("qsub", "-h", "-b", "y", "sleep", "100", check=True)
    served.run("qsub", "-hold_jid", "1", "-b", "y", "sleep", "1", check=True)
    served.run("qsub", "-b", "y", "sleep", "100", check=True)
    assert job_ids(served, "-s", "hu") == [1]
    assert job_ids(served, "-s", "hj") == [2]
    assert sorted(job_ids(served, "-s", "a")) == [1, 2, 3]
    bad = served.run("qstat", "-s", "x")
    assert bad.returncode == 1
    # qstat.c prints qstat_usage() before the answer
    assert bad.stderr.startswith("GE 6.2u5\nusage: qstat")
    assert bad.stderr.endswith("\nERROR! wrong argument to -s option\n")
    listing = served.run("qstat", "-s", "hu", check=True).stdout.splitlines()
    assert listing[2].split()[1] == "0.55500"

    summary = served.run("qstat", "-j", check=True).stdout
    assert "Jobs dropped because of hold state\n\t1\n" in summary
    assert "Job dropped because of job dependencies\n\t2\n" in summary

    xml = served.run("qstat", "-j", "1", "-xml", check=True).stdout
    root = ET.fromstring(xml.split("\n", 1)[1])
    assert root.tag == "detailed_job_info"
    assert root.findtext("djob_info/qmaster_response/JB_job_number") == "1"

    wait_for(lambda: job_ids(served, "-s", "r") == [3], "job 3 never ran")
    detail = served.run("qstat", "-j", "3", check=True).stdout
    assert "\nusage    1:                 cpu=" in detail
    assert "jobshare:                   0\n" in detail
    held = served.run("qstat", "-j", "1", check=True).stdout
    assert "scheduling info:            Job is in hold state\n" in held


def test_qstat_s_z_shows_a_job_that_just_finished(served: RunningCell) -> None:
    """A finished job leaves the default listing but shows with -s z in state z."""
    served.run("qsub", "-b", "y", "sleep", "1", check=True)
    wait_for(lambda: job_ids(served) == [], "job 1 never finished")
    rows = served.run("qstat", "-s", "z", check=True).stdout.splitlines()[2:]
    assert [r.split()[:5:4] for r in rows] == [["1", "z"]]
