"""qrsub: switches into an ArSpec, answers on stdout, exit codes 0/1/25, usage errors."""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients import qrsub
from qmaster.gdi.answers import Status, error, ok, warning

from .ar_support import isolate_cell, local_zone
from .conftest import FakeQmaster

GRANTED = "Your advance reservation 1 has been granted"


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Every test runs in UTC against an empty cell and an empty HOME."""
    home = isolate_cell(monkeypatch, tmp_path)
    with local_zone("UTC"):
        yield home


def _sent(qmaster: FakeQmaster) -> dict[str, object]:
    op, args = qmaster.last
    assert op == "ar_submit"
    spec = args["ar"]
    assert isinstance(spec, dict)
    return spec


def test_granted_reservation_prints_the_answer_and_exits_0(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """The qmaster's grant text goes to stdout, exit 0."""
    qmaster.reply("ar_submit", [ok(GRANTED)], {"ar_id": 1})
    assert qrsub.main(["-a", "203001011000", "-d", "1:0:0"], transport=qmaster) == 0
    assert capsys.readouterr().out == GRANTED + "\n"
    assert qmaster.last[1]["verify"] == "e"


def test_every_switch_lands_in_the_spec(qmaster: FakeQmaster) -> None:
    """Each qrsub switch fills its ArSpec key with the parsed value."""
    qrsub.main(
        [
            *("-a", "203001011000", "-e", "203001011130.15", "-d", "5415"),
            *("-N", "nightly", "-A", "proj", "-l", "arch=lx-amd64,h_rt=1:0:0"),
            *("-u", "bob,@staff", "-u", "carol", "-q", "all.q", "-pe", "mpi", "2-4"),
            *("-masterq", "all.q@h1", "-ckpt", "blcr", "-now", "y", "-m", "be"),
            *("-M", "a@x,b@y", "-he", "yes", "-w", "v"),
        ],
        transport=qmaster,
    )
    assert _sent(qmaster) == {
        "a": float(calendar.timegm((2030, 1, 1, 10, 0, 0))),
        "e": float(calendar.timegm((2030, 1, 1, 11, 30, 15))),
        "d": 5415.0,
        "N": "nightly",
        "A": "proj",
        "l_hard": {"arch": "lx-amd64", "h_rt": "1:0:0"},
        "u": ["bob", "@staff", "carol"],
        "q_hard": ["all.q"],
        "pe_name": "mpi",
        "pe_min": 2,
        "pe_max": 4,
        "masterq": ["all.q@h1"],
        "ckpt": "blcr",
        "now": True,
        "m": "be",
        "M": ["a@x", "b@y"],
        "he": True,
    }
    assert qmaster.last[1]["verify"] == "v"


def test_only_what_was_given_is_sent(qmaster: FakeQmaster) -> None:
    """With only -d the start is left to the qmaster (now); nothing else is invented."""
    qrsub.main(["-d", "600"], transport=qmaster)
    assert _sent(qmaster) == {"d": 600.0}


def test_mail_options_accumulate_and_n_resets(qmaster: FakeQmaster) -> None:
    """-m letters add up over several switches; -m n clears them."""
    qrsub.main(["-d", "60", "-m", "b", "-m", "a"], transport=qmaster)
    assert _sent(qmaster)["m"] == "ab"  # Grid Engine's order
    qrsub.main(["-d", "60", "-m", "be", "-m", "n"], transport=qmaster)
    assert _sent(qmaster)["m"] == "n"


