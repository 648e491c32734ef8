"""The Scheduler Event Generator protocol: reporting records in, ``001`` messages out.

Pure and standard library only; ``seg`` (the command) and the Job State Monitor
(:mod:`qmaster.jsm`) share it.

Messages are ``001;TIMESTAMP;JOBID;STATE;EXIT_CODE`` with the GRAM states
PENDING 1, ACTIVE 2, FAILED 4, DONE 8, SUSPENDED 16. TIMESTAMP is the
record's time (the first field of the reporting line), so a consumer that
restarts ``seg -t TIMESTAMP`` gets that event again. JOBID is the job number,
or ``job.task`` for array tasks.

Mapping from the reporting file (PE task records are not job states and are
skipped):

===========================================  ==================================
``job_log`` pending, held, released, restart  PENDING
``job_log`` running, unsuspended              ACTIVE
``job_log`` suspended                         SUSPENDED
``job_log`` deleted (never ran)               FAILED, exit code 0
``acct`` with ``failed`` 0                    DONE, exit code = ``exit_status``
``acct`` with ``failed`` ≠ 0                  FAILED, exit code = ``exit_status``
===========================================  ==================================

Other ``job_log`` events (sent, delivered, finished, error...) say nothing a
GRAM client can use. A job gets one terminal message per run: a task that
ran ends with its ``acct`` record; the ``deleted`` job_log of such a task
carries the state ``dr`` and is not a second end (so resuming from a cursor
between the two repeats nothing). Only a task deleted before it ran ends with
its ``deleted`` job_log.

Exact resume. A plain ``-t T`` replays every record with time ≥ T, so a
consumer resuming at the timestamp of its last event sees the events of that
second again. ``seg`` therefore also accepts a *cursor* ``-t T.K``: the
records with time T are numbered 1, 2, ... in file order, and ``T.K`` resumes
just after the K-th one, so nothing is lost or repeated. With ``-c`` every
message carries its cursor as a sixth field (``001;T;JOBID;STATE;EXIT;T.K``);
without ``-c`` the output is the plain five-field protocol. Numbering starts
again when the reporting file is rotated, since a restarted ``seg`` reads
only the current file.
"""

from __future__ import annotations

from dataclasses import dataclass

from qmaster.digits import is_digits

PENDING = 1
ACTIVE = 2
FAILED = 4
DONE = 8
SUSPENDED = 16

JOB_LOG_STATES: dict[bytes, int] = {
    b"pending": PENDING,
    b"held": PENDING,
    b"released": PENDING,
    b"restart": PENDING,
    b"running": ACTIVE,
    b"unsuspended": ACTIVE,
    b"suspended": SUSPENDED,
    b"deleted": FAILED,
}

_ACCT_JOB_NUMBER = 5
_ACCT_FAILED = 11
_ACCT_EXIT = 12
_ACCT_TASK = 35  # before category, so counted from the start
_ACCT_PETASK_FROM_END = 4  # after category (which may hold colons): from the end
_NONE = (b"NONE", b"none")
_TERMINAL_KEEP = 200_000
_COUNT_KEEP = 100_000


class CursorError(ValueError):
    """A ``-t`` value that is neither a timestamp nor a cursor."""


@dataclass(frozen=True, slots=True, order=True)
class Cursor:
    """A position in the reporting file: after the ``index``-th record of second ``time``."""

    time: int
    index: int = 0

    @classmethod
    def parse(cls, text: str) -> Cursor:
        """``T`` (replay from second T) or ``T.K`` (resume after the K-th record of T)."""
        head, dot, tail = text.strip().partition(".")
        try:
            time = int(head)
            index = int(tail) if dot else 0
        except ValueError:
            raise CursorError(f'invalid timestamp "{text}"') from None
        if time < 0 or index < 0 or (dot and not is_digits(tail)):
            raise CursorError(f'invalid timestamp "{text}"')
        return cls(time, index)

    def __str__(self) -> str:
        return f"{self.time}.{self.index}"


