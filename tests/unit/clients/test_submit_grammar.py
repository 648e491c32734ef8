"""The submit option grammar: argv, request files, #$ lines, -clear, -@ and precedence."""

from __future__ import annotations

import pytest

from clients.common.errors import ClientError
from clients.submit.build import SubmitInputs, build_qalter, build_qsub
from clients.submit.dates import parse_date_time
from clients.submit.more_options import hold_list
from clients.submit.values import RANGE_INFINITY, slot_range, task_range

ROOT = "/cell"


def inputs(files: dict[str, str] | None = None, stdin: str = "", **env: str) -> SubmitInputs:
    base = {"SGE_ROOT": ROOT, "HOME": "/home/alice", "PATH": "/bin", "USER": "alice"}
    base.update(env)
    store = dict(files or {})
    return SubmitInputs(
        env=base,
        cwd="/work",
        year=2026,
        host="submit1",
        read_text=store.get,
        read_stdin=lambda: stdin,
    )


SCRIPT = {"/work/job.sh": "#!/bin/sh\nsleep 1\n"}


def test_resource_requests_accumulate_and_follow_soft_hard_toggles() -> None:
    """-l values add up, and -soft/-hard switch where the following ones go."""
    argv = ["-l", "a=1,b=2", "-soft", "-l", "c=3", "-q", "x.q", "-hard", "-l", "d=4", "job.sh"]
    spec = build_qsub(argv, inputs(SCRIPT)).spec
    assert spec["l_hard"] == {"a": "1", "b": "2", "d": "4"}
    assert spec["l_soft"] == {"c": "3"}
    assert spec["q_soft"] == ["x.q"]


def test_everything_after_the_script_is_a_job_argument() -> None:
    """Options after the script name are passed to the job, not parsed."""
    spec = build_qsub(["-N", "x", "job.sh", "-N", "y", "5"], inputs(SCRIPT)).spec
    assert spec["N"] == "x"
    assert spec["CMDARGS"] == ["-N", "y", "5"]
    assert spec["script"] == SCRIPT["/work/job.sh"]


def test_job_name_defaults_to_script_basename_or_stdin() -> None:
    """The job is named after the script file, or STDIN when read from stdin."""
    files = {"/work/sub/run.sh": "true\n"}
    assert build_qsub(["sub/run.sh"], inputs(files)).spec["N"] == "run.sh"
    spec = build_qsub([], inputs(stdin="echo hi\n")).spec
    assert (spec["N"], spec["CMDNAME"], spec["script"]) == ("STDIN", "STDIN", "echo hi\n")


def test_binary_job_takes_command_as_given_without_script_text() -> None:
    """-b y sends the command and its arguments and no script text."""
    spec = build_qsub(["-b", "y", "sleep", "10"], inputs()).spec
    assert (spec["CMDNAME"], spec["CMDARGS"], spec["N"]) == ("sleep", ["10"], "sleep")
    assert "script" not in spec


def test_precedence_cell_then_home_then_cwd_then_script_then_command_line() -> None:
    """Later sources override earlier ones, in GE's documented order."""
    files = {
        f"{ROOT}/default/common/sge_request": "-N cell -A acct_cell -P p_cell -p 1\n",
        "/home/alice/.sge_request": "# comment\n-A acct_home -P p_home\n",
        "/work/.sge_request": "-P p_cwd -p 2 -m be\n",
        "/work/job.sh": "#!/bin/sh\n#$ -p 3 -m a\n#$ -N fromscript\nsleep 1\n",
    }
    spec = build_qsub(["-p", "4", "job.sh"], inputs(files)).spec
    assert spec["A"] == "acct_home"
    assert spec["P"] == "p_cwd"
    assert spec["m"] == "a"
    assert spec["N"] == "fromscript"
    assert spec["p"] == 4


