"""Reporting and accounting lines: field order, safety, parsing back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.events.parse import ParseError, parse_accounting_line, parse_reporting_line
from qmaster.events.records import (
    Acct,
    ArAcct,
    ArAttr,
    ArLog,
    JobLog,
    NewAr,
    event_to_record,
    record_to_event,
)
from qmaster.events.testing import acct, job_log, new_job

ACCOUNTING_FIELDS = 45
plain_text = st.text(
    alphabet=st.characters(blacklist_characters=":\n\r", blacklist_categories=("Cs",)),
    max_size=20,
)


def test_accounting_line_has_every_field_in_order() -> None:
    """An accounting line has accounting(5)'s 45 fields: job number 6th, exit status 13th."""
    fields = acct(100, 42, exit_status=3, failed=0, ru_utime=1.5).accounting_line().split(":")
    assert len(fields) == ACCOUNTING_FIELDS
    assert fields[0] == "all.q"
    assert fields[5] == "42"
    assert fields[12] == "3"
    assert fields[14] == "1.500000"
    assert fields[-2:] == ["0", "0"]


def test_acct_reporting_line_wraps_the_accounting_line() -> None:
    """The reporting file's acct record is ``time:acct:`` plus the accounting line."""
    record = acct(123, 7)
    assert record.reporting_line() == f"123:acct:{record.accounting_line()}"


def test_job_log_writes_priority_after_state_time() -> None:
    """job_log lines follow the 6.2 qmaster: priority right after state_time."""
    line = job_log(5, "running", 9, priority=1024, state_time=0, message="go").reporting_line()
    fields = line.split(":")
    assert fields[:5] == ["5", "job_log", "5", "running", "9"]
    assert fields[10:13] == ["0", "1024", "5"]
    assert fields[-1] == "go"


def test_colons_in_free_text_do_not_add_fields() -> None:
    """A message with colons and newlines stays one line with the same field count."""
    line = job_log(5, "deleted", 9, message="a:b\nc:d").reporting_line()
    assert "\n" not in line
    assert len(line.split(":")) == len(job_log(5, "deleted", 9).reporting_line().split(":"))


def test_category_with_colons_is_read_back_whole() -> None:
    """A category holding colons (as a Grid Engine file may have it) is read back whole."""
    record = acct(100, 1, category="-l h_rt=1:00:00 -q all.q")
    written = acct(100, 1, category="CATEGORY").accounting_line()
    as_ge_writes = written.replace("CATEGORY", record.category)
    assert parse_accounting_line(as_ge_writes, time=100) == record


def test_accounting_lines_always_have_45_fields() -> None:
    """Colons in a category (a string request) or free text do not add fields."""
    record = acct(100, 1, category="-l arch=lx:amd64")
    assert len(record.accounting_line().split(":")) == 45


def test_unknown_job_log_event_is_refused() -> None:
    """A job_log event word GE does not write is an error."""
    with pytest.raises(ValueError, match="unknown job_log event"):
        job_log(1, "exploded", 1)


def test_ar_records_follow_ge_conventions() -> None:
    """AR records carry the submission time after the event time; the kind is ar_attr."""
    assert NewAr(1, 1, 7, "bob").reporting_line() == "1:new_ar:1:7:bob"
    attr = ArAttr(2, 2, 1, 7, "res", "sge", 10, 20, "mpi", "slots=4")
    assert attr.reporting_line() == "2:ar_attr:2:1:7:res:sge:10:20:mpi:slots=4"
    log = ArLog(3, 3, 1, 7, "r", "START TIME REACHED", "start")
    assert log.reporting_line() == "3:ar_log:3:1:7:r:START TIME REACHED:start"
    assert ArAcct(4, 4, 1, 7, "all.q", "node1", 2).reporting_line() == (
        "4:ar_acct:4:1:7:all.q:node1:2"
    )
    with pytest.raises(ValueError, match="unknown ar_log event"):
        ArLog(3, 3, 1, 7, "r", "EXPLODED", "")


@pytest.mark.parametrize(
    "record",
    [new_job(1, 2), job_log(3, "pending", 2, -1), acct(9, 2, failed=1, exit_status=137)],
)
def test_records_survive_the_event_mapping(record: object) -> None:
    """record_to_event/event_to_record give back the same record, tagged by its kind."""
    event = record_to_event(record)  # type: ignore[arg-type]
    assert event["type"] == record.KIND  # type: ignore[attr-defined]
    assert event_to_record(event) == record


def test_comments_and_short_lines_are_skipped() -> None:
    """Readers skip '#' comments and lines of at most one character, as accounting(5) says."""
    assert parse_reporting_line("# Version: x\n") is None
    assert parse_reporting_line("\n") is None
    assert parse_accounting_line("x\n") is None
    assert parse_reporting_line("1:host:node1:1:X:load_avg=0.1\n") is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("abc:job_log:1", "record time is not a number"),
        ("nonsense", "not a reporting record"),
        ("1:new_job:1:2", "expected 11 fields"),
        ("1:new_job:x:2:-1:NONE:a:b:c:d:e:f:0", "not a number"),
    ],
)
def test_bad_lines_get_a_clear_error(line: str, message: str) -> None:
    """A malformed line raises ParseError saying what is wrong."""
    with pytest.raises(ParseError, match=message):
        parse_reporting_line(line)


@given(
    name=plain_text, owner=plain_text, message=plain_text, category=st.text(max_size=30),
    job=st.integers(1, 2**32 - 1), t=st.integers(0, 2**32 - 1),
    exit_status=st.integers(0, 255), cpu=st.floats(0, 1e6),
)  # fmt: skip
def test_lines_parse_back_to_their_records(
    name: str, owner: str, message: str, category: str, job: int, t: int,
    exit_status: int, cpu: float,
) -> None:  # fmt: skip
    """Any record written as a line parses back to an equal record."""
    log = job_log(t, "finished", job, job_name=name, owner=owner, message=message)
    assert parse_reporting_line(log.reporting_line() + "\n") == log
    category = category.replace("\n", " ").replace("\r", " ").replace(":", "_")
    end = acct(t, job, job_name=name, exit_status=exit_status, category=category)
    parsed = parse_reporting_line(end.reporting_line())
    assert isinstance(parsed, Acct)
    assert parsed == end
    rounded = acct(t, job, cpu=cpu)
    back = parse_accounting_line(rounded.accounting_line(), time=t)
    assert back is not None
    assert back.cpu == pytest.approx(cpu, abs=1e-6)


@given(text=st.text(max_size=40))
def test_any_text_gives_one_line(text: str) -> None:
    """Whatever the text fields hold, a record is one line with a fixed field count."""
    line = job_log(1, "held", 1, message=text, job_name=text).reporting_line()
    assert "\n" not in line
    assert "\r" not in line
    assert len(line.split(":")) == 20
    assert isinstance(parse_reporting_line(line), JobLog)