def test_start_alone_is_missing_end_or_duration(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-a without -e or -d is refused on stdout with exit 1, nothing sent."""
    assert qrsub.main(["-a", "203001011000"], transport=qmaster) == 1
    assert capsys.readouterr().out == (
        'missing value for "end time or duration" in advance reservation request\n'
    )
    assert qmaster.calls == []


def test_three_times_must_agree(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """-a, -e and -d together must satisfy end - start = duration."""
    argv = ["-a", "203001011000", "-e", "203001011100", "-d", "1800"]
    assert qrsub.main(argv, transport=qmaster) == 1
    assert capsys.readouterr().out == (
        "difference between end and start time does not correspond to duration\n"
    )


def test_end_before_start_is_refused(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-e earlier than -a is refused on stdout."""
    assert qrsub.main(["-a", "203001011100", "-e", "203001011000"], transport=qmaster) == 1
    assert capsys.readouterr().out == "start time is later than end time\n"


def test_refusals_are_printed_on_stdout_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A qmaster error is printed on stdout, not stderr, and exits 1."""
    qmaster.reply("ar_submit", [error("start time is in the past", Status.EEXIST)])
    assert qrsub.main(["-a", "201001011000", "-d", "60"], transport=qmaster) == 1
    captured = capsys.readouterr()
    assert captured.out == "start time is in the past\n"
    assert captured.err == ""


def test_cluster_limit_exits_25(qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]) -> None:
    """max_advance_reservations (NOTOK_DOAGAIN) ends with exit 25."""
    text = "rejected: only 2 advance reservations are allowed per cluster"
    qmaster.reply("ar_submit", [error(text, Status.NOTOK_DOAGAIN)])
    assert qrsub.main(["-d", "60"], transport=qmaster) == 25
    assert capsys.readouterr().out == text + "\n"


def test_verify_negative_is_info_and_exits_0(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-w v reports 'no suitable queues' as information, exit 0."""
    qmaster.reply("ar_submit", [ok("verification: no suitable queues")])
    assert qrsub.main(["-d", "60", "-w", "v"], transport=qmaster) == 0
    assert capsys.readouterr().out == "verification: no suitable queues\n"


@pytest.mark.parametrize(
    ("argv", "first_line"),
    [
        (
            ["-a", "01321000", "-d", "60"],
            'ERROR! Wrong date/time format "01321000" specified to -a option',
        ),
        (
            ["-e", "1301100", "-d", "60"],
            'ERROR! Wrong date/time format "1301100" specified to -a option',
        ),
        (["-e", "1301100"], 'ERROR! Wrong date/time format "1301100" specified to -a option'),
        (["-d", "1:2:3:4"], 'ERROR! Wrong time format "1:2:3:4" specified to -d option'),
        (["-w", "p", "-d", "60"], 'invalid option argument "-w p"'),
        (["-now", "maybe", "-d", "60"], 'invalid option argument "-now maybe"'),
        (["-he", "sure", "-d", "60"], 'invalid option argument "-he sure"'),
        (
            ["-m", "bs", "-d", "60"],
            'ERROR! Wrong mail options list format "bs" specified to -m option',
        ),
        (["-pe", "mpi", "x", "-d", "60"], "ERROR! -pe option must have range as 2nd argument"),
        (["-pe", "mpi"], "ERROR! -pe option must have range as 2nd argument"),
        (["-N", "a/b", "-d", "60"], "ERROR! argument to -N option must not contain / "),
        (["-d"], "ERROR! -d option must have argument"),
        (["-bogus", "-d", "60"], 'ERROR! invalid option argument "-bogus"'),
        (["-d", "60", "script.sh"], 'ERROR! invalid option argument "script.sh"'),
    ],
)
def test_bad_switches_are_reported_on_stderr_with_exit_1(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str], argv: list[str], first_line: str
) -> None:
    """Each bad switch or value gives Grid Engine's text on stderr, exit 1, nothing sent."""
    assert qrsub.main(argv, transport=qmaster) == 1
    captured = capsys.readouterr()
    lines = [line.removeprefix("qrsub: ") for line in captured.err.splitlines()]
    assert first_line in lines
    assert not any(line.startswith("Invalid ") for line in lines)  # no date parser reason
    assert captured.out == ""
    assert qmaster.calls == []


def test_unknown_option_is_one_prefixed_line(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown switch is 'qrsub: ERROR! invalid option argument', without the usage."""
    assert qrsub.main(["-bogus"], transport=qmaster) == 1
    assert capsys.readouterr().err == 'qrsub: ERROR! invalid option argument "-bogus"\n'


def test_no_options_prints_usage_then_error(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without any option: usage on stderr, then 'ERROR! no option argument', exit 1."""
    assert qrsub.main([], transport=qmaster) == 1
    err = capsys.readouterr().err
    assert err.startswith("usage: qrsub")
    assert err.rstrip("\n").endswith("ERROR! no option argument")
    assert qmaster.calls == []


def test_help_prints_usage_on_stdout(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """-help prints Grid Engine's version line and the usage on stdout and exits 0."""
    assert qrsub.main(["-help"], transport=qmaster) == 0
    assert capsys.readouterr().out.startswith("GE 6.2u5\nusage: qrsub")


def test_default_files_apply_below_the_command_line(
    qmaster: FakeQmaster, tmp_path: Path, home: Path
) -> None:
    """The cell file, then ~/.sge_ar_request, then the command line; later wins."""
    (tmp_path / "default" / "common" / "sge_ar_request").write_text(
        "# cluster defaults\n-A cellacct -N cellname\n-l arch=x\n"
    )
    (home / ".sge_ar_request").write_text("-N homename -u bob\n")
    qrsub.main(["-d", "60", "-u", "carol"], transport=qmaster)
    spec = _sent(qmaster)
    assert spec["A"] == "cellacct"
    assert spec["N"] == "homename"
    assert spec["u"] == ["bob", "carol"]
    assert spec["l_hard"] == {"arch": "x"}


def test_default_files_count_as_options(qmaster: FakeQmaster, home: Path) -> None:
    """With a duration in ~/.sge_ar_request, a bare qrsub is a valid request."""
    (home / ".sge_ar_request").write_text("-d 1:0:0\n")
    qmaster.reply("ar_submit", [ok(GRANTED)])
    assert qrsub.main([], transport=qmaster) == 0
    assert _sent(qmaster) == {"d": 3600.0}


def test_warnings_of_the_qmaster_are_printed_too(
    qmaster: FakeQmaster, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every answer text is printed on stdout, whatever its quality."""
    qmaster.reply("ar_submit", [warning("careful"), ok(GRANTED)])
    assert qrsub.main(["-d", "60"], transport=qmaster) == 0
    assert capsys.readouterr().out == f"careful\n{GRANTED}\n"


def test_dates_follow_the_local_zone(qmaster: FakeQmaster) -> None:
    """-a is read in the caller's zone: 10:00 in New York is 15:00 UTC in winter."""
    with local_zone("America/New_York"):
        qrsub.main(["-a", "203001011000", "-d", "60"], transport=qmaster)
    assert _sent(qmaster)["a"] == float(calendar.timegm((2030, 1, 1, 15, 0, 0)))
