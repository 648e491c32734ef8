"""qacct end to end: the installed command on a live cell's accounting file and on -f FILE."""

from __future__ import annotations

import getpass
import shutil
import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(120)


def submit(cell: RunningCell, *argv: str) -> str:
    result = cell.run("qsub", "-terse", *argv)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split(".")[0]


def wait_accounted(cell: RunningCell, job: str, blocks: int, timeout: float = 60.0) -> str:
    """qacct -j JOB's output once the job's tasks have all ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = cell.run("qacct", "-j", job)
        if result.returncode == 0 and result.stdout.count("=" * 62 + "\nqname") == blocks:
            return result.stdout
        time.sleep(0.3)
    pytest.fail(f"job {job} was not accounted within {timeout}s")


def field(block: str, name: str) -> str:
    for line in block.splitlines():
        if line.startswith(f"{name} ") and len(line) > 13:
            return line[13:].rstrip()
    raise AssertionError(f"no {name} in {block!r}")


def test_qacct_reports_ended_jobs_of_a_live_cell(served: RunningCell, tmp_path: Path) -> None:
    """After jobs end, qacct shows their blocks, the totals, groups, and reads a copy with -f."""
    single = submit(served, "-N", "one", "-b", "y", "sleep", "1")
    array = submit(served, "-t", "1-2", "-b", "y", "sleep", "1")
    out = wait_accounted(served, single, 1)
    assert field(out, "jobnumber") == single
    assert field(out, "jobname") == "one"
    assert field(out, "owner") == getpass.getuser()
    assert field(out, "taskid") == "undefined"
    assert field(out, "failed") == "0"
    assert field(out, "exit_status") == "0"
    assert int(field(out, "ru_wallclock")) >= 1
    tasks = wait_accounted(served, array, 2)
    assert sorted(field(b, "taskid") for b in tasks.split("=" * 62)[1:]) == ["1", "2"]

    summary = served.run("qacct")
    assert summary.returncode == 0, summary.stderr
    lines = summary.stdout.splitlines()
    assert lines[0] == "Total System Usage"
    assert int(lines[3].split()[0]) >= 3  # three tasks of at least a second each

    owners = served.run("qacct", "-o").stdout.splitlines()
    assert owners[2].split()[0] == getpass.getuser()

    queues = served.run("qacct", "-q", "all.q@@allhosts")
    assert queues.returncode == 0, queues.stderr
    assert queues.stdout.splitlines()[0].startswith("HOST")
    assert all(row.split()[1] == "all.q" for row in queues.stdout.splitlines()[2:])

    host = field(out, "hostname")
    by_host = served.run("qacct", "-h", host).stdout.splitlines()[2].split()[1:]
    by_request = served.run("qacct", "-l", f"hostname={host},mem_total=1G")
    assert by_request.returncode == 0, by_request.stderr
    assert by_request.stdout.splitlines()[3].split() == by_host
    none = served.run("qacct", "-l", "arch=no-such-arch")
    assert (none.returncode, len(none.stdout.splitlines())) == (0, 3)
    unknown = served.run("qacct", "-l", "nosuch=1")
    assert (unknown.returncode, unknown.stderr) == (1, 'error: unknown resource "nosuch"\n')

    copy = tmp_path / "accounting.copy"
    shutil.copy(served.cell.common / "accounting", copy)
    assert served.run("qacct", "-f", str(copy)).stdout == summary.stdout
    again = served.run("qacct", "-f", str(copy), "-j", single)
    assert again.stdout == out


def test_qacct_errors_and_exit_codes(served: RunningCell, tmp_path: Path) -> None:
    """Unknown jobs, bad options and a missing file end as Grid Engine's qacct ends."""
    job = submit(served, "-b", "y", "sleep", "1")
    wait_accounted(served, job, 1)
    missing = served.run("qacct", "-j", "9999999")
    assert (missing.returncode, missing.stderr) == (1, "error: job id 9999999 not found\n")
    bad = served.run("qacct", "-bogus")
    assert bad.returncode == 1
    assert bad.stderr.startswith("GE 6.2u5\nusage: qacct [options]\n")
    helped = served.run("qacct", "-help")
    assert (helped.returncode, helped.stdout) == (0, bad.stderr)
    gone = served.run("qacct", "-f", str(tmp_path / "nothing"))
    assert gone.returncode == 1
    assert gone.stdout == "no jobs running since startup\n"
    assert gone.stderr == f"{tmp_path / 'nothing'}: No such file or directory\n"
    nogroup = served.run("qacct", "-q", "all.q@@nosuchgroup")
    assert nogroup.returncode == 1
    assert nogroup.stderr == "No queues remaining after -q queue selection\n"


def test_requests_ignore_records_of_queues_that_are_gone(
    served: RunningCell, tmp_path: Path
) -> None:
    """-l on a file from elsewhere: records of queue instances the cell lacks are counted as ignored."""
    from qmaster.events.records import Acct

    here = Acct(0, "all.q", "host1", "g", "u", "a", 1, "sge", 0, 100, 101, 111, 0, 0, 10)
    gone = Acct(0, "gone.q", "host1", "g", "u", "b", 2, "sge", 0, 100, 101, 131, 0, 0, 30)
    path = tmp_path / "accounting"
    path.write_text(f"{here.accounting_line()}\n{gone.accounting_line()}\n")
    result = served.run("qacct", "-f", str(path), "-l", "arch=lx-amd64")
    assert result.returncode == 0
    assert result.stderr == (
        "warning: 1 jobs ignored for accounting. Jobs master queue no longer exists.\n"
    )
    assert result.stdout.splitlines()[0] == ""
    assert result.stdout.splitlines()[4].split()[0] == "10"