@dataclass(frozen=True, slots=True)
class SegEvent:
    """One parsed ``001`` message."""

    timestamp: int
    job_id: str
    state: int
    exit_code: int
    cursor: Cursor | None = None


def parse_message(line: str) -> SegEvent | None:
    """The event of a ``001`` line; ``None`` for other message types or garbage."""
    parts = line.rstrip("\n").split(";")
    if len(parts) < 5 or parts[0] != "001":
        return None
    try:
        cursor = Cursor.parse(parts[5]) if len(parts) > 5 and parts[5] else None
        return SegEvent(int(parts[1]), parts[2], int(parts[3]), int(parts[4]), cursor)
    except ValueError:
        return None


def _job_id(job: bytes, task: bytes) -> bytes:
    if task in (b"0", b"-1", b""):
        return job
    return job + b"." + task


class Scanner:
    """Turns reporting lines into ``001`` messages, from a cursor on.

    Feed it complete lines (bytes, newline included or not) with :meth:`feed`;
    it returns the encoded messages. Call :meth:`rotated` when the file
    changes under the reader.
    """

    def __init__(self, start: Cursor, *, with_cursor: bool = False) -> None:
        self.start = start
        self.with_cursor = with_cursor
        self._counts: dict[int, int] = {}
        self._terminal: dict[bytes, None] = {}
        self.records = 0

    def rotated(self) -> None:
        """A new reporting file begins: record numbering restarts."""
        self._counts.clear()

    def _number(self, t: int) -> int:
        counts = self._counts
        k = counts.get(t, 0) + 1
        counts[t] = k
        if len(counts) > _COUNT_KEEP:
            newest = max(counts)
            for old in [x for x in counts if x < newest - 3600]:
                del counts[old]
        return k

    def _emit(
        self, out: list[bytes], pos: tuple[int, int], jid: bytes, state: int, code: bytes
    ) -> None:
        if state in (FAILED, DONE):
            if jid in self._terminal:
                return
            self._terminal[jid] = None
            if len(self._terminal) > _TERMINAL_KEEP:
                del self._terminal[next(iter(self._terminal))]
        tail = b";%d.%d\n" % pos if self.with_cursor else b"\n"
        out.append(b"001;%d;%s;%d;%s%s" % (pos[0], jid, state, code, tail))

    def feed(self, lines: list[bytes]) -> list[bytes]:
        """The messages for these lines, in order."""
        out: list[bytes] = []
        start_t, start_k = self.start.time, self.start.index
        for line in lines:
            if len(line) <= 2 or line[0] == 35:  # '#'
                continue
            head = line.split(b":", 2)
            if len(head) < 3:
                continue
            try:
                t = int(head[0])
            except ValueError:
                continue
            self.records += 1
            k = self._number(t)
            if t < start_t or (t == start_t and k <= start_k):
                continue
            kind = head[1]
            if kind == b"job_log":
                self._job_log(out, t, k, head[2])
            elif kind == b"acct":
                self._acct(out, t, k, head[2])
        return out

    def _job_log(self, out: list[bytes], t: int, k: int, body: bytes) -> None:
        f = body.split(b":", 5)
        if len(f) < 6:
            return
        state = JOB_LOG_STATES.get(f[1])
        if state is None or f[4] not in _NONE:
            return
        if f[1] == b"deleted" and f[5].split(b":", 1)[0] == b"dr":
            return  # the task ran: its acct record is its end
        self._emit(out, (t, k), _job_id(f[2], f[3]), state, b"0")

    def _acct(self, out: list[bytes], t: int, k: int, body: bytes) -> None:
        f = body.rstrip(b"\r\n").split(b":")
        if len(f) < 45 or f[-_ACCT_PETASK_FROM_END] not in _NONE:
            return
        state = DONE if f[_ACCT_FAILED] == b"0" else FAILED
        jid = _job_id(f[_ACCT_JOB_NUMBER], f[_ACCT_TASK])
        self._emit(out, (t, k), jid, state, f[_ACCT_EXIT])
