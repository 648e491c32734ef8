"""SWF 2.2 reading: header comments, unknown fields, gzip, and the mapping to trace jobs."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from qmaster.sim import swf, trace

HEADER = """; Version: 2.2
; Computer: test
; UnixStartTime: 1700000000
; Queues: 1=all.q 2=short.q
; Note: a comment without meaning: for the reader
"""


def _job(**over: str) -> str:
    fields = dict(zip(swf.FIELDS, ["-1"] * 18, strict=True))
    fields.update(job_number="1", submit_time="5", run_time="100", requested_processors="4")
    fields.update(over)
    return " ".join(fields[name] for name in swf.FIELDS)


def _read(text: str) -> trace.Trace:
    header = swf.SwfHeader()
    records = list(swf.read(io.StringIO(text), header))
    return trace.from_swf(header, records)


def test_header_values_are_read_and_kept() -> None:
    """The header's UnixStartTime places second 0 and its lines go back into the output trace."""
    got = _read(HEADER + _job() + "\n")
    assert got.start == 1_700_000_000
    assert got.header[0] == "; Version: 2.2"
    assert len(got.header) == 5


def test_queue_numbers_map_through_the_queues_header() -> None:
    """Queue number 2 becomes -q short.q when the header names it; an unnamed one is reported."""
    got = _read(HEADER + _job(queue_number="2") + "\n" + _job(job_number="2", queue_number="7"))
    assert got.jobs[0].queue == "short.q"
    assert got.jobs[1].queue is None
    assert "queue number(s) 7" in got.notes[0]


def test_unknown_fields_are_left_out() -> None:
    """-1 requested time and memory give no h_rt or memory request; -1 size falls back to allocated."""
    got = _read(HEADER + _job(requested_processors="-1", allocated_processors="3"))
    job = got.jobs[0]
    assert job.requests == {}
    assert job.slots == 3
    assert job.user == "unknown"
    assert job.preceding is None


def test_requests_and_owner_are_mapped() -> None:
    """Requested time becomes h_rt, requested KB per processor a per-slot h_vmem, ids the owner."""
    line = _job(requested_time="600", requested_memory="1048576", user_id="7", group_id="3")
    job = _read(HEADER + line).jobs[0]
    assert job.requests == {"h_rt": "600", "h_vmem": "1048576K"}
    assert (job.user, job.group) == ("user7", "group3")
    assert job.runtime == 100.0
    assert job.submit == 5.0


def test_jobs_without_runtime_or_size_are_skipped_with_the_reason() -> None:
    """A job whose run time is unknown cannot be replayed: it is skipped and the line named."""
    got = _read(
        HEADER + _job(run_time="-1") + "\n" + _job(job_number="2", requested_processors="0")
    )
    assert list(got.jobs) == []
    assert got.skipped[0] == "line 6: job 1: run time unknown"
    assert got.skipped[1] == "line 7: job 2: size unknown"


def test_preceding_job_and_think_time() -> None:
    """Fields 17 and 18 give the job it follows and the think time after that job's end."""
    job = _read(HEADER + _job(preceding_job_number="3", think_time="30")).jobs[0]
    assert (job.preceding, job.think) == (3, 30.0)


def test_a_malformed_line_is_an_error_naming_it() -> None:
    """A job line with too few fields or a word stops the read with its line number."""
    with pytest.raises(swf.SwfError, match="line 2: expected 18 fields, got 3"):
        _read("; Version: 2.2\n1 2 3\n")
    with pytest.raises(swf.SwfError, match="line 1: field is not a number: 'x'"):
        _read(_job(run_time="x"))


def test_gzipped_trace_reads_the_same(tmp_path: Path) -> None:
    """A gzipped trace (whatever its name) gives the same jobs as the plain one."""
    text = HEADER + _job() + "\n"
    plain, packed = tmp_path / "t.swf", tmp_path / "t.data"
    plain.write_text(text)
    packed.write_bytes(gzip.compress(text.encode()))
    a, b = trace.load(plain), trace.load(packed)
    assert list(trace.job_lines(a)) == list(trace.job_lines(b)) == [_job()]
    assert b.start == 1_700_000_000


def test_whole_seconds() -> None:
    """Fields written back are whole seconds, and -1 for what stays unknown."""
    assert swf.whole(12.6) == "13"
    assert swf.whole(-3) == "-1"


def test_a_loaded_trace_reads_its_job_lines_again_skipping_the_same_lines(tmp_path: Path) -> None:
    """A trace loaded from a file keeps no copy of its lines; read again for trace.swf,
    they are those of its jobs, in order: a line without a run time is skipped both times."""
    lines = [_job(), _job(job_number="2", run_time="-1"), _job(job_number="3")]
    path = tmp_path / "t.swf"
    path.write_text(HEADER + "\n".join(lines) + "\n")
    loaded = trace.load(path)
    assert [j.number for j in loaded.jobs] == [1, 3]
    assert list(trace.job_lines(loaded)) == [lines[0], lines[2]]
