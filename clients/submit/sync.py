"""``qsub -sync y``: wait for the job to end and exit with its exit status.

(``-now y`` needs no waiting here: the qmaster runs the pass the immediate job
waits for inside the submission and answers with its decision.)

As Grid Engine's qsub (``report_exit_status()``, msg_qsub.h 21013, 21009,
21008): one line per task, ``Job 5 exited with exit code 0.`` (``Job 5.2 ...``
for an array task), ``Job 5 exited because of signal SIGKILL``, or ``Unable to
run job 5`` for a task that never ran (japi's "aborted": it counts as 0); the
exit code is the first non-zero one (1 after a signal). The end of the job is seen by asking the qmaster until the job
is gone (at once for a short job, then less and less often, once a second
at most); how it ended is read from the cell's accounting file: only what was
appended to it since the submission, and each time only what is new (a cell's
accounting file holds every job that ever ended; a job id used again after the
ids wrapped must not be read as this job).

The last answer that the job is gone also names the tasks that never started
(deleted while pending), as long as the qmaster still keeps the job among its
finished ones (``qstat -s z``, the last ``finished_jobs``): those have no record
to wait for, and their line is printed at once, as Grid Engine's qsub knows at
once that a job was aborted. The records of tasks that ran are buffered by the
qmaster until ``flush_time``, but an answer that names a job gone writes them
first, so they are there when the answer is; should one still be missing (a
full disk), it is waited for, up to RECORD_WAIT_SECONDS; so is every task when
the qmaster no longer keeps the job (its answer names no tasks never started).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from clients.common.output import out
from qmaster.digits import is_digits
from qmaster.gdi.client import Reply

Transport = Callable[[str, dict[str, Any]], Reply]

FIRST_POLL_SECONDS = 0.02  # a short job's end is seen at once,
POLL_SECONDS = 1.0  # a long one's asked for once a second at most
RECORD_WAIT_SECONDS = 15.0


def polls(first: float = FIRST_POLL_SECONDS, most: float = POLL_SECONDS) -> Iterator[float]:
    """The pauses between questions: doubling from ``first`` up to ``most``."""
    pause = first
    while True:
        yield pause
        pause = min(most, pause * 2)


@dataclass(frozen=True, slots=True)
class Ending:
    """How one task ended, from its accounting record (``None``: no record)."""

    task: int
    exit_status: int | None
    ran: bool


class Mark(NamedTuple):
    """Where the accounting file ended: the file (its inode; 0: none yet) and its size."""

    inode: int
    size: int


NO_FILE = Mark(0, 0)  # read the whole file


def accounting_mark(path: Path) -> Mark:
    """Where the accounting file ends now: records after it are new."""
    try:
        found = path.stat()
    except OSError:
        return NO_FILE
    return Mark(found.st_ino, found.st_size)


class AccountingTail:
    """One job's records appended to the accounting file after ``since``, read as they
    come: each read takes only the whole lines written since the last one, a megabyte at a
    time. A file rotated away (another inode, or cut shorter) is read from its start."""

    CHUNK = 1 << 20

    def __init__(self, path: Path, job_id: int, since: Mark = NO_FILE) -> None:
        self.path = path
        self.job_id = str(job_id)
        self.inode, self.offset = since
        self.found: dict[int, Ending] = {}

    def endings(self) -> dict[int, Ending]:
        """The job's records seen so far, by task number (0 for a plain job)."""
        try:
            with self.path.open("rb") as f:
                self._read(f)
        except OSError:
            pass
        return self.found

    def _read(self, f: BinaryIO) -> None:
        inode = os.fstat(f.fileno()).st_ino
        if inode != self.inode or f.seek(0, 2) < self.offset:
            self.inode, self.offset = inode, 0
        f.seek(self.offset)
        while data := f.read(self.CHUNK):
            whole = data[: data.rfind(b"\n") + 1]
            if not whole:
                return  # a line still being written: read it whole next time
            self.offset += len(whole)
            f.seek(self.offset)
            for row in whole.decode("utf-8", errors="replace").splitlines():
                self._take(row.split(":"))

    def _take(self, fields: list[str]) -> None:
        if len(fields) < 36 or fields[5] != self.job_id:
            return
        task = int(fields[35]) if is_digits(fields[35]) else 0
        ran = fields[9] not in ("", "0")
        status = int(fields[12]) if is_digits(fields[12].lstrip("-")) else None
        self.found[task] = Ending(task, status, ran)


def read_endings(path: Path, job_id: int) -> dict[int, Ending]:
    """The accounting records of ``job_id`` in the whole file, by task number."""
    return AccountingTail(path, job_id).endings()


def ending_line(name: str, ending: Ending | None) -> tuple[str, int]:
    """The line qsub -sync prints for one task, and the exit code it stands for."""
    if ending is None or not ending.ran or ending.exit_status is None:
        return f"Unable to run job {name}", 0
    status = ending.exit_status
    if 128 < status < 160:
        try:
            signame = signal.Signals(status - 128).name
        except ValueError:
            signame = str(status - 128)
        return f"Job {name} exited because of signal {signame}", 1
    return f"Job {name} exited with exit code {status}.", status


def wait_for_end(
    transport: Transport,
    job_id: int,
    tasks: list[int],
    accounting: Path,
    sleep: Callable[[float], None] = time.sleep,
    since: Mark = NO_FILE,
) -> int:
    """Wait until the job is gone; print how each task ended; the exit code.
    ``since``: where the accounting file ended when the job was submitted."""
    pauses = polls()
    while (gone := _gone(transport, job_id)) is None:
        sleep(next(pauses))
    wanted = tasks or [0]
    awaited = [t for t in wanted if not any(t in run for run in gone)]
    tail = AccountingTail(accounting, job_id, since)
    endings = tail.endings()
    waited, pauses = 0.0, polls()
    while any(t not in endings for t in awaited) and waited < RECORD_WAIT_SECONDS:
        pause = next(pauses)
        sleep(pause)
        waited += pause
        endings = tail.endings()
    code = 0
    for task in wanted:
        name = f"{job_id}.{task}" if tasks else str(job_id)
        text, task_code = ending_line(name, endings.get(task))
        out(text)
        code = code or task_code
    return code


def _gone(transport: Transport, job_id: int) -> list[range] | None:
    """``None`` while the qmaster still has the job; once it is gone, the runs of its
    tasks that never started (none known when the qmaster no longer keeps the job)."""
    reply = transport("job_detail", {"job_ids": [str(job_id)]})
    data = (reply.data or {}) if reply.ok else {}
    if data.get("jobs"):
        return None
    for job in data.get("finished") or []:
        if job.get("job_id") == job_id:
            return [range(first, last + 1, step) for first, last, step in job["never_started"]]
    return []
