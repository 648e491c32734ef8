"""The SEG mapping: reporting records to GRAM state messages, and exact-resume cursors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.events.records import Record
from qmaster.events.seg import (
    ACTIVE,
    DONE,
    FAILED,
    PENDING,
    SUSPENDED,
    Cursor,
    CursorError,
    Scanner,
    parse_message,
)
from qmaster.events.testing import acct, job_log, new_job


def lines(*records: Record) -> list[bytes]:
    """Reporting lines as seg reads them."""
    return [r.reporting_line().encode() + b"\n" for r in records]


ORIGIN = Cursor(0)


def messages(records: list[Record], start: Cursor = ORIGIN, cursor: bool = False) -> list[str]:
    """What seg prints for these records."""
    out = Scanner(start, with_cursor=cursor).feed(lines(*records))
    return [m.decode().rstrip("\n") for m in out]


def test_job_that_succeeds() -> None:
    """pending, running, then acct with exit 0 give PENDING, ACTIVE, DONE 0."""
    life = [new_job(1, 5), job_log(1, "pending", 5, -1), job_log(2, "sent", 5),
            job_log(2, "running", 5), job_log(9, "finished", 5), acct(9, 5)]  # fmt: skip
    assert messages(life) == [f"001;1;5;{PENDING};0", f"001;2;5;{ACTIVE};0", f"001;9;5;{DONE};0"]


def test_nonzero_exit_is_done_with_its_code() -> None:
    """A job that ran and exited 3 is DONE with exit code 3."""
    assert messages([acct(9, 5, exit_status=3)]) == [f"001;9;5;{DONE};3"]


def test_failed_job_is_failed() -> None:
    """An acct record with failed != 0 (e.g. killed by h_rt) is FAILED with its exit status."""
    assert messages([acct(9, 5, failed=100, exit_status=137)]) == [f"001;9;5;{FAILED};137"]


def test_deleted_job_fails_once() -> None:
    """A deleted running job is FAILED once; its later acct record adds nothing."""
    out = messages([job_log(3, "deleted", 5), acct(4, 5, failed=100, exit_status=137)])
    assert out == [f"001;3;5;{FAILED};0"]


def test_suspend_and_resume() -> None:
    """suspended gives SUSPENDED, unsuspended ACTIVE again."""
    out = messages([job_log(3, "suspended", 5), job_log(4, "unsuspended", 5)])
    assert out == [f"001;3;5;{SUSPENDED};0", f"001;4;5;{ACTIVE};0"]


def test_array_tasks_are_job_dot_task() -> None:
    """Array task events name the job as JOB.TASK."""
    out = messages([job_log(3, "running", 5, 7), acct(4, 5, task_number=7)])
    assert out == [f"001;3;5.7;{ACTIVE};0", f"001;4;5.7;{DONE};0"]


def test_pe_tasks_are_not_job_states() -> None:
    """Records of PE tasks produce no message."""
    out = messages([job_log(3, "running", 5, pe_taskid="1.node"), acct(4, 5, pe_taskid="1.n")])
    assert out == []


def test_replay_starts_at_the_timestamp() -> None:
    """-t T skips records before second T and keeps those of T and later."""
    recs: list[Record] = [job_log(t, "running", t) for t in (10, 11, 12)]
    assert [m.split(";")[1] for m in messages(recs, Cursor(11))] == ["11", "12"]


def test_comments_and_garbage_are_ignored() -> None:
    """Header comments, blank and garbled lines produce nothing and do not stop the scan."""
    feed = [b"# Version: x\n", b"\n", b"junk\n", b"x:job_log:1\n", *lines(job_log(3, "held", 5))]
    assert Scanner(Cursor(0)).feed(feed) == [f"001;3;5;{PENDING};0\n".encode()]


def test_cursor_field_only_when_asked() -> None:
    """Plain output has five fields; -c adds the cursor as a sixth."""
    recs: list[Record] = [new_job(3, 5), job_log(3, "pending", 5)]
    assert messages(recs) == [f"001;3;5;{PENDING};0"]
    assert messages(recs, cursor=True) == [f"001;3;5;{PENDING};0;3.2"]


@given(
    times=st.lists(st.integers(100, 103), min_size=1, max_size=30).map(sorted),
    data=st.data(),
)
def test_resume_at_any_cursor_neither_loses_nor_repeats(
    times: list[int], data: st.DataObject
) -> None:
    """Resuming after any message's cursor yields exactly the messages after it."""
    recs: list[Record] = [job_log(t, "running", i + 1) for i, t in enumerate(times)]
    full = messages(recs, cursor=True)
    k = data.draw(st.integers(0, len(full) - 1))
    cursor = Cursor.parse(full[k].split(";")[5])
    assert messages(recs, cursor, cursor=True) == full[k + 1 :]


@given(t=st.integers(0, 2**40), k=st.integers(0, 10**6))
def test_cursor_text_round_trips(t: int, k: int) -> None:
    """A cursor printed by seg parses back to itself."""
    assert Cursor.parse(str(Cursor(t, k))) == Cursor(t, k)


@pytest.mark.parametrize("text", ["", "abc", "12.x", "-5", "1.-2", "1.2.3", "1."])
def test_bad_timestamps_are_refused(text: str) -> None:
    """Anything but T or T.K is an invalid timestamp."""
    with pytest.raises(CursorError, match="invalid timestamp"):
        Cursor.parse(text)


def test_message_parser_reads_both_forms() -> None:
    """parse_message reads five- and six-field 001 lines and ignores others."""
    plain = parse_message("001;5;42;8;3\n")
    assert plain is not None
    assert (plain.timestamp, plain.job_id, plain.state, plain.exit_code) == (5, "42", 8, 3)
    assert plain.cursor is None
    with_cursor = parse_message("001;5;42.1;2;0;5.3")
    assert with_cursor is not None
    assert with_cursor.cursor == Cursor(5, 3)
    assert parse_message("002;5;x") is None
    assert parse_message("001;x;42;8;3") is None


def test_deleted_running_job_ends_with_its_acct_even_when_resumed_between() -> None:
    """qdel of a running job: acct (FAILED 137) is the end; resuming after it repeats nothing."""
    records: list[Record] = [
        acct(4, 5, failed=100, exit_status=137),
        job_log(4, "deleted", 5, state="dr"),
    ]
    assert messages(records) == [f"001;4;5;{FAILED};137"]
    assert messages(records, start=Cursor.parse("4.1")) == []


def test_job_deleted_before_it_ran_ends_with_the_job_log() -> None:
    """A pending job that is deleted reads FAILED with exit code 0."""
    assert messages([job_log(4, "deleted", 5, state="qw")]) == [f"001;4;5;{FAILED};0"]
