"""Every command reports a bad command line and answers -help as its Grid Engine 6.2u5 client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clients import (
    qacct,
    qalter,
    qconf,
    qdel,
    qevent,
    qhost,
    qrdel,
    qrstat,
    qrsub,
    qselect,
    qstat,
    qsub,
    seg,
)
from qmaster.version import VERSION

from .conftest import FakeQmaster

CLICK_TEXTS = ("Try '", "No such option", "Error:", "--help")


@pytest.fixture(autouse=True)
def _cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SGE_ROOT", str(tmp_path / "root"))


def run(module: Any, argv: list[str], qmaster: FakeQmaster) -> int:
    main: Callable[..., int] = module.main
    if module in (qevent, seg, qacct):
        return main(argv)
    return main(argv, transport=qmaster)


# (module, its name, what stderr is after a bad option "-x", exit code)
UNKNOWN = [
    (qsub, 'qsub: ERROR! invalid option argument "-x"\n', 2),
    (qalter, 'qalter: ERROR! invalid option argument "-x"\n', 2),
    (qrsub, 'qrsub: ERROR! invalid option argument "-x"\n', 1),
    (qrstat, 'error: ERROR! invalid option argument "-x"\n', 1),
    (qconf, 'error: invalid option argument "-x"\nUsage: qconf -help\n', 1),
]

USAGE_FIRST = [
    (qstat, 'invalid option argument "-x"'),
    (qrdel, 'error: ERROR! invalid option argument "-x"'),
]


@pytest.mark.parametrize(("module", "stderr", "code"), UNKNOWN)
def test_unknown_option_is_one_grid_engine_line_without_usage(
    module: Any, stderr: str, code: int, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qsub/qalter/qrsub/qrstat/qconf print only Grid Engine's line(s) and exit as it does."""
    assert run(module, ["-x", "1"], qmaster) == code
    captured = capsys.readouterr()
    assert captured.err == stderr
    assert captured.out == ""
    assert qmaster.calls == []


