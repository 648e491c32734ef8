"""qacct on small accounting files: Grid Engine 6.2u5's layouts, filters, texts and exit codes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from clients.acct.texts import usage_text
from clients.qacct import run
from qmaster.events.records import Acct

T0 = 1_700_000_000  # Tue Nov 14 22:13:20 2023 UTC

BASE = Acct(
    0, "all.q", "host1", "staff", "alice", "sleep", 7, "sge", 0,
    T0, T0 + 10, T0 + 18, 0, 0, 8,
    ru_utime=0.5, ru_stime=0.25, cpu=1.25, mem=0.5, io=0.125, iow=0.0625, maxvmem=2.5 * 1024**3,
)  # fmt: skip


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Times print in local time: pin it to UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def write(path: Path, *records: Acct, extra: str = "") -> Path:
    lines = "".join(rec.accounting_line() + "\n" for rec in records)
    path.write_text("# Version: 6.2u5\n# \n" + lines + extra)
    return path


def qacct(*argv: str) -> tuple[int, str, str]:
    out: list[str] = []
    err: list[str] = []
    code = run(list(argv), out.append, err.append)
    return code, "".join(out), "".join(err)


@pytest.fixture
def acct(tmp_path: Path) -> Path:
    return write(
        tmp_path / "accounting",
        BASE,
        replace(BASE, job_number=8, owner="bob", group="users", hostname="host2", slots=4,
                granted_pe="mpi", ru_wallclock=100, failed=100, exit_status=137,
                task_number=3, arid=12, job_name="sleeper"),
        replace(BASE, job_number=9, qname="big.q", job_name="other", start_time=T0 + 5000,
                project="proj1", department="dept1"),
    )  # fmt: skip


GOLDEN_JOB_7 = """\
==============================================================
qname        all.q               
hostname     host1               
group        staff               
owner        alice               
project      NONE                
department   defaultdepartment   
jobname      sleep               
jobnumber    7                   
taskid       undefined
account      sge                 
priority     0                   
qsub_time    Tue Nov 14 22:13:20 2023
start_time   Tue Nov 14 22:13:30 2023
end_time     Tue Nov 14 22:13:38 2023
granted_pe   NONE                
slots        1                   
failed       0    
exit_status  0                   
ru_wallclock 8            
ru_utime     0.500        
ru_stime     0.250        
ru_maxrss    0                   
ru_ixrss     0                   
ru_ismrss    0                   
ru_idrss     0                   
ru_isrss     0                   
ru_minflt    0                   
ru_majflt    0                   
ru_nswap     0                   
ru_inblock   0                   
ru_oublock   0                   
ru_msgsnd    0                   
ru_msgrcv    0                   
ru_nsignals  0                   
ru_nvcsw     0                   
ru_nivcsw    0                   
cpu          1.250        
mem          0.500             
io           0.125             
iow          0.062             
maxvmem      2.500G
arid         undefined
"""  # noqa: W291

TITLE = (
    "    WALLCLOCK         UTIME         STIME           CPU             MEMORY"
    "                 IO                IOW"
)


def test_job_block_is_grid_engines_layout(acct: Path) -> None:
    """qacct -j N prints Grid Engine's block for the job, trailing blanks included, and exits 0."""
    assert qacct("-f", str(acct), "-j", "7") == (0, GOLDEN_JOB_7, "")


def test_failed_text_task_and_ar_of_a_block(acct: Path) -> None:
    """A failed job shows its code with Grid Engine's description; task and AR ids show."""
    code, out, _ = qacct("-f", str(acct), "-j", "8")
    assert code == 0
    assert "failed       100 : assumedly after job\n" in out
    assert "exit_status  137                 \n" in out
    assert "taskid       3                   \n" in out
    assert "arid         12                  \n" in out
    assert "granted_pe   mpi                 \n" in out


