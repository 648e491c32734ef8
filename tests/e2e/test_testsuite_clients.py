"""Scenarios of Grid Engine's own testsuite (system_tests/clients: qsub, qconf), run with
the installed commands against a live cell, as its expect scripts run them."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.localcells import wait_file

pytestmark = pytest.mark.timeout(120)

LONG = "@" + "really" * 18 + "longname1"
MEDIUM = "@thisisareallyreallyreallyreallyreallylongname0"
GROUP = "@qconfbackslash34"
SHORT = ["@thisisaveryshortname", "@thisisareallyshortname", "@thisisareallyshortname2"]


def _qconf(cell: RunningCell, *args: str, env: dict[str, str] | None = None) -> str:
    done = cell.run("qconf", *args, env=env or {})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("options", [["-dc", "myvar,myvar2"], ["-ac", "a=1", "-dc", "a"]])
def test_qsub_dc_leaves_a_job_without_context(
    shared_served: RunningCell, options: list[str]
) -> None:
    """check_option_dc: -dc on a job with no (more) context submits it; qstat -j shows none."""
    done = shared_served.run("qsub", "-terse", "-h", *options, "-b", "y", "sleep", "5")
    assert done.returncode == 0, done.stderr
    job = done.stdout.strip()
    shown = shared_served.run("qstat", "-j", job).stdout
    assert "job_number:" in shown
    assert "context:" not in shown
    shared_served.run("qdel", job)


def test_long_host_list_is_broken_and_whole_with_sge_single_line(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qconf_backslash_space_output_check: -shgrp prints "hostlist " unaligned and breaks
    before column 80; the added message quotes 100 characters of a longer name."""
    members = [*SHORT, MEDIUM, LONG]
    files = []
    for i, (name, hosts) in enumerate([(m, ["NONE"]) for m in members] + [(GROUP, members)]):
        (tmp_path / f"g{i}").write_text(f"group_name {name}\nhostlist {' '.join(hosts)}\n")
        files += ["-Ahgrp", str(tmp_path / f"g{i}")]
    added = _qconf(shared_served, *files).splitlines()
    assert added[4].endswith(f' added "{LONG[:100]}" to host group list')
    assert _qconf(shared_served, "-shgrp", GROUP) == (
        f"group_name {GROUP}\n"
        f"hostlist {SHORT[0]} {SHORT[1]} \\\n"
        f"         {SHORT[2]} \\\n"
        f"         {MEDIUM} \\\n"
        f"         {LONG}\n"
    )
    single = _qconf(shared_served, "-shgrp", GROUP, env={"SGE_SINGLE_LINE": "1"})
    assert single.splitlines()[1] == "hostlist " + " ".join(members)
    _qconf(shared_served, *(w for name in [GROUP, *members] for w in ("-dhgrp", name)))


def test_complex_values_break_after_commas(shared_served: RunningCell, tmp_path: Path) -> None:
    """qconf_backslash_comma_output_check: -se global breaks complex_values after a comma
    that leaves room for " \\"; complex entries removed by -Mc are "removed from complex list";
    an -Mc that changes nothing says so."""
    table = _qconf(shared_served, "-sc")
    names = [f"complexvar{i}" for i in range(1, 6)]
    rows = "".join(f"{n} cv{i} RESTRING == YES NO NONE 0\n" for i, n in enumerate(names, 1))
    (tmp_path / "c").write_text(table + rows)
    _qconf(shared_served, "-Mc", str(tmp_path / "c"))
    values = [f"{n}=".ljust(w, "0") for n, w in zip(names, (17, 18, 20, 37, 100), strict=True)]
    _qconf(shared_served, "-rattr", "exechost", "complex_values", ",".join(values), "global")
    shown = _qconf(shared_served, "-se", "global").splitlines()[2:6]
    indent = " " * 22
    assert shown == [
        f"complex_values        {values[0]},{values[1]}, \\",
        f"{indent}{values[2]}, \\",
        f"{indent}{values[3]}, \\",
        f"{indent}{values[4]}",
    ]
    _qconf(shared_served, "-rattr", "exechost", "complex_values", "NONE", "global")
    (tmp_path / "c").write_text(table)
    removed = _qconf(shared_served, "-Mc", str(tmp_path / "c")).splitlines()
    assert [line.split(" ", 1)[1] for line in removed] == [
        f'removed "{n}" from complex list' for n in names
    ]
    unchanged = _qconf(shared_served, "-Mc", str(tmp_path / "c"))  # issue 1473's summary line
    assert unchanged == "Complex attribute configuration has not been changed\n"