def test_clear_discards_defaults_and_directives() -> None:
    """-clear on the command line forgets what the request files and script said."""
    files = {
        "/work/.sge_request": "-A acct -l mem=1G\n",
        "/work/job.sh": "#$ -P proj\n",
    }
    spec = build_qsub(["-clear", "-l", "h_rt=10", "job.sh"], inputs(files)).spec
    assert "A" not in spec
    assert "P" not in spec
    assert spec["l_hard"] == {"h_rt": "10"}


def test_directive_prefix_can_be_changed_or_disabled() -> None:
    """-C picks another directive prefix; an empty one turns directives off."""
    files = {"/work/job.sh": "#$ -N dollar\n#PBS -N pbs\n"}
    assert build_qsub(["-C", "#PBS", "job.sh"], inputs(files)).spec["N"] == "pbs"
    assert build_qsub(["-C", "", "job.sh"], inputs(files)).spec["N"] == "job.sh"


def test_options_file_is_spliced_in_place() -> None:
    """-@ file reads more options at that position."""
    files = {**SCRIPT, "/work/opts": "-N fromfile\n-l a=1\n"}
    spec = build_qsub(["-@", "opts", "-l", "b=2", "job.sh"], inputs(files)).spec
    assert spec["N"] == "fromfile"
    assert spec["l_hard"] == {"a": "1", "b": "2"}


def test_variables_take_missing_values_from_the_environment() -> None:
    """-v A=1,B exports B with the caller's value; -V exports everything."""
    spec = build_qsub(["-v", "A=1,B", "job.sh"], inputs(SCRIPT, B="fromenv")).spec
    assert spec["v"]["A"] == "1"
    assert spec["v"]["B"] == "fromenv"
    spec = build_qsub(["-V", "job.sh"], inputs(SCRIPT, ZZ="z")).spec
    assert spec["V"] is True
    assert spec["v"]["ZZ"] == "z"


def test_job_environment_essentials_are_passed() -> None:
    """qsub passes SGE_O_HOME, SGE_O_WORKDIR, SGE_O_HOST and friends in v; SGE_O_TZ and
    SGE_O_MAIL where the caller's environment has TZ and MAIL (job_initialize_env)."""
    v = build_qsub(["job.sh"], inputs(SCRIPT)).spec["v"]
    assert v["SGE_O_HOME"] == "/home/alice"
    assert v["SGE_O_WORKDIR"] == "/work"
    assert v["SGE_O_HOST"] == "submit1"
    assert v["SGE_O_LOGNAME"] == "alice"
    assert v["SGE_O_PATH"] == "/bin"
    assert "SGE_O_TZ" not in v
    assert "SGE_O_MAIL" not in v
    v = build_qsub(["job.sh"], inputs(SCRIPT, TZ="Europe/Berlin", MAIL="/var/mail/a")).spec["v"]
    assert (v["SGE_O_TZ"], v["SGE_O_MAIL"]) == ("Europe/Berlin", "/var/mail/a")


def test_cwd_only_when_requested() -> None:
    """The client's cwd is sent only with -cwd."""
    assert "cwd" not in build_qsub(["job.sh"], inputs(SCRIPT)).spec
    assert build_qsub(["-cwd", "job.sh"], inputs(SCRIPT)).spec["cwd"] == "/work"


def test_context_add_set_delete_resolve_in_order() -> None:
    """-ac adds, -sc replaces, -dc removes context variables."""
    argv = ["-ac", "a=1,b", "-dc", "a", "-ac", "c=3", "job.sh"]
    assert build_qsub(argv, inputs(SCRIPT)).spec["ac"] == {"b": "", "c": "3"}
    argv = ["-ac", "a=1", "-sc", "z=9", "job.sh"]
    assert build_qsub(argv, inputs(SCRIPT)).spec["ac"] == {"z": "9"}


