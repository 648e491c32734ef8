"""From trace jobs to the job specifications the core is handed, as qsub would build them."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.events.records import Acct
from qmaster.sim import mapping, trace
from qmaster.sim.jobs import TraceJob

EXAMPLE_CELL = Path(__file__).resolve().parents[3] / "examples" / "sim" / "cell"


def _job(**over: object) -> TraceJob:
    base: dict[str, object] = {
        "number": 1,
        "submit": 0.0,
        "runtime": 120.0,
        "slots": 1,
        "user": "user1",
        "group": "group1",
        "uid": 10001,
        "gid": 10001,
        "name": "swf1",
    }
    base.update(over)
    return TraceJob(**base)  # type: ignore[arg-type]


def test_runtime_is_the_first_job_argument() -> None:
    """The simulated runtime is the job's first argument, Grid Engine's job-simulation convention."""
    spec = mapping.job_spec(_job(runtime=120.0), mapping.Defaults({}))
    assert spec["CMDARGS"] == ["120"]
    assert spec["b"] is True
    assert spec["N"] == "swf1"
    assert "pe_name" not in spec


def test_parallel_jobs_get_the_pe_and_requests_and_queue() -> None:
    """More than one slot is -pe PE n; requests are -l; the queue is -q."""
    job = _job(slots=8, requests={"h_rt": "600", "h_vmem": "1024K"}, queue="short.q")
    spec = mapping.job_spec(job, mapping.Defaults({}, pe="par"))
    assert (spec["pe_name"], spec["pe_min"], spec["pe_max"]) == ("par", 8, 8)
    assert spec["l_hard"] == {"h_rt": "600", "h_vmem": "1024K"}
    assert spec["q_hard"] == ["short.q"]


def test_cell_sge_request_is_the_base_and_trace_values_win(tmp_path: Path) -> None:
    """The cell's sge_request applies to every job (-R y for backfilling); the trace's -l wins."""
    (tmp_path / "sge_request").write_text("# defaults\n-R y -l h_rt=100,arch=lx-amd64\n")
    defaults = mapping.cell_defaults(tmp_path)
    first = mapping.job_spec(_job(requests={"h_rt": "600"}), defaults)
    second = mapping.job_spec(_job(), defaults)
    assert first["R"] is True
    assert first["l_hard"] == {"h_rt": "600", "arch": "lx-amd64"}
    assert second["l_hard"] == {"h_rt": "100", "arch": "lx-amd64"}


def test_a_bad_sge_request_names_the_file(tmp_path: Path) -> None:
    """A cell whose default options qsub would refuse stops the replay with qsub's message."""
    (tmp_path / "sge_request").write_text("-R maybe\n")
    with pytest.raises(
        mapping.MappingError, match=r"sge_request: invalid option argument \"-R maybe\""
    ):
        mapping.cell_defaults(tmp_path)


def test_the_example_cell_asks_nothing_by_default() -> None:
    """examples/sim/cell's sge_request holds only comments."""
    assert mapping.cell_defaults(EXAMPLE_CELL).spec == {}


def _acct(**over: object) -> str:
    base: dict[str, object] = {
        "time": 0,
        "qname": "all.q",
        "hostname": "node0001",
        "group": "staff",
        "owner": "alice",
        "job_name": "build",
        "job_number": 7,
        "account": "sge",
        "priority": 0,
        "submission_time": 1_700_000_100,
        "start_time": 1_700_000_160,
        "end_time": 1_700_000_460,
        "failed": 0,
        "exit_status": 0,
        "ru_wallclock": 300,
        "granted_pe": "mpi",
        "slots": 4,
        "category": "-q all.q -l h_rt=600 -pe mpi 4",
    }
    base.update(over)
    return Acct(**base).accounting_line()  # type: ignore[arg-type]


def test_an_accounting_file_is_a_trace(tmp_path: Path) -> None:
    """Each accounting line replays as a job submitted at its qsub_time, running its wallclock,
    with the requests its category recorded and its owner."""
    path = tmp_path / "accounting"
    later = _acct(
        submission_time=1_700_000_000,
        owner="bob",
        category="NONE",
        slots=1,
        granted_pe="NONE",
        ru_wallclock=60,
        job_name="first",
    )
    path.write_text("# Version: minige\n" + _acct() + "\n" + later + "\n")
    got = trace.load(path)
    assert got.kind == "accounting"
    assert got.start == 1_700_000_000
    first, second = got.jobs
    assert (first.name, first.user, first.submit, first.runtime) == ("first", "bob", 0.0, 60.0)
    assert (second.user, second.group, second.submit, second.slots) == ("alice", "staff", 100.0, 4)
    spec = mapping.job_spec(second, mapping.Defaults({}))
    assert spec["q_hard"] == ["all.q"]
    assert spec["l_hard"] == {"h_rt": "600"}
    assert (spec["pe_name"], spec["pe_min"]) == ("mpi", 4)
    assert spec["CMDARGS"] == ["300"]
    assert "l_hard" not in mapping.job_spec(first, mapping.Defaults({}))


def test_a_bad_accounting_line_is_skipped_with_its_line(tmp_path: Path) -> None:
    """A line that is not an accounting record is reported and the rest replayed."""
    path = tmp_path / "accounting"
    path.write_text(_acct() + "\n" + "a:b:" + ":".join(["x"] * 44) + "\n")
    got = trace.load(path)
    assert len(got.jobs) == 1
    assert got.skipped[0].startswith("line 2: ")
