"""The compact tables of trace jobs and results give back exactly what was put in."""

from __future__ import annotations

from types import MappingProxyType

from qmaster.sim.jobs import TraceJob, TraceJobs
from qmaster.sim.results import JobResult, Results


def _jobs() -> list[TraceJob]:
    """Jobs whose optional fields are set on the first job only, on a later one only, or on
    none, so a column kept only once some job has a value is read right either way."""
    return [
        TraceJob(1, 0.0, 60.5, 4, "u1", "g1", 10001, 10001, "first", {"h_rt": "60"}, "all.q",
                 "-l h_rt=60", "mpi", 7, 30.0, "1 0 -1 60 4"),
        TraceJob(2, 1.5, 10.0, 1, "u2", "g1", 10002, 10001, "swf2", {"h_rt": "60"}),
        TraceJob(3, 2.0, 5.0, 1, "u1", "g2", 10001, 10002, "swf3", {}, None, None, None, None, 5.0),
        TraceJob(4, 2.0, 5.0, 2**40, "u3", "g2", 10003, 10002, "swf4", {"h_vmem": "1G"}, "long.q"),
    ]  # fmt: skip


def _later() -> list[TraceJob]:
    """Jobs whose optional fields first appear after the first job."""
    return [
        TraceJob(5, 0.0, 1.0, 1, "u", "g", 1, 1, "swf5"),
        TraceJob(6, 0.0, 1.0, 1, "u", "g", 1, 1, "own", {"h_rt": "1"}, "q", "-N x", "pe", 5, None,
                 "6 0 -1 1 1"),
        TraceJob(7, 0.0, 1.0, 1, "u", "g", 1, 1, "swf7"),
    ]  # fmt: skip


def test_trace_jobs_read_back_as_appended() -> None:
    """Every field of every job reads back equal, whichever job first has an optional field."""
    for given in (_jobs(), _later()):
        table = TraceJobs(given)
        assert len(table) == len(given)
        assert list(table) == given
        assert [table[i] for i in range(-len(given), 0)] == given
        assert [table.line(i) for i in range(len(given))] == [j.swf for j in given]


def test_alike_request_sets_are_one_read_only_mapping() -> None:
    """Jobs asking the same requests share one mapping, which no job can change."""
    table = TraceJobs(_jobs())
    first, second = table[0].requests, table[1].requests
    assert first is second
    assert isinstance(first, MappingProxyType)
    assert table[2].requests == {}


def test_results_read_back_as_given() -> None:
    """A result table made from results gives the same results, None where none was known."""
    jobs = _jobs()
    given = [
        JobResult(jobs[0], 0, 11, 0.0, 3.0, 63.5, "all.q", "node1", 4, 0, 0),
        JobResult(jobs[1], 1, None, 1.5, refusal="job was rejected"),
        JobResult(jobs[2], 2, 13, 2.0, 2.0),
        JobResult(jobs[3], 3, 14, 2.0, 9.0, 14.0, "long.q", "node2", 2**40, 100, 137),
    ]
    table = Results.of(given)
    assert list(table) == given
    assert table[-1] == given[-1]
    assert [r.wait for r in table] == [3.0, None, 0.0, 7.0]
