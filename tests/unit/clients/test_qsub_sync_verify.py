"""qsub -sync y waits for the job and exits with its status; -verify shows and submits nothing."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from clients import qsub
from clients.submit.sync import (
    RECORD_WAIT_SECONDS,
    AccountingTail,
    Ending,
    accounting_mark,
    ending_line,
    polls,
    read_endings,
    wait_for_end,
)
from qmaster.gdi.answers import ok
from qmaster.gdi.client import Reply

from .conftest import FakeQmaster


def acct_row(job_id: int, task: int, exit_status: int, start: int = 100) -> str:
    fields = ["all.q", "host1", "users", "alice", "x", str(job_id), "sge", "0", "90", str(start)]
    fields += ["200", "0", str(exit_status)] + ["0"] * 18 + ["NONE", "defaultdepartment", "NONE"]
    fields += ["1", str(task), "0", "0", "0", "-u alice", "0", "NONE", "0", "0", "0"]
    return ":".join(fields) + "\n"


@pytest.mark.parametrize(
    ("ending", "text", "code"),
    [
        (Ending(0, 3, True), "Job 9 exited with exit code 3.", 3),
        (Ending(0, 137, True), "Job 9 exited because of signal SIGKILL", 1),
        (Ending(0, 0, False), "Unable to run job 9", 0),
        (None, "Unable to run job 9", 0),
    ],
)
def test_each_ending_is_reported_as_qsub_does(ending: Ending | None, text: str, code: int) -> None:
    """An exit code, a signal and a job that never ran each get qsub -sync's line and code
    (Grid Engine's report_exit_status: a job that never ran, japi's 'aborted', counts 0)."""
    assert ending_line("9", ending) == (text, code)


def test_sync_waits_until_the_job_is_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The qmaster is asked until the job is gone; each task's line, first non-zero code."""
    accounting = tmp_path / "accounting"
    accounting.write_text(acct_row(8, 1, 0) + acct_row(7, 1, 5) + acct_row(7, 2, 0))
    answers = iter([True, True, False])
    calls: list[Any] = []

    def transport(op: str, args: dict[str, Any]) -> Reply:
        calls.append((op, args))
        return Reply([], {"jobs": [{"job_id": 7}] if next(answers) else []})

    pauses: list[float] = []
    assert wait_for_end(transport, 7, [1, 2], accounting, sleep=pauses.append) == 5
    assert capsys.readouterr().out == (
        "Job 7.1 exited with exit code 5.\nJob 7.2 exited with exit code 0.\n"
    )
    assert calls == [("job_detail", {"job_ids": ["7"]})] * 3
    assert pauses == [0.02, 0.04]  # a short job's end is seen at once
    assert set(read_endings(accounting, 8)) == {1}


def gone(finished: list[dict[str, Any]]) -> Any:
    """A qmaster whose job_detail says the job is gone, naming ``finished`` jobs."""

    def transport(op: str, args: dict[str, Any]) -> Reply:
        return Reply([], {"jobs": [], "missing": args["job_ids"], "finished": finished})

    return transport


def test_sync_reports_a_job_deleted_before_it_ran_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A job deleted while pending (the qmaster names it finished, never started) has no
    record to wait for: Unable to run job, exit 0, with no pause; when the qmaster no
    longer keeps the job, its record is waited for as long as before, then the same line."""
    accounting = tmp_path / "accounting"
    pauses: list[float] = []
    never = gone([{"job_id": 7, "never_started": [[0, 0, 1]]}])
    assert wait_for_end(never, 7, [], accounting, sleep=pauses.append) == 0
    assert capsys.readouterr().out == "Unable to run job 7\n"
    assert pauses == []
    dropped = gone([{"job_id": 6, "never_started": [[0, 0, 1]]}])  # another job
    assert wait_for_end(dropped, 7, [], accounting, sleep=pauses.append) == 0
    assert capsys.readouterr().out == "Unable to run job 7\n"
    assert sum(pauses) >= RECORD_WAIT_SECONDS


def test_sync_waits_only_for_the_records_of_tasks_that_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Of an array whose tasks 2-3 were deleted while pending, only task 1's record is
    waited for (it comes after the job is gone, as the qmaster flushes it later); its
    exit status is read from it."""
    accounting = tmp_path / "accounting"
    accounting.write_text("")
    since = accounting_mark(accounting)
    pauses: list[float] = []

    def sleep(pause: float) -> None:
        pauses.append(pause)
        if len(pauses) == 2:
            with accounting.open("a") as f:
                f.write(acct_row(7, 1, 4))

    transport = gone([{"job_id": 7, "never_started": [[2, 3, 1]]}])
    assert wait_for_end(transport, 7, [1, 2, 3], accounting, sleep=sleep, since=since) == 4
    assert capsys.readouterr().out == (
        "Job 7.1 exited with exit code 4.\nUnable to run job 7.2\nUnable to run job 7.3\n"
    )
    assert pauses == [0.02, 0.04]


def test_sync_reads_only_records_written_after_the_submission(tmp_path: Path) -> None:
    """A record of the same job id from before the submission (ids wrapped) is not this
    job's ending; records appended later are read as they come, half a line left for later."""
    accounting = tmp_path / "accounting"
    accounting.write_text(acct_row(7, 0, 9))
    since = accounting_mark(accounting)
    tail = AccountingTail(accounting, 7, since)
    assert tail.endings() == {}
    whole = acct_row(7, 0, 3)
    with accounting.open("a") as f:
        f.write(whole[:20])
    assert tail.endings() == {}
    with accounting.open("a") as f:
        f.write(whole[20:])
    assert tail.endings() == {0: Ending(0, 3, True)}
    assert read_endings(accounting, 7) == {0: Ending(0, 3, True)}  # the whole file: last wins


def test_sync_reads_a_rotated_accounting_file_from_its_start(tmp_path: Path) -> None:
    """The file rotated away while the job ran (a new file, already longer than where the
    old one ended): the job's record in the new file is read, from its start."""
    accounting = tmp_path / "accounting"
    accounting.write_text(acct_row(5, 0, 0))
    tail = AccountingTail(accounting, 7, accounting_mark(accounting))
    accounting.rename(tmp_path / "accounting.0")
    accounting.write_text(acct_row(7, 0, 6) + acct_row(8, 0, 0) * 3)
    assert tail.endings() == {0: Ending(0, 6, True)}


def test_sync_asks_less_and_less_often_up_to_once_a_second() -> None:
    """The pauses between questions double from 20 ms and stop growing at a second."""
    found = list(itertools.islice(polls(), 9))
    assert found == [0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.0, 1.0, 1.0]


def test_verify_shows_the_job_and_submits_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    qmaster: FakeQmaster,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """qsub -verify prints the job in qstat -j's layout and sends no request."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SGE_ROOT", str(tmp_path))
    (tmp_path / "job.sh").write_text("#$ -N shown\nsleep 1\n")
    qmaster.reply("submit", [ok("must not be sent")])
    assert qsub.main(["-verify", "-A", "proj", "job.sh"], transport=qmaster) == 0
    out = capsys.readouterr().out
    assert "job_number:                 unassigned\n" in out
    assert "account:                    proj\n" in out
    assert "job_name:                   shown\n" in out
    assert qmaster.calls == []
