"""A trace as the simulator replays it: jobs with their submit time, runtime and requests.

Two sources give the same :class:`~qmaster.sim.jobs.TraceJobs` (a compact table of the jobs):

- an SWF 2.2 trace (:mod:`qmaster.sim.swf`): run time -> simulated runtime,
  requested processors -> slots (allocated processors when the request is
  unknown), requested time -> ``h_rt``, requested memory (KB per processor) ->
  a per-slot ``h_vmem`` request, user and group ids -> the owner, queue number
  -> a queue (names from the ``; Queues: 1=all.q ...`` header), preceding job
  and think time -> a dependency;
- minige's (or Grid Engine's) ``accounting`` file: one job per line, submitted
  at its ``submission_time``, running ``ru_wallclock`` seconds, with the
  requests its ``category`` recorded (read back with qsub's own grammar by
  :mod:`qmaster.sim.mapping`) and its granted PE and slots.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from qmaster.events.parse import ParseError, parse_accounting_line
from qmaster.events.records import NONE_STR, Acct
from qmaster.sim import swf
from qmaster.sim.jobs import TraceJob, TraceJobs

DEFAULT_START = 1_767_225_600
"""The wall time of a trace's second 0 when its header has no ``UnixStartTime``."""
FIRST_UID = 10_000
"""Users of an accounting trace get uids from here, in order of first appearance."""


@dataclass(slots=True)
class Trace:
    """The jobs of a trace in trace order, and what could not be replayed."""

    jobs: TraceJobs
    start: int
    kind: str
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    source: Path | None = None
    """The SWF file the jobs were loaded from: their lines are read from it again when
    written back, not kept (some 120 bytes a job, 120 MB for a million)."""


def job_lines(trace: Trace) -> Iterator[str]:
    """Each job's SWF line, in trace order."""
    if trace.source is None:
        jobs = trace.jobs
        yield from (jobs.line(i) for i in range(len(jobs)))
        return
    with swf.open_text(trace.source) as stream:
        for record in swf.read(stream, swf.SwfHeader()):
            if _replayable(record):
                yield swf.format_record(record.fields)


class Shared:
    """One object per distinct value among a trace's jobs (owners, ids, request sets).

    A million-job trace of a few hundred users and some thousand distinct request sets
    would otherwise hold a million copies of each (about 450 bytes a job); the request
    sets are read-only mappings, so no job's change can leak into another's.
    """

    __slots__ = ("_requests", "_values")

    def __init__(self) -> None:
        self._values: dict[object, object] = {}
        self._requests: dict[tuple[tuple[str, str], ...], Mapping[str, str]] = {}

    def text(self, value: str) -> str:
        """The one copy of a string."""
        found = self._values.setdefault(value, value)
        assert isinstance(found, str)
        return found

    def number(self, value: int) -> int:
        """The one copy of an integer."""
        found = self._values.setdefault(value, value)
        assert isinstance(found, int)
        return found

    def requests(self, pairs: tuple[tuple[str, str], ...]) -> Mapping[str, str]:
        """The one read-only mapping of these requests (in this order)."""
        found = self._requests.get(pairs)
        if found is None:
            found = self._requests[pairs] = MappingProxyType(dict(pairs))
        return found


def load(path: Path) -> Trace:
    """Read an SWF trace or an accounting file (told apart by their first record)."""
    if _looks_like_accounting(path):
        return from_accounting(path)
    header = swf.SwfHeader()
    with swf.open_text(path) as stream:
        return from_swf(header, swf.read(stream, header), source=path)


def _looks_like_accounting(path: Path) -> bool:
    with swf.open_text(path) as stream:
        for raw in stream:
            text = raw.strip()
            if text and not text.startswith(("#", ";")):
                return text.count(":") >= 40
    return False


# -- SWF ---------------------------------------------------------------------------


def from_swf(
    header: swf.SwfHeader, records: Iterable[swf.SwfRecord], source: Path | None = None
) -> Trace:
    """Map SWF job lines to trace jobs (read as they come: ``header`` fills while the
    comments before the first job are read); lines with no runtime or size are skipped.
    With the ``source`` file they came from, the jobs keep no copy of their lines."""
    trace = Trace(TraceJobs(), DEFAULT_START, "swf", source=source)
    queues: dict[int, str] | None = None
    unnamed: set[int] = set()
    shared = Shared()
    for record in records:
        if queues is None:
            queues = header.queues()
        job = _swf_job(record, queues, unnamed, trace.skipped, shared, source is None)
        if job is not None:
            trace.jobs.append(job)
    trace.start = header.get_int("UnixStartTime") or DEFAULT_START
    trace.header = list(header.lines)
    if unnamed:
        numbers = ", ".join(str(n) for n in sorted(unnamed))
        trace.notes.append(
            f"queue number(s) {numbers} have no name in the header's '; Queues:' line; "
            "their jobs request no queue"
        )
    return trace


