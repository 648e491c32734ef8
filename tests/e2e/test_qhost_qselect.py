"""qhost and qselect end to end: the installed commands against a live cell, with running jobs."""

from __future__ import annotations

import getpass
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(120)

NS = "{http://gridengine.sunsource.net/61/qhost}"
HEADER = "HOSTNAME                ARCH         NCPU  LOAD  MEMTOT  MEMUSE  SWAPTO  SWAPUS"


def running_host(cell: RunningCell, job: str, timeout: float = 30.0) -> str:
    """The host whose qhost -j block lists the job, once it runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        host = ""
        for line in cell.run("qhost", "-j").stdout.splitlines():
            if line.startswith("host"):
                host = line.split()[0]
            elif line.split()[:1] == [job] and " r " in line:
                return host
        time.sleep(0.2)
    pytest.fail(f"job {job} did not run within {timeout}s")


def test_qhost_shows_the_load_queue_and_line_of_a_running_job(served: RunningCell) -> None:
    """A running 'sleep 30' puts load 1.00 on its host, 0/1/4 on its queue and a MASTER line."""
    job = served.run("qsub", "-terse", "-N", "busy", "-b", "y", "sleep", "30").stdout.strip()
    host = running_host(served, job)
    plain = served.run("qhost")
    assert plain.returncode == 0, plain.stderr
    lines = plain.stdout.splitlines()
    assert lines[:2] == [HEADER, "-" * 79]
    assert lines[2].split() == ["global", "-", "-", "-", "-", "-", "-", "-"]
    assert next(line for line in lines if line.startswith(host + " ")).split()[1:4] == [
        "lx-amd64",
        "4",
        "1.00",
    ]
    full = served.run("qhost", "-q", "-j", "-h", host).stdout.splitlines()
    assert full[4] == "   all.q                BIP   0/1/4         "
    fields = full[5].split()
    assert (fields[0], fields[2], fields[4], fields[-1]) == (job, "busy", "r", "MASTER")
    assert served.run("qhost", "-u", "nobody", "-h", host).stdout.splitlines()[4:] == []
    mine = served.run("qhost", "-u", getpass.getuser(), "-h", host).stdout.splitlines()
    assert [line.split()[0] for line in mine[4:]] == ["job-ID", "-" * 94, job]
    doc = ET.fromstring(served.run("qhost", "-xml", "-j", "-h", host).stdout)
    jobs = [j.get("name") for j in doc.iter(f"{NS}job")]
    assert jobs == [job]


def test_qselect_prints_instances_for_scripts(shared_served: RunningCell) -> None:
    """qselect lists queue instances one per line; narrowing options select the matching ones."""
    everything = shared_served.run("qselect")
    assert everything.returncode == 0, everything.stderr
    assert everything.stdout.split() == [f"all.q@host{i}" for i in range(1, 5)]
    one = shared_served.run("qselect", "-l", "h=host2", "-pe", "mpi")
    assert (one.returncode, one.stdout) == (0, "all.q@host2\n")


def test_qselect_ends_with_1_when_nothing_is_left(shared_served: RunningCell) -> None:
    """No instance left: exit 1; after -q the reason is given, after -l nothing is printed."""
    by_queue = shared_served.run("qselect", "-q", "nope.q")
    assert by_queue.returncode == 1
    assert by_queue.stderr == "no queues remaining after -q queue selection\n"
    by_resource = shared_served.run("qselect", "-l", "arch=sol-sparc64")
    assert (by_resource.returncode, by_resource.stdout, by_resource.stderr) == (1, "", "")


def test_qhost_help_and_bad_input(shared_served: RunningCell) -> None:
    """-help: version line first, exit 1; a bad option or resource: Grid Engine's error, exit 1."""
    helped = shared_served.run("qhost", "-help")
    assert helped.returncode == 1
    assert helped.stdout.startswith("GE 6.2u5\nusage: qhost [options]\n")
    bogus = shared_served.run("qhost", "-bogus")
    assert bogus.returncode == 1
    assert bogus.stderr.startswith("GE 6.2u5\nusage: qhost [options]\n")  # usage first
    assert bogus.stderr.endswith('\nERROR! invalid option argument "-bogus"\n')
    unknown = shared_served.run("qhost", "-l", "nosuch=1")
    assert (unknown.returncode, unknown.stderr) == (1, 'unknown resource "nosuch"\n')
    selected = shared_served.run("qhost", "-l", "arch=lx-amd64", "-F", "arch")
    lines = selected.stdout.splitlines()
    assert [line.split()[0] for line in lines[2::2]] == [f"host{i}" for i in range(1, 5)]
    assert lines[3] == "    Host Resource(s):      hl:arch=lx-amd64"


def test_an_eq_attribute_on_host_and_queue_is_judged_by_the_host(
    served: RunningCell, tmp_path: Path
) -> None:
    """Grid Engine's testsuite issue 1977: a BOOL ``==`` complex t, host1 t=false, all.q
    t=true. qselect and qstat -l compare the uppermost level's value of an == attribute,
    so ``-l t=false`` selects all.q@host1 and ``-l t=true`` every instance but it."""
    complexes = served.run("qconf", "-sc", check=True).stdout
    path = tmp_path / "complexes"
    path.write_text(complexes + "t  t  BOOL  ==  YES  NO  0  0\n")
    served.run("qconf", "-Mc", str(path), check=True)
    served.run("qconf", "-mattr", "exechost", "complex_values", "t=false", "host1", check=True)
    served.run("qconf", "-mattr", "queue", "complex_values", "t=true", "all.q", check=True)
    false = served.run("qselect", "-l", "t=false")
    assert (false.returncode, false.stdout) == (0, "all.q@host1\n")
    true = served.run("qselect", "-l", "t=true").stdout.split()
    assert true == ["all.q@host2", "all.q@host3", "all.q@host4"]
    listed = served.run("qstat", "-f", "-l", "t=false").stdout.splitlines()
    assert [line.split()[0] for line in listed[2:]] == ["all.q@host1"]
