"""The installed qstat's further options against a live cell: columns, -r, -F, -g, queue selection."""

from __future__ import annotations

import json
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(120)


def _running(cell: RunningCell, n: int) -> None:
    deadline = time.monotonic() + 20
    while True:
        rows = cell.run("qstat", "-s", "r", check=True).stdout.splitlines()[2:]
        if len(rows) >= n:
            return
        assert time.monotonic() < deadline, "jobs never ran"
        time.sleep(0.2)


def test_qstat_job_columns_and_requirements(served: RunningCell) -> None:
    """-pri/-urg/-ext add Grid Engine's columns, -r the requirement lines, -json the same data."""
    served.run("qsub", "-b", "y", "-p", "-100", "-N", "longjobname1", "-l", "h_vmem=1G",
               "-q", "all.q", "sleep", "100", check=True)  # fmt: skip
    _running(served, 1)
    pri = served.run("qstat", "-pri", check=True).stdout.splitlines()
    assert pri[0].startswith("job-ID  prior   nurg    npprior ntckts   ppri name")
    assert pri[2].split()[5] == "-100"
    urg = served.run("qstat", "-urg", check=True).stdout.splitlines()
    assert " urg      rrcontr  wtcontr  dlcontr  name" in urg[0]
    ext = served.run("qstat", "-ext", check=True).stdout.splitlines()
    assert "project          department state cpu        mem     io      tckts" in ext[0]
    assert "defaultdepartment" not in ext[2]
    assert "defaultdep" in ext[2]
    req = served.run("qstat", "-r", check=True).stdout
    assert "       Full jobname:     longjobname1\n" in req
    assert "       Master Queue:     all.q@" in req
    assert "       Hard Resources:   h_vmem=1G (0.000000)\n" in req
    assert "       Hard requested queues: all.q\n" in req
    doc = json.loads(served.run("qstat", "-r", "-pri", "-json", check=True).stdout)
    job = doc["jobs"][0]
    assert job["ppri"] == -100
    assert job["requirements"]["full_name"] == "longjobname1"
    xml = served.run("qstat", "-urg", "-r", "-xml", check=True).stdout
    root = ET.fromstring(xml.split("\n", 1)[1])
    assert root.findtext(".//job_list/full_job_name") == "longjobname1"
    assert root.find(".//job_list/JB_urg") is not None


def test_qstat_queue_resources_and_cluster_summary(served: RunningCell) -> None:
    """-F lists each queue's values with their hl/qc/qf prefixes; -g c sums per cluster queue."""
    out = served.run("qstat", "-F", "mem_free,slots,h_rt", check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("queuename")
    assert "\thl:mem_free=" in out
    assert "\tqc:slots=" in out
    assert "\tqf:h_rt=infinity" in out
    cq = served.run("qstat", "-g", "c", check=True).stdout.splitlines()
    assert cq[0].split() == ["CLUSTER", "QUEUE", "CQLOAD", "USED", "RES", "AVAIL", "TOTAL",
                             "aoACDS", "cdsuE"]  # fmt: skip
    assert cq[2].split()[0] == "all.q"
    xml = served.run("qstat", "-g", "c", "-xml", check=True).stdout
    assert "<cluster_queue_summary>" in xml
    doc = json.loads(served.run("qstat", "-F", "slots", "-json", check=True).stdout)
    assert doc["queues"][0]["resources"] == [{"dom": "qc", "name": "slots", "value": "4"}]


def test_qstat_queue_selection_and_grouping(served: RunningCell) -> None:
    """-q/-ne/-qs/-pe/-U/-l select queue instances; -g d splits array tasks; -g t shows MASTER."""
    served.run("qsub", "-b", "y", "sleep", "100", check=True)
    served.run("qsub", "-b", "y", "-h", "-t", "1-3", "sleep", "1", check=True)
    _running(served, 1)
    full = served.run("qstat", "-f", check=True).stdout
    host = next(x.split()[0] for x in full.splitlines() if x.startswith("all.q@") and "0/1/" in x)
    only = served.run("qstat", "-f", "-q", host, check=True).stdout
    assert only.count("all.q@") == 1
    assert served.run("qstat", "-f", "-ne", check=True).stdout.count("all.q@") == 1
    none = served.run("qstat", "-q", "none.q", "-f", check=True)
    assert "all.q@" not in none.stdout
    assert none.stderr == "no queues remaining after -q queue selection\n"
    assert served.run("qstat", "-qs", "o", check=True).stdout.count("all.q@") == 0
    assert served.run("qstat", "-f", "-pe", "nosuchpe", check=True).stdout.count("all.q@") == 0
    assert served.run("qstat", "-f", "-U", "root", check=True).stdout.count("all.q@") == 4
    assert served.run("qstat", "-f", "-l", "arch=nosuch", check=True).stdout.count("all.q@") == 0
    tasks = served.run("qstat", "-g", "d", "-s", "p", check=True).stdout.splitlines()[2:]
    assert [line.split()[-1] for line in tasks] == ["1", "2", "3"]
    master = served.run("qstat", "-g", "t", "-s", "r", check=True).stdout.splitlines()
    assert master[0].split()[-2:] == ["master", "ja-task-ID"]
    assert master[2].split()[-1] == "MASTER"
    task = served.run("qstat", "-t", "-s", "r", check=True).stdout.splitlines()
    assert task[0].rstrip().endswith("task-ID state cpu        mem     io      stat failed")
    bad = served.run("qstat", "-qs", "x")
    assert bad.returncode == 1


def test_qstat_into_a_closed_pipe_ends_quietly_as_grid_engines(served: RunningCell) -> None:
    """``qstat -g d | head -1``: once the reader is gone qstat dies of SIGPIPE, like the C
    command, with nothing on stderr (no Python traceback)."""
    served.run("qsub", "-h", "-t", "1-3000", "-b", "y", "true", check=True)
    with subprocess.Popen(
        ["qstat", "-g", "d"], env=served.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        assert proc.stdout.readline().startswith(b"job-ID")
        proc.stdout.close()
        stderr = proc.stderr.read()
        code = proc.wait(timeout=30)
    assert stderr == b""
    assert code == -signal.SIGPIPE
