"""qhold/qrls and qconf's new verbs: the requests they send for each command line."""

from __future__ import annotations

import pytest

from clients import qalter, qconf, qhold, qrls
from clients.qconf_more import _matches
from qmaster.gdi.answers import Status, error, ok
from tests.unit.clients.conftest import FakeQmaster


@pytest.mark.parametrize(
    ("cmd", "argv", "letters"),
    [
        (qhold, ["7"], "u"),
        (qhold, ["-h", "os", "7"], "os"),
        (qhold, ["-h", "su", "7"], "su"),
        (qrls, ["7"], "U"),
        (qrls, ["-h", "o", "7"], "O"),
        (qrls, ["-h", "u", "-h", "s", "7"], "S"),
    ],
)
def test_hold_letters_sent_with_alter(
    qmaster: FakeQmaster, cmd: object, argv: list[str], letters: str
) -> None:
    """qhold sets (u o s), qrls removes (U O S); the user hold when -h is not given; of two
    -h the last counts, as qalter_parse_job_parameter() takes them in turn."""
    qmaster.reply("alter", [ok("modified hold of job 7")])
    assert cmd.main(argv, transport=qmaster) == 0  # type: ignore[attr-defined]
    op, args = qmaster.last
    assert (op, args["job_ids"], args["hold"]) == ("alter", ["7"], letters)


def test_u_names_the_users_jobs_as_qalter_does(qmaster: FakeQmaster) -> None:
    """qhold -u alice is qalter -h u -u alice: one alter for alice's jobs."""
    qmaster.reply("alter", [ok("modified hold of job 3")])
    assert qhold.main(["-u", "alice"], transport=qmaster) == 0
    assert qmaster.calls == [
        ("alter", {"job_ids": [], "job": {}, "verify": "n", "hold": "u", "users": ["alice"]})
    ]


@pytest.mark.parametrize(
    ("cmd", "argv", "code", "err"),
    [
        (qhold, ["-h", "x", "7"], 7, 'qalter: ERROR! Unknown hold list "x" specified to -h option\n'),
        (qhold, ["-h", "o,s", "7"], 7,
         'qalter: ERROR! Unknown hold list "o,s" specified to -h option\n'),
        (qrls, ["-h", "U", "7"], 7, 'qalter: ERROR! Unknown hold list "U" specified to -h option\n'),
        (qhold, ["-h", "n", "7"], 7, 'qalter: ERROR! Unknown hold list "n" specified to -h option\n'),
        (qrls, ["-x", "7"], 2, 'qalter: ERROR! invalid option argument "-x"\n'),
        (qhold, ["-h"], 2, "qalter: ERROR! -h option must have argument\n"),
    ],
)  # fmt: skip
def test_bad_command_lines_are_qalters_complaints(
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
    cmd: object,
    argv: list[str],
    code: int,
    err: str,
) -> None:
    """qhold and qrls are qalter (qalter.c): its parser's text and status; nothing is sent."""
    assert cmd.main(argv, transport=qmaster) == code  # type: ignore[attr-defined]
    assert capsys.readouterr() == ("", err)
    assert qmaster.calls == []