def test_summary_is_the_total_system_usage_table(acct: Path) -> None:
    """Without options qacct prints the Total System Usage table of every record."""
    code, out, err = qacct("-f", str(acct))
    assert (code, err) == (0, "")
    row = (
        "          116         1.500         0.750         3.750"
        "              1.500              0.375              0.188"
    )
    assert out == f"Total System Usage\n{TITLE}\n{'=' * 112}\n{row}\n"


def test_job_name_pattern_shows_every_match(acct: Path) -> None:
    """-j with a pattern shows the block of every job whose name matches."""
    code, out, _ = qacct("-f", str(acct), "-j", "sleep*")
    assert code == 0
    assert out.count("=" * 62) == 2
    assert "jobnumber    9" not in out


def test_unknown_job_is_an_error(acct: Path) -> None:
    """An unknown job id or name: Grid Engine's error on stderr, exit 1."""
    assert qacct("-f", str(acct), "-j", "99") == (1, "", "error: job id 99 not found\n")
    assert qacct("-f", str(acct), "-j", "nosuch") == (1, "", "error: job name nosuch not found\n")


def test_tasks_select_blocks_and_need_j(acct: Path) -> None:
    """-t picks tasks of -j; without -j it is refused with the usage; no task: its error."""
    code, out, _ = qacct("-f", str(acct), "-j", "8", "-t", "1-5:2")
    assert code == 0
    assert "jobnumber    8" in out
    code, out, err = qacct("-f", str(acct), "-j", "8", "-t", "2")
    assert (code, out, err) == (1, "", "error: Job-array tasks 8.2-2:1 not found\n")
    code, out, err = qacct("-f", str(acct), "-t", "2")
    assert code == 1
    assert err.startswith("error: -t option requires -j option\nGE 6.2u5\n")
    code, _, err = qacct("-f", str(acct), "-j", "8", "-t", "x")
    assert code == 1
    assert err.startswith("ERROR! invalid list of task id ranges: x\n")


def test_owner_grouping_has_grid_engines_columns(acct: Path) -> None:
    """-o prints one row per owner, in order, under an OWNER column as wide as Grid Engine's."""
    code, out, _ = qacct("-f", str(acct), "-o")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "OWNER " + TITLE
    assert lines[1] == "=" * (6 + 112)
    assert lines[2].startswith("alice " + f"{16:13d} ")
    assert lines[3].startswith("bob   " + f"{100:13d} ")
    assert len(lines) == 4


def test_named_owner_filters(acct: Path) -> None:
    """-o NAME sums only that owner's records and shows the name in its column."""
    code, out, _ = qacct("-f", str(acct), "-o", "bob")
    assert code == 0
    assert out.splitlines()[2].startswith("bob   " + f"{100:13d} ")


def test_queue_names_group_by_host_and_queue(acct: Path) -> None:
    """-q QUEUE keeps that queue's records and groups them by host and queue, as Grid Engine does."""
    code, out, _ = qacct("-f", str(acct), "-q", "all.q")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("HOST  CLUSTER QUEUE  ")
    assert [line.split()[:2] for line in lines[2:]] == [["host1", "all.q"], ["host2", "all.q"]]


def test_slots_pe_and_ar_grouping(acct: Path) -> None:
    """-pe, -slots and -ar group by PE, slot count and AR id."""
    code, out, _ = qacct("-f", str(acct), "-pe", "-slots", "-ar")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("PE   SLOTS AR        WALLCLOCK")
    assert lines[2].startswith("NONE     1     0 ")
    assert lines[3].startswith("mpi      4    12 ")


def test_project_department_and_group_filters(acct: Path) -> None:
    """-P, -D and -g with a value keep only matching records."""
    for argv in (("-P", "proj1"), ("-D", "dept1"), ("-g", "users")):
        code, out, _ = qacct("-f", str(acct), *argv)
        assert code == 0
        assert out.splitlines()[2].split()[1] == ("100" if argv[0] == "-g" else "8")