def test_pe_and_array_ranges() -> None:
    """-pe and -t ranges land in their spec keys."""
    spec = build_qsub(["-pe", "mpi", "2-8", "-t", "1-10:2", "job.sh"], inputs(SCRIPT)).spec
    assert (spec["pe_name"], spec["pe_min"], spec["pe_max"]) == ("mpi", 2, 8)
    assert (spec["t_min"], spec["t_max"], spec["t_step"]) == (1, 10, 2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4", (4, 4)), ("2-8", (2, 8)), ("2-", (2, RANGE_INFINITY)), ("-8", (1, 8))],
)
def test_slot_range_forms(text: str, expected: tuple[int, int]) -> None:
    """All four slot range spellings parse."""
    assert slot_range(text) == expected


@pytest.mark.parametrize("text", ["0", "5-1", "1-5:0", "x", "1-y"])
def test_bad_task_ranges_are_rejected(text: str) -> None:
    """A -t range that is empty, reversed or not numeric is refused."""
    with pytest.raises(ClientError):
        task_range(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,2,3", (1, 3, 1)),
        ("1,3", (1, 3, 2)),
        ("1-4:3,7", (1, 7, 3)),
        ("1,4-10:3", (1, 10, 3)),
        ("1-5:2,3,,7", (1, 7, 2)),
        ("2,2", (2, 2, 1)),
        ("1-4000000000,4000000001-4000000005", (1, 4000000005, 1)),
    ],
)
def test_a_task_id_list_that_is_one_range_is_taken(
    text: str, expected: tuple[int, int, int]
) -> None:
    """-t 1,2,3 is 1-3 and 1,3 is 1-3:2: the ids, once each and in order, as one range."""
    assert task_range(text) == expected


@pytest.mark.parametrize("text", ["1-2,4", "1-3,5-9:2", "1,2,4", "1-4000000000,4000000002"])
def test_a_task_id_list_of_several_ranges_is_refused(text: str) -> None:
    """-t 1-2,4: Grid Engine's 'only allows one range specification' (not a number error)."""
    with pytest.raises(ClientError) as refused:
        task_range(text)
    assert str(refused.value) == "ERROR! -t option only allows one range specification"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["-p", "2000", "job.sh"],
            "ERROR! invalid priority, must be an integer from -1023 to 1024",
        ),
        (["-t", "3-1", "job.sh"], "ERROR! -t option must have a list of task id ranges"),
        (["-j", "maybe", "job.sh"], 'invalid option argument "-j maybe"'),
        (["-w", "x", "job.sh"], 'invalid option argument "-w x"'),
        (["-N", "a/b", "job.sh"], "ERROR! argument to -N option must not contain / "),
        (
            ["-m", "bz", "job.sh"],
            'ERROR! Wrong mail options list format "bz" specified to -m option',
        ),
        (["-bogus", "job.sh"], 'ERROR! invalid option argument "-bogus"'),
        (["-N"], "ERROR! -N option must have argument"),
        (["-pe", "mpi"], "ERROR! -pe option must have range as 2nd argument"),
    ],
)
def test_bad_values_get_grid_engine_messages(argv: list[str], message: str) -> None:
    """Each kind of bad value is refused in Grid Engine's words."""
    with pytest.raises(ClientError) as info:
        build_qsub(argv, inputs(SCRIPT))
    assert info.value.message == message


def test_unset_variable_without_value_gets_an_empty_value() -> None:
    """-v NAME with NAME not in the environment passes NAME with an empty value."""
    spec = build_qsub(["-v", "NOPE", "job.sh"], inputs(SCRIPT)).spec
    assert spec["v"]["NOPE"] == ""


def test_missing_script_file_is_reported() -> None:
    """A script that cannot be read stops the submission."""
    with pytest.raises(ClientError, match=r"missing\.sh"):
        build_qsub(["missing.sh"], inputs())


def test_verify_and_terse_are_client_switches() -> None:
    """-w and -terse are not part of the job spec."""
    request = build_qsub(["-w", "v", "-terse", "job.sh"], inputs(SCRIPT))
    assert (request.verify, request.terse) == ("v", True)
    assert "w" not in request.spec
    assert "terse" not in request.spec