def test_qsub_help_in_an_options_file(shared_served: RunningCell, tmp_path: Path) -> None:
    """check_option_@: -help read from a -@ file prints qsub's usage and submits nothing;
    a -@ file naming itself is refused, not read until the stack runs out."""
    (tmp_path / "commandfile.txt").write_text("-help\n")
    done = shared_served.run("qsub", "-@", str(tmp_path / "commandfile.txt"), "-b", "y", "true")
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == [
        "GE 6.2u5",
        "usage: qsub [options]",
    ]
    (tmp_path / "loop").write_text(f"-@ {tmp_path / 'loop'}\n")
    done = shared_served.run("qsub", "-@", str(tmp_path / "loop"), "-b", "y", "true")
    assert done.stderr == f'qsub: ERROR! Could not read options file "{tmp_path / "loop"}"\n'


def test_qrstat_shows_an_ar_as_the_testsuite_parses_it(shared_served: RunningCell) -> None:
    """sge_ar.tcl test_parse_qrstat_check: qrsub -M sgetest1@sun.com,@deadlineusers and
    -u '!sgetest1,sgetest2,!root' show as Grid Engine's qrstat -ar shows them."""
    done = shared_served.run(
        "qrsub", "-d", "1:0:0", "-N", "test_ar_name", "-A", "test_ar_account", "-m", "ab",
        "-M", "sgetest1@sun.com,@deadlineusers", "-u", "!sgetest1,sgetest2,!root",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ar = done.stdout.split()[3]
    shown = dict(
        line.split(None, 1)
        for line in shared_served.run("qrstat", "-ar", ar).stdout.splitlines()[1:]
        if " " in line.strip()
    )
    assert shown["mail_list"].strip() == "sgetest1@sun.com,deadlineusers@NONE"
    assert (shown["acl_list"].strip(), shown["xacl_list"].strip()) == ("sgetest2", "sgetest1,root")
    assert shown["account"].strip() == "test_ar_account"
    shared_served.run("qrdel", ar)


def test_tab_delimited_and_continued_files_are_read(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qconf_backslash_*_check: a tab between name and value (backslash_comma_userlist10)
    and continued lines, empty ones too (backslash_space_hostgroup11)."""
    (tmp_path / "u").write_text(
        "# This tests tabs as field/value delimiter\n"
        "name\t\ttsuserlist10\ntype\t\tACL DEPT\nfshare\t0\noticket\t0\n"
        "entries\troot, \\\n \\\nbin, \\\n  \\\nsys\n"
    )
    _qconf(shared_served, "-Au", str(tmp_path / "u"))
    shown = _qconf(shared_served, "-su", "tsuserlist10")
    _qconf(shared_served, "-dul", "tsuserlist10")
    assert "entries root,bin,sys\n" in shown


def test_qmaster_verifiers_answer_in_their_words(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qconf_issue1767 and issue 1715: a value the qmaster refuses is answered once, in its
    words, exit 1; the same for -Ap, -aattr/-mattr; -Mc of a complex still set says where."""
    (tmp_path / "pe").write_text(
        "pe_name tsverify\nslots 9\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\n"
        "stop_proc_args NONE\nallocation_rule $pe_slots\ncontrol_slaves FALSE\n"
        "job_is_first_task TRUE\nurgency_slots invalid\naccounting_summary FALSE\n"
    )
    cases = [
        (["-Ap", str(tmp_path / "pe")], 'rejecting invalid urgency_slots setting "invalid"'),
        (["-aattr", "queue", "slots", "[=1]", "all.q"], 'invalid hostname ""'),
    ]
    for args, answer in cases:
        done = shared_served.run("qconf", *args)
        assert (done.returncode, done.stderr.strip(), done.stdout) == (1, answer, "")
    table = _qconf(shared_served, "-sc")
    (tmp_path / "c").write_text(table + "tsgpu tsgpu INT <= YES YES 0 0\n")
    _qconf(shared_served, "-Mc", str(tmp_path / "c"))
    _qconf(shared_served, "-aattr", "exechost", "complex_values", "tsgpu=1", "global")
    (tmp_path / "c").write_text(table)
    done = shared_served.run("qconf", "-Mc", str(tmp_path / "c"))
    _qconf(shared_served, "-dattr", "exechost", "complex_values", "tsgpu", "global")
    _qconf(shared_served, "-Mc", str(tmp_path / "c"))
    answer = 'Complex attribute "tsgpu" is still referenced in host "global".'
    assert (done.returncode, done.stderr.strip()) == (1, answer)


def test_qsub_output_path_hosts_as_issue_540(shared_served: RunningCell) -> None:
    """Issue 540: two files for the default host and an unknown host are refused by the
    qmaster; a path holding a colon after an empty host is taken."""
    refused = [
        (":out:put.txt,:out:put.txt", "ERROR! two files are specified for the same host"),
        ("qwdfvb:out:put.txt", 'can\'t resolve hostname "qwdfvb"'),
    ]
    for paths, reason in refused:
        done = shared_served.run("qsub", "-o", paths, "-b", "y", "true")
        assert (done.returncode, done.stderr) == (1, f"Unable to run job: {reason}.\nExiting.\n")
    done = shared_served.run("qsub", "-terse", "-h", "-o", ":out:put.txt", "-b", "y", "true")
    assert done.returncode == 0, done.stderr
    shown = shared_served.run("qstat", "-j", done.stdout.strip()).stdout
    shared_served.run("qdel", done.stdout.strip())
    assert "stdout_path_list:           NONE:NONE:out:put.txt\n" in shown


def test_qalter_dc_of_every_variable_set_by_ac(shared_served: RunningCell) -> None:
    """clients/qalter qalter_ac, qalter_dc: -ac twice, then -dc of both variables is taken
    (it was refused as 'Wrong context list format -ac ""'); the job has no context left."""
    job = shared_served.run("qsub", "-terse", "-h", "-b", "y", "sleep", "15").stdout.strip()
    for options in (["-ac", "myvar=test", "-ac", "myvar2=test2"], ["-dc", "myvar,myvar2"]):
        done = shared_served.run("qalter", *options, job)
        assert (done.returncode, done.stdout) == (0, f"modified context of job {job}\n")
    assert "context:" not in shared_served.run("qstat", "-j", job).stdout
    shared_served.run("qdel", job)


def test_qconf_tsm_writes_the_next_run_to_schedd_runlog(shared_served: RunningCell) -> None:
    """qconf -tsm, as most scheduler checks call it: accepted with Grid Engine's answer
    (on stderr, as parse_qconf.c prints it);
    the next run appends its decisions to common/schedd_runlog, each line after the run's
    time as ctime() prints it and a '|' (it was refused as an invalid option)."""
    held = shared_served.run("qsub", "-terse", "-h", "-b", "y", "sleep", "5").stdout.strip()
    done = shared_served.run("qconf", "-tsm")
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.endswith(" triggers scheduler monitoring\n")
    path = shared_served.cell.common / "schedd_runlog"
    deadline = time.monotonic() + 20
    while "STOP-SCHEDULER-RUN" not in (path.read_text() if path.exists() else ""):
        assert time.monotonic() < deadline, "no run was logged"
        time.sleep(0.2)
    split = [line.split("|", 1) for line in path.read_text().splitlines()]
    stamps, lines = [s for s, _ in split], [text for _, text in split]
    assert all(re.fullmatch(r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}", s) for s in stamps)
    assert lines[0] == "-------------START-SCHEDULER-RUN-------------"
    assert lines[-1] == "--------------STOP-SCHEDULER-RUN-------------"
    hold = [line for line in lines if line.startswith("jobs dropped because of hold: ")]
    assert held in hold[0].split(": ", 1)[1].split()
    shared_served.run("qdel", held)


def test_queue_name_lists_print_one_blank_apart(shared_served: RunningCell) -> None:
    """Lists a queue keeps as lists (user_lists, projects...) are printed one blank apart
    whatever the verb wrote them with, as Grid Engine prints them (they kept the comma)."""
    _qconf(shared_served, "-aattr", "queue", "user_lists", "arusers", "all.q")
    _qconf(shared_served, "-aattr", "queue", "user_lists", "deadlineusers", "all.q")
    added = _qconf(shared_served, "-sq", "all.q")
    _qconf(shared_served, "-mattr", "queue", "xuser_lists", "arusers,deadlineusers", "all.q")
    modified = _qconf(shared_served, "-sq", "all.q")
    for attr in ("user_lists", "xuser_lists"):
        _qconf(shared_served, "-rattr", "queue", attr, "NONE", "all.q")
    assert "\nuser_lists            arusers deadlineusers\n" in added
    assert "\nxuser_lists           arusers deadlineusers\n" in modified


def test_qdel_checks_of_the_testsuite(shared_served: RunningCell) -> None:
    """clients/qdel check.exp/.60: -help is 11 lines with the version; a job list ending in
    an unknown job, task or task range prints one line per job, the last one
    empty_job_list_filter()'s, all on stdout (qdel.c printf()s every answer), exit 1."""
    helped = shared_served.run("qdel", "-help")
    assert helped.returncode == 0
    assert helped.stdout.startswith("GE 6.2u5\n")
    assert len(helped.stdout.splitlines()) == 11
    start = f"{time.localtime().tm_year + 1}12312359"
    args = ["-a", start, "-N", "qdel_check", "-b", "y", "sleep", "3000"]
    jobs = [shared_served.run("qsub", "-terse", *args).stdout.strip() for _ in range(3)]
    last = jobs[-1]
    done = shared_served.run("qdel", *jobs[:2], f"{last}.5", f"{last}.5-10:2", "9999")
    assert done.returncode == 1
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        f"root has deleted job {jobs[0]}",
        f"root has deleted job {jobs[1]}",
        f'job "{last}" task "5" does not exist',
        f'job "{last}" task id range "5-10:2" comprises no tasks',
        'denied: job "9999" does not exist',
    ]
    done = shared_served.run("qdel", "-u", "nob*", last)
    assert done.stdout == f"The job {last} of user(s) nob* does not exist\n"
    assert shared_served.run("qdel", "-u", "ro*").stdout == f"root has deleted job {last}\n"


def test_qmod_reschedule_of_checkpointing_jobs(shared_served: RunningCell, tmp_path: Path) -> None:
    """clients/qmod/reschedule `reschedule_checkpointing`: of two running -r y jobs, the one
    whose checkpointing environment's `when` has r is rescheduled, the other is not
    restartable; a job reference naming none of a job's tasks is 'invalid queue or job'."""
    for name, when in (("qmod_with_r", "r"), ("qmod_without_r", "s")):
        path = tmp_path / name
        path.write_text(f"ckpt_name {name}\ninterface userdefined\nwhen {when}\n")
        _qconf(shared_served, "-Ackpt", str(path))
    offered = ["ckpt_list", "qmod_with_r,qmod_without_r", "all.q"]  # a -ckpt job needs it
    _qconf(shared_served, "-aattr", "queue", *offered)
    args = ["-terse", "-r", "y", "-b", "y", "sleep", "1000"]
    try:
        jobs = [
            shared_served.run("qsub", "-ckpt", name, *args).stdout.strip()
            for name in ("qmod_with_r", "qmod_without_r")
        ]
        _reschedule_checkpointing(shared_served, jobs)
    finally:
        _qconf(shared_served, "-dattr", "queue", *offered)


def _reschedule_checkpointing(shared_served: RunningCell, jobs: list[str]) -> None:
    deadline = time.monotonic() + 15
    while shared_served.run("qstat", "-s", "r").stdout.count(" r ") < 2:
        assert time.monotonic() < deadline, shared_served.run("qstat").stdout
        time.sleep(0.2)
    done = shared_served.run("qmod", "-rj", *jobs)
    assert done.stdout.splitlines()[1:] == [
        f"{jobs[1]} requests ckpt object qmod_without_r. Therefore this job is not restartable."
    ]
    assert done.stdout.startswith(f"Pushed rescheduling of job {jobs[0]} on host ")
    bad = shared_served.run("qmod", "-sj", f"{jobs[1]}.3")
    assert (bad.returncode, bad.stdout) == (1, f'invalid queue or job "{jobs[1]}"\n')
    shared_served.run("qdel", *jobs)


def test_complex_check_load_values_hosts_and_removal(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qmaster/complex: a consumable a host reports only as load is requestable up to it;
    a HOST request must resolve; -Mc removes a complex only a queue's load_thresholds
    name (centry_is_referenced()), and that queue is then in load alarm."""
    table = _qconf(shared_served, "-sc")
    (tmp_path / "c1").write_text(
        table + "cxi cxi INT <= YES YES 1 0\ncxl cxl DOUBLE >= YES NO 0 0\n"
    )
    (tmp_path / "c0").write_text(table)
    (tmp_path / "q").write_text("qname cx.q\nhostlist host1\nload_thresholds cxl=5\n")
    load = ("exechost", "load_values", "cxi", "host1")
    _qconf(shared_served, "-Mc", str(tmp_path / "c1"), "-Aq", str(tmp_path / "q"),
           "-mattr", *load[:2], "cxi=7", "host1")  # fmt: skip
    try:
        verify = [shared_served.run("qsub", "-w", "v", "-l", f"cxi={n}", "-b", "y", "true")
                  for n in (7, 8)]  # fmt: skip
        assert verify[0].stdout.strip() == "verification: found suitable queue(s)"
        assert verify[1].returncode == 1
        host = shared_served.run("qsub", "-l", "h=no_such_host", "-b", "y", "true")
        assert host.returncode == 1
        assert 'can\'t resolve hostname "no_such_host"' in host.stderr
        removed = _qconf(shared_served, "-dattr", *load, "-Mc", str(tmp_path / "c0"))
        assert [line.split(" ", 1)[1] for line in removed.splitlines()[1:]] == [
            'removed "cxi" from complex list',
            'removed "cxl" from complex list',
        ]
        rows = shared_served.run("qstat", "-f", "-q", "cx.q").stdout.splitlines()
        assert rows[2].startswith("cx.q@host1")
        assert rows[2].split()[-1] == "a"
    finally:
        shared_served.run("qconf", "-dattr", *load)
        shared_served.run("qconf", "-dq", "cx.q", "-Mc", str(tmp_path / "c0"))


def test_path_alias_check_runs_a_cwd_job_in_the_aliased_directory(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """config/path_alias: with the cell's sge_aliases mapping the submit directory to
    another, a -cwd job on a host that runs jobs for real works and writes its output
    there, nothing in the directory it was submitted from."""
    out1, out2 = tmp_path / "path_alias_output1", tmp_path / "path_alias_output2"
    out1.mkdir()
    out2.mkdir()
    aliases = shared_served.cell.common / "sge_aliases"
    aliases.write_text(f"/tmp_mnt/ * * /\n{out1} * * {out2}\n")
    (out1 / "job.sh").write_text("#!/bin/sh\npwd\n")
    local = ("exechost", "load_values", "execution=local", "host1")
    _qconf(shared_served, "-mattr", *local)
    try:
        done = shared_served.run("qsub", "-cwd", "-q", "all.q@host1", "job.sh", cwd=out1)
        assert done.returncode == 0, done.stderr
        job = done.stdout.split()[2]
        assert wait_file(out2 / f"job.sh.o{job}") == f"{out2}\n"
        assert sorted(p.name for p in out1.iterdir()) == ["job.sh"]
    finally:
        aliases.unlink()
        shared_served.run("qconf", "-dattr", *local[:2], "execution", "host1")


def test_file_parsing_request_files_and_command_line_override(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """config/file_parsing: a ./.sge_request with -N and -o /dev/null and a command line
    with its own -o /dev/null submit (the later -o replaces the earlier); #$ -N wins over
    the file and the command line over both."""
    (tmp_path / ".sge_request").write_text("-N LOCAL -e /dev/null -o /dev/null\n")
    (tmp_path / "job.sh").write_text("#!/bin/sh\n#$ -N SCRIPT\nsleep 15\n")
    (tmp_path / "plain.sh").write_text("#!/bin/sh\nsleep 15\n")
    jobs = []
    for argv in (["plain.sh"], ["job.sh"], ["-N", "COMLINE", "job.sh"]):
        done = shared_served.run("qsub", "-terse", "-h", "-o", "/dev/null", *argv, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        jobs.append(done.stdout.strip())
    shown = shared_served.run("qstat", "-j", ",".join(jobs)).stdout
    shared_served.run("qdel", *jobs)
    assert re.findall(r"^job_name: +(\S+)$", shown, re.M) == ["LOCAL", "SCRIPT", "COMLINE"]