def _swf_job(
    record: swf.SwfRecord,
    queues: dict[int, str],
    unnamed: set[int],
    skipped: list[str],
    shared: Shared,
    keep_line: bool,
) -> TraceJob | None:
    number = int(record.number(0))
    runtime = record.known(3)
    slots = record.known(7) or record.known(4)
    submit = record.known(1)
    if runtime is None or submit is None or not slots:  # as _replayable
        what = "submit time" if submit is None else "run time" if runtime is None else "size"
        skipped.append(f"line {record.line}: job {number}: {what} unknown")
        return None
    uid, gid = record.known(11), record.known(12)
    job = TraceJob(
        number=number,
        submit=submit,
        runtime=runtime,
        slots=int(slots),
        user=shared.text(f"user{int(uid)}" if uid is not None else "unknown"),
        group=shared.text(f"group{int(gid)}" if gid is not None else "unknown"),
        uid=shared.number(FIRST_UID + int(uid) if uid is not None else 65534),
        gid=shared.number(FIRST_UID + int(gid) if gid is not None else 65534),
        name=f"swf{number}",
        swf=swf.format_record(record.fields) if keep_line else "",
    )
    h_rt, memory = record.known(8), record.known(9)
    requests: list[tuple[str, str]] = []
    if h_rt:
        requests.append(("h_rt", swf.whole(h_rt)))
    if memory:
        requests.append(("h_vmem", f"{swf.whole(memory)}K"))
    if requests:
        job.requests = shared.requests(tuple(requests))
    queue = record.known(14)
    if queue is not None and int(queue) in queues:
        job.queue = queues[int(queue)]
    elif queue is not None:
        unnamed.add(int(queue))
    preceding = record.known(16)
    if preceding:
        job.preceding = int(preceding)
        job.think = record.known(17)
    return job


def _replayable(record: swf.SwfRecord) -> bool:
    """The line becomes a trace job (:func:`_swf_job` skips the others)."""
    slots = record.known(7) or record.known(4)
    return record.known(3) is not None and record.known(1) is not None and bool(slots)


# -- accounting ------------------------------------------------------------------------


def from_accounting(path: Path) -> Trace:
    """One trace job per accounting line, in order of submission."""
    records: list[Acct] = []
    skipped: list[str] = []
    with swf.open_text(path) as stream:
        for line, raw in enumerate(stream, 1):
            try:
                record = parse_accounting_line(raw)
            except ParseError as exc:
                skipped.append(f"line {line}: {exc}")
                continue
            if record is not None:
                records.append(record)
    records.sort(key=lambda r: r.submission_time)
    start = records[0].submission_time if records else DEFAULT_START
    ids: dict[str, int] = {}
    shared = Shared()
    jobs = TraceJobs(_acct_job(n, r, start, ids, shared) for n, r in enumerate(records, 1))
    return Trace(jobs, start, "accounting", skipped)


def _acct_job(
    number: int, record: Acct, start: int, ids: dict[str, int], shared: Shared
) -> TraceJob:
    runtime = float(record.ru_wallclock or max(record.end_time - record.start_time, 0))
    submit = float(record.submission_time - start)
    uid = ids.setdefault(f"u:{record.owner}", FIRST_UID + len(ids))
    gid = ids.setdefault(f"g:{record.group}", FIRST_UID + len(ids))
    job = TraceJob(
        number=number,
        submit=submit,
        runtime=runtime,
        slots=max(record.slots, 1),
        user=shared.text(record.owner),
        group=shared.text(record.group),
        uid=uid,
        gid=gid,
        name=record.job_name,
        category=None if record.category == NONE_STR else shared.text(record.category),
        pe=None if record.granted_pe == NONE_STR else shared.text(record.granted_pe),
    )
    job.swf = swf.format_record(
        [
            str(number),
            swf.whole(submit),
            "-1",
            swf.whole(runtime),
            str(job.slots),
            "-1",
            "-1",
            str(job.slots),
            "-1",
            "-1",
            "1",
            str(uid - FIRST_UID),
            str(gid - FIRST_UID),
            "-1",
            "-1",
            "-1",
            "-1",
            "-1",
        ]
    )
    return job