def test_time_window_selects_by_start_time(acct: Path) -> None:
    """-b and -e bound the start time; -d counts days from -b."""
    code, out, _ = qacct("-f", str(acct), "-b", "202311142300")
    assert code == 0
    assert out.splitlines()[3].split()[0] == "8"
    code, out, _ = qacct("-f", str(acct), "-e", "202311142300")
    assert out.splitlines()[3].split()[0] == "108"
    code, out, _ = qacct("-f", str(acct), "-b", "202311140000", "-d", "1")
    assert out.splitlines()[3].split()[0] == "116"


def test_bare_j_lists_every_job_then_the_table(acct: Path) -> None:
    """-j without an argument prints every block and then the usage table."""
    code, out, _ = qacct("-f", str(acct), "-j")
    assert code == 0
    assert out.splitlines().count("=" * 62) == 3
    assert "Total System Usage" in out


def test_nothing_used_prints_only_titles(tmp_path: Path) -> None:
    """With a total wallclock of 0 Grid Engine prints the titles and no row."""
    path = write(tmp_path / "a", replace(BASE, ru_wallclock=0))
    assert qacct("-f", str(path)) == (0, f"Total System Usage\n{TITLE}\n{'=' * 112}\n", "")


def test_invalid_lines_are_reported_and_skipped(tmp_path: Path) -> None:
    """A line that ends too early is reported with its record number; the others still count."""
    path = write(tmp_path / "a", BASE, extra="all.q:host1:staff:alice:sleep\n")
    code, out, err = qacct("-f", str(path))
    assert code == 0
    assert err == "error: ignoring invalid entry in line 2\n"
    assert out.splitlines()[3].split()[0] == "8"


def test_category_with_colons_keeps_the_later_fields(tmp_path: Path) -> None:
    """A category holding colons does not shift iow, maxvmem or the AR id."""
    path = write(tmp_path / "a", replace(BASE, category="-l h_rt=0:10:0 -q all.q", arid=5))
    code, out, _ = qacct("-f", str(path), "-j", "7")
    assert code == 0
    assert "iow          0.062" in out
    assert "maxvmem      2.500G" in out
    assert "arid         5 " in out


def test_help_and_bad_options(acct: Path) -> None:
    """-help prints the usage with the version line on stdout (0); bad input prints it on stderr (1)."""
    assert qacct("-help") == (0, usage_text(), "")
    assert usage_text().startswith("GE 6.2u5\nusage: qacct [options]\n [-ar [ar_id]]   ")
    assert qacct("-f", str(acct), "-x") == (1, "", usage_text())
    assert qacct("-f", str(acct), "-b", "notadate") == (1, "", usage_text())
    assert qacct("-f", str(acct), "-d") == (1, "", usage_text())
    code, _, err = qacct("-f", str(acct), "-ar", "x")
    assert code == 1
    assert err.startswith("ERROR! invalid advance reservation id, must be an unsigned integer\n")


def test_missing_file(tmp_path: Path) -> None:
    """A missing accounting file: the system's error, then no jobs running since startup, exit 1."""
    path = tmp_path / "none"
    assert qacct("-f", str(path)) == (
        1,
        "no jobs running since startup\n",
        f"{path}: No such file or directory\n",
    )


def test_fields_read_back_as_minige_writes_them(tmp_path: Path) -> None:
    """Every field qacct shows is the one minige's writer put in that place."""
    rec = replace(BASE, priority=5, ru_maxrss=4096.0, ru_minflt=11, ru_nivcsw=3, slots=2)
    code, out, _ = qacct("-f", str(write(tmp_path / "a", rec)), "-j", "7")
    assert code == 0
    assert "priority     5 " in out
    assert "ru_maxrss    4096 " in out
    assert "ru_minflt    11 " in out
    assert "ru_nivcsw    3 " in out
    assert "slots        2 " in out