def test_qalter_sends_only_changed_keys_and_collects_job_ids() -> None:
    """qalter's spec holds just the given switches; the words are job ids."""
    request = build_qalter(["-l", "h_rt=5", "-h", "u", "12,13", "14"], inputs())
    assert request.spec == {"l_hard": {"h_rt": "5"}, "h": True}
    assert request.job_ids == ["12", "13", "14"]


def test_date_time_forms_are_normalised() -> None:
    """-a accepts 8, 10 or 12 digits and optional seconds, stored as CCYYMMDDhhmm.SS."""
    assert parse_date_time("01021030", 2026) == "202601021030.00"
    assert parse_date_time("2601021030.15", 2026) == "202601021030.15"
    assert parse_date_time("7501021030", 2026) == "197501021030.00"
    assert parse_date_time("202701021030", 2026) == "202701021030.00"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("13011030", "Invalid month specification."),
        ("01321030", "Invalid day specification."),
        ("0102103", "Invalid format of date/hour-minute field."),
        ("01021030.1", "Invalid format of seconds field."),
        ("01022430", "Invalid hour specification."),
    ],
)
def test_bad_dates_give_both_messages(text: str, reason: str) -> None:
    """The date parser's reason comes first, then the -a option's complaint."""
    with pytest.raises(ClientError) as info:
        parse_date_time(text, 2026)
    assert info.value.message == (
        f'{reason}\nERROR! Wrong date/time format "{text}" specified to -a option'
    )


@pytest.mark.parametrize(
    ("text", "prog", "letters"),
    [
        ("uos", "qalter", "uos"),
        ("USn", "qalter", "USn"),
        ("uU", "qalter", None),
        ("nu", "qalter", None),
        ("u,o", "qalter", None),
        ("so", "qhold", "so"),
        ("so", "qrls", "SO"),
        ("U", "qrls", None),
        ("n", "qhold", None),
    ],
)
def test_hold_lists_read_as_sge_parse_hold_list(text: str, prog: str, letters: str | None) -> None:
    """One -h list sets or removes holds, never both; qhold/qrls take u o s only (qrls to
    remove them). qalter -h uU was taken."""
    assert hold_list(text, prog) == letters


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # config/file_parsing: every sge_request file says -o; the last one wins
        (["job.sh"], ["/work/out"]),
        (["-o", "h1:/a,/b", "-o", "/c,h2:/d", "job.sh"], ["/c", "h1:/a", "h2:/d"]),
        (["-o", "h1:/a", "-o", "h1:/e", "job.sh"], ["/work/out", "h1:/e"]),
        (["-o", "/x,/y", "job.sh"], ["/y"]),  # each merged into the files' list
    ],
)
def test_qsub_merges_path_lists_by_host(argv: list[str], expected: list[str]) -> None:
    """cull_merge_definition_list(): a later -o (or -e, -i, -S) replaces the path of a host
    it names again, no host being one; the request files and the script take part."""
    files = {
        **SCRIPT,
        f"{ROOT}/default/common/sge_request": "-o /dev/null -e /dev/null\n",
        "/home/alice/.sge_request": "-o /dev/null\n",
        "/work/.sge_request": "-o /work/out\n",
    }
    spec = build_qsub(argv, inputs(files)).spec
    assert spec["o"] == expected
    assert spec["e"] == ["/dev/null"]


def test_one_path_list_keeps_its_repeats_for_the_qmaster() -> None:
    """The first list is taken whole: -o /x,/y reaches the qmaster, which refuses it."""
    assert build_qsub(["-o", "/x,/y", "job.sh"], inputs(SCRIPT)).spec["o"] == ["/x", "/y"]


def test_qalter_appends_path_lists() -> None:
    """qalter's -o lists are appended (parse_list_simple() with FLG_LIST_APPEND)."""
    spec = build_qalter(["-o", "/a", "-o", "/b", "7"], inputs()).spec
    assert spec["o"] == ["/a", "/b"]