@pytest.mark.parametrize("argv", [[], ["-h", "o"]])
def test_nothing_but_the_hold_is_no_option_argument(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """qrls, qrls -h o: the usage and 'ERROR! no option argument' on stderr, exit 1."""
    assert qrls.main(argv, transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("GE 6.2u5\nusage: qrls")
    assert err.endswith("\nERROR! no option argument\n")
    assert qmaster.calls == []


def test_answers_go_to_stdout_and_the_first_bad_status_is_the_exit_code(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qalter.c prints every answer on stdout; qhold/qrls exit with the first status that is
    not STATUS_OK in Grid Engine's numbers: STATUS_EEXIST is 3."""
    qmaster.reply(
        "alter",
        [ok("modified hold of job 6"), error('denied: job "99" does not exist', Status.EEXIST)],
    )
    assert qhold.main(["6,99"], transport=qmaster) == 3
    assert capsys.readouterr() == (
        'modified hold of job 6\ndenied: job "99" does not exist\n', ""
    )  # fmt: skip
    assert qmaster.last[1]["job_ids"] == ["6", "99"]


def test_qconf_attr_verbs_send_one_request_per_object(qmaster: FakeQmaster) -> None:
    """-mattr queue slots 8 a.q,b.q@h sends conf_attr twice; -purge sends mode purge."""
    assert qconf.main(["-mattr", "queue", "slots", "8", "a.q,b.q@h"], transport=qmaster) == 0
    assert [c[1]["name"] for c in qmaster.calls] == ["a.q", "b.q@h"]
    assert qmaster.last[1] == {
        "kind": "cqueue", "mode": "change", "pairs": [["slots", "8"]], "name": "b.q@h"
    }  # fmt: skip
    qconf.main(["-purge", "queue", "*", "a.q@@grp"], transport=qmaster)
    assert qmaster.last[1]["mode"] == "purge"
    assert qconf.main(["-aattr", "rqs", "x", "1", "r"], transport=qmaster) == 1


def test_sobjl_matching() -> None:
    """Cluster queues match on the default value, instances and domains on host values."""
    text = "qname q\nslots 1,[h1=4],[@g=2]\n"
    assert _matches("queue", "q", text, "slots", "1") == ["q"]
    assert _matches("queue_instance", "q", text, "sl*", "4") == ["q@h1"]
    assert _matches("queue_domain", "q", text, "slots", "*") == ["q@@g"]
    assert _matches("pe", "make", "pe_name make\nslots 999\n", "slots", "9*") == ["make"]


@pytest.mark.parametrize(
    ("cmd", "argv", "code", "err"),
    [
        (qalter, ["-p", "-5", "3.2"], 4,
         "denied: the selected option works only on jobs and not on tasks\n"),
        (qalter, ["3", "-t", "2", "-p", "-5"], 4,
         "denied: the selected option works only on jobs and not on tasks\n"),
        (qhold, ["-t", "2", "3"], 2,
         "found lonely '-t 2' option (The -t option needs a leading job name).\n"),
        (qalter, ["-t", "2", "-u", "bob", "-p", "-5"], 5, "Unknown option -t 2\n"),
    ],
)  # fmt: skip
def test_task_words_as_qalter_parse_job_parameter_reads_them(
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
    cmd: object,
    argv: list[str],
    code: int,
    err: str,
) -> None:
    """-t gives the tasks of the job word right before it; elsewhere it is lonely (or, with no
    job word, an unused option); tasks with no -h are refused: only holds are per task."""
    assert cmd.main(argv, transport=qmaster) == code  # type: ignore[attr-defined]
    assert capsys.readouterr() == ("", err)
    assert qmaster.calls == []


def test_t_after_a_job_word_names_its_tasks(qmaster: FakeQmaster) -> None:
    """qhold 3 4 -t 2-3: job 3, and tasks 2-3 of job 4 (qalter 3 -t 2 changed no task range)."""
    qmaster.reply("alter", [ok("modified hold of job-array task 4.2")])
    assert qhold.main(["3", "4", "-t", "2-3"], transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == ["3", "4.2-3:1"]
    assert "t_min" not in qmaster.last[1]["job"]


@pytest.mark.parametrize(
    ("argv", "sent"),
    [
        (["7.1", "-t", "3"], ["7.1,3-3:1"]),
        (["7.2-4", "-t", "2-4"], ["7.2-4:1"]),
        (["7", "-A", "acct", "-t", "2"], ["7.2-2:1"]),
        (["7", "-dl", "01010000", "-e", "/tmp/x", "-t", "2"], ["7.2-2:1"]),
    ],
)
def test_a_job_words_own_range_and_its_t_are_united(
    qmaster: FakeQmaster, argv: list[str], sent: list[str]
) -> None:
    """sge_parse_jobtasks() unites the word's range and -t's; options qalter reads before the
    job words (-A, -dl, -e ...) leave a job word and the -t after them paired."""
    qmaster.reply("alter", [ok("modified hold of job-array task 7.2")])
    assert qhold.main(argv, transport=qmaster) == 0
    assert qmaster.last[1]["job_ids"] == sent


def test_an_option_read_after_the_job_words_leaves_the_t_lonely(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qhold 7 -h u -t 2: -h is read after the job words, so -t 2 follows no job word."""
    assert qhold.main(["7", "-h", "u", "-t", "2"], transport=qmaster) == 2
    assert capsys.readouterr().err == (
        "found lonely '-t 2' option (The -t option needs a leading job name).\n"
    )
    assert qmaster.calls == []


def test_an_empty_hold_list_is_taken_and_changes_nothing(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """qhold -h '' 7: sge_parse_hold_list() takes it (no hold named); the qmaster answers
    nothing, so nothing is printed and the exit code is 0."""
    qmaster.reply("alter", [])
    assert qhold.main(["-h", "", "7"], transport=qmaster) == 0
    assert qmaster.last[1]["hold"] == ""
    assert capsys.readouterr() == ("", "")