@pytest.mark.parametrize(("module", "last_line"), USAGE_FIRST)
def test_unknown_option_after_the_usage(
    module: Any, last_line: str, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat, qrdel (and qevent) print the usage on stderr first, then the complaint, exit 1."""
    argv = ["-json", "-x"] if module is qevent else ["-x"]
    assert run(module, argv, qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: ")
    assert err.splitlines()[-1] == last_line
    assert not any(text in err for text in CLICK_TEXTS)


def test_a_stray_word_is_named_in_the_complaint(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qstat -f x: 'invalid option argument "x"' (click had eaten the words: it said "")."""
    assert run(qstat, ["-f", "x", "y"], qmaster) == 1
    assert capsys.readouterr().err.endswith('\ninvalid option argument "x"\n')
    assert qmaster.calls == []


ALL = [qsub, qalter, qstat, qdel, qrsub, qrstat, qrdel, qconf, qevent, seg, qacct, qhost, qselect]


@pytest.mark.parametrize("module", ALL)
def test_help_starts_with_the_version_line(
    module: Any, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-help prints 'GE 6.2u5' and the usage on stdout; exit 0 (qrstat, qhost: 1, as in 6.2u5)."""
    code = run(module, ["-help"], qmaster)
    assert code == (1 if module in (qrstat, qhost) else 0)
    out = capsys.readouterr().out
    assert out.startswith("GE 6.2u5\nusage:")
    assert qmaster.calls == []


# (module, -help's exit code, lines of 6.2u5's usage.c / qstat_usage() in their order, and
# whose first is the usage line; words the usage must not have: options minige refuses)
HELP_LINES = [
    (
        qconf,
        0,
        [
            "usage: qconf [options]",
            "   [-aattr obj_nm attr_nm val obj_id_list]  add to a list attribute of an object",
            "   [-Aattr obj_nm fname obj_id_list]        add to a list attribute of an object",
            "   [-Arqs fname]                            add resource quota set(s) from file",
            "   [-help]                                  print this help",
            "   [-ke[j] host_list                        shutdown execution daemon(s)",
            "   [-k{m|s}]                                shutdown master|scheduling daemon",
            "   [-sq [destin_id_list]]                   show the given queue",
            "   [-tsm]                                   trigger scheduler monitoring",
            "",
            "complex_list            complex[,complex,...]",
            "rqs_list                rqs_name[,rqs_name,...]",
            'obj_nm3                 "queue"',
        ],
        ["-sstree", "-clearusage", "-aconf", "node_path"],
    ),
    (
        qsub,
        0,
        [
            "usage: qsub [options]",
            "   [-a date_time]                           request a start time",
            "   [-w e|w|n|v|p]                           "
            "verify mode (error|warning|none|just verify|poke) for jobs",
            "   [{command|-} [command_args]]",
            "",
            "account_string          account_name",
            "str                     striding:<amount>:<stepsize>[:<socket>,<core>]",
        ],
        ["-display", "-ot "],
    ),
    (
        qalter,
        0,
        [
            "usage: qalter [options] job_task_list",
            "   [-ot tickets]                            set job's override tickets",
            "   [-u user_list]                           specify a list of users",
            "                                            "
            "(not allowed in combination with job_task_list)",
            "   job_task_list                            jobid's (and taskid's) of jobs to be altered",
            "hold_list               `n' `u' `s' `o' `U' `S' `O'",
        ],
        ["-now", "-sync", "-verify", "-terse"],
    ),
    (
        qdel,
        0,
        [
            "usage: qdel [options] job_task_list",
            "   [-f]                                     force action",
            "   job_task_list                            delete all jobs given in list",
            "user_list               user[,user,...]",
        ],
        [],
    ),
    (
        qrdel,
        0,
        [
            "usage: qrdel [options]",
            "   wc_ar_list                               delete all advance reservations given in list",
            "wc_ar                   ar_id|ar_name|pattern",
        ],
        [],
    ),
    (qrstat, 1, ["usage: qrstat [options]", "ar_id_list              ar_id[,ar_id,...]"], []),
    (
        qstat,
        0,
        [
            "usage: qstat [options]",
            "        [-j job_identifier_list ]         show scheduler job information",
            # msg_qstat.h's text ends in a blank
            " " * 42 + "jobs with a user/operator/system/array-dependency hold, ",
            "pe_list                  pe[,pe,...]",
        ],
        [],
    ),
    (
        qselect,
        0,
        [
            "usage: qselect [options]",
            "        [-help]                           print this help",
            "wc_queue_list            wc_queue[,wc_queue,...]",
        ],
        ["[-j"],
    ),
]


@pytest.mark.parametrize(("module", "code", "lines", "absent"), HELP_LINES)
def test_help_prints_grid_engines_usage(
    module: Any,
    code: int,
    lines: list[str],
    absent: list[str],
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """-help: the version line, then Grid Engine's usage lines in order, on stdout."""
    assert run(module, ["-help"], qmaster) == code
    captured = capsys.readouterr()
    printed = captured.out.split("\n")
    assert printed[:2] == ["GE 6.2u5", lines[0]]
    at = 0
    for line in lines:
        assert line in printed[at:], line
        at = printed.index(line, at) + 1
    assert not [word for word in absent if word in captured.out]
    assert captured.err == ""


@pytest.mark.parametrize("module", ALL)
def test_version_prints_both_versions(
    module: Any, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """--version prints 'GE 6.2u5' and minige's version on stdout, exit 0, nothing sent."""
    assert run(module, ["--version"], qmaster) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "GE 6.2u5"
    assert lines[1] == f"minige {VERSION}"
    assert len(lines) == 2
    assert captured.err == ""
    assert qmaster.calls == []


def test_qconf_missing_argument_logs_and_shows_usage(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qconf -Mc without a file: the usage, then 'error: no option argument provided to'."""
    assert qconf.main(["-Mc"], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qconf")
    assert err.endswith('error: no option argument provided to "-Mc"\n')


def test_qsub_value_error_exits_with_the_syntax_status(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value qsub's parser refuses exits 7 (STATUS_ESYNTAX), after the parser's own line."""
    assert qsub.main(["-a", "01321000", "job.sh"], transport=qmaster) == 7
    assert capsys.readouterr().err == (
        "Invalid day specification.\n"
        'qsub: ERROR! Wrong date/time format "01321000" specified to -a option\n'
    )


def test_qdel_treats_an_unknown_dash_word_as_a_job_name(qmaster: FakeQmaster) -> None:
    """As Grid Engine's qdel, '-x' is looked up as a job, not refused by the client."""
    qdel.main(["-x"], transport=qmaster)
    assert qmaster.last == ("delete", {"job_ids": ["-x"], "users": None, "force": False})


def test_qdel_task_range_applies_to_the_last_job_before_it(qmaster: FakeQmaster) -> None:
    """qdel 5,sl* -t 3-4 deletes job 5 and tasks 3-4 of the jobs named sl*
    (parse_multi_jobtaskslist() gives the range to the word's last item)."""
    assert qdel.main(["5,sl*", "-t", "3-4", "7"], transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == ["5", "sl*.3-4:1", "7"]


def test_qdel_lonely_task_range_is_refused(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A -t with no job before it is Grid Engine's 'lonely -t' error, nothing sent."""
    assert qdel.main(["-t", "2"], transport=qmaster) == 1
    assert "found lonely '-t 2' option" in capsys.readouterr().err
    assert qmaster.calls == []


def test_qdel_without_jobs_prints_the_error_on_stdout(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qdel alone: usage on stderr, 'ERROR! no option argument' on stdout, exit 1."""
    assert qdel.main([], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("GE 6.2u5\nusage: qdel")
    assert captured.out == "ERROR! no option argument\n"


def test_qalter_user_list_selects_jobs_by_owner(qmaster: FakeQmaster) -> None:
    """qalter -u bob -h u sends the users instead of job ids."""
    assert qalter.main(["-u", "bob", "-h", "u"], transport=qmaster) == 0
    op, args = qmaster.last
    assert (op, args["users"], args["job_ids"], args["job"]) == (
        "alter",
        ["bob"],
        [],
        {"h": True},
    )


def test_help_after_the_script_is_a_job_argument(
    tmp_path: Path, qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qsub job.sh -help submits job.sh with the argument -help; -N -help names the job."""
    (tmp_path / "job.sh").write_text("sleep 1\n")
    qsub.main(["-N", "-help", "job.sh", "-help"], transport=qmaster)
    spec = qmaster.last[1]["job"]
    assert (spec["N"], spec["CMDARGS"]) == ("-help", ["-help"])
    assert "usage" not in capsys.readouterr().out


def test_qmaster_version_reads_as_the_clients() -> None:
    """qmaster --version prints the same two lines as every client's --version."""
    from click.testing import CliRunner

    from clients.common.conventions import version_text
    from qmaster import cli

    result = CliRunner().invoke(cli.main, ["--version"])
    assert (result.exit_code, result.output) == (0, version_text())
