"""The replay loop on the golden trace: times, dependencies, refusals, --until and --seed."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from qmaster.core import Outcome
from qmaster.sim.driver import Simulation, SimulationStuck
from qmaster.sim.jobs import TraceJobs
from qmaster.sim.mapping import Defaults
from qmaster.sim.replay import ReplayOptions, replay
from qmaster.sim.results import JobResult
from qmaster.sim.trace import Trace

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "sim"
CELL = EXAMPLES / "cell"
GOLDEN = EXAMPLES / "golden.swf"


def _by_number(results: Sequence[JobResult]) -> dict[int, JobResult]:
    return {r.job.number: r for r in results}


def test_golden_trace_writes_the_expected_accounting(tmp_path: Path) -> None:
    """The golden trace replays to the checked-in accounting file, byte for byte."""
    replay(ReplayOptions(GOLDEN, CELL, tmp_path, plots=False))
    assert (tmp_path / "accounting").read_bytes() == (EXAMPLES / "golden.accounting").read_bytes()


def test_think_time_and_hold_jid(tmp_path: Path) -> None:
    """A job with a think time is submitted that long after its preceding job ended; one
    without a think time waits for its preceding job under -hold_jid."""
    got = _by_number(replay(ReplayOptions(GOLDEN, CELL, None, plots=False)).results)
    assert got[1].end == 600.0
    assert got[7].submitted == 630.0  # job 1 ended at 600, think time 30
    assert got[16].end is not None
    assert got[18].submitted == got[16].end
    assert got[3].end == 1210.0
    assert got[9].submitted == 70.0
    assert got[9].start == 1210.0  # held by job 3 (-hold_jid), started at its end


def test_runtime_over_h_rt_is_killed_at_h_rt(tmp_path: Path) -> None:
    """A job running longer than its requested time ends at h_rt as failed (status 0 in SWF)."""
    got = _by_number(replay(ReplayOptions(GOLDEN, CELL, tmp_path, plots=False)).results)
    assert got[5].end is not None
    assert got[5].start is not None
    assert got[5].end - got[5].start == 600.0
    assert got[5].exit_status == 137
    line = next(x for x in (tmp_path / "trace.swf").read_text().splitlines() if x.startswith("5 "))
    assert line.split()[10] == "0"


def test_a_job_too_big_for_the_cell_never_starts(tmp_path: Path) -> None:
    """A 40-slot job on 32 slots stays pending; it is counted and written back with wait -1."""
    done = replay(ReplayOptions(GOLDEN, CELL, tmp_path, plots=False))
    assert _by_number(done.results)[11].start is None
    assert done.summary["not_started"] == 1
    line = next(x for x in (tmp_path / "trace.swf").read_text().splitlines() if x.startswith("11 "))
    assert line.split()[2] == "-1"


def test_a_refused_job_is_reported_in_grid_engines_words(tmp_path: Path) -> None:
    """A job the qmaster would refuse (an unknown queue) is refused, counted, and nothing else changes."""
    trace = tmp_path / "t.swf"
    trace.write_text(
        "; Queues: 1=all.q 2=nope.q\n"
        "1 0 -1 10 1 -1 -1 1 60 -1 1 1 1 1 2 1 -1 -1\n"
        "2 0 -1 10 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n"
    )
    done = replay(ReplayOptions(trace, CELL, None, plots=False))
    first, second = done.results
    assert first.refusal == 'job was rejected because job requests unknown queue "nope.q"'
    assert second.end == 10.0
    assert (done.summary["refused"], done.summary["ended"]) == (1, 1)


def test_until_stops_the_replay(tmp_path: Path) -> None:
    """--until 300 replays the first 300 simulated seconds: later jobs are not submitted."""
    got = _by_number(replay(ReplayOptions(GOLDEN, CELL, None, until=300, plots=False)).results)
    assert got[17].submitted == 300.0
    assert got[19].submitted is None
    assert got[1].start == 0.0
    assert got[1].end is None


def test_seed_shuffles_only_same_second_submissions(tmp_path: Path) -> None:
    """A seed reorders jobs submitted in the same second; the same seed gives the same replay."""
    plain = replay(ReplayOptions(GOLDEN, CELL, None, plots=False)).results
    a = replay(ReplayOptions(GOLDEN, CELL, None, seed=3, plots=False)).results
    b = replay(ReplayOptions(GOLDEN, CELL, None, seed=3, plots=False)).results
    assert [(r.job_id, r.start) for r in a] == [(r.job_id, r.start) for r in b]
    assert [r.submitted for r in a] == [r.submitted for r in plain]
    same_second = {12, 13, 14}
    ids = {r.job.number: r.job_id for r in a}
    plain_ids = {r.job.number: r.job_id for r in plain}
    assert sorted(ids[n] for n in same_second) == sorted(plain_ids[n] for n in same_second)
    assert {n: ids[n] for n in ids if n not in same_second | {1, 2}} == {
        n: plain_ids[n] for n in plain_ids if n not in same_second | {1, 2}
    }


class _StuckFeed:
    """A core that wants a tick at the same instant for ever."""

    def next_deadline(self) -> float:
        return 5.0

    def tick(self, now: float, jsv: object, sink: Callable[[Outcome], None]) -> None:
        sink(Outcome())


def test_a_core_asking_for_the_same_instant_forever_stops_the_replay() -> None:
    """A replay never spins for ever: a core stuck at one instant is reported."""
    trace = Trace(TraceJobs(), 0, "swf")
    sim = Simulation(trace, _StuckFeed(), Defaults({}), None)  # type: ignore[arg-type]
    with pytest.raises(SimulationStuck, match=r"tick at 5\.0 over and over"):
        sim.run()


def test_resource_quota_sets_of_the_cell_hold_in_a_replay(tmp_path: Path) -> None:
    """A cell folder's resource_quotas/ limit the replay as they limit the qmaster: with
    one slot for all jobs, three one-slot jobs submitted together run one after another."""
    cell = tmp_path / "cell"
    shutil.copytree(CELL, cell)
    (cell / "resource_quotas").mkdir()
    (cell / "resource_quotas" / "one").write_text(
        "{\nname one\nenabled TRUE\nlimit to slots=1\n}\n"
    )
    trace = tmp_path / "t.swf"
    trace.write_text("".join(f"{n} 0 -1 10 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1\n" for n in (1, 2, 3)))
    starts = [r.start for r in replay(ReplayOptions(trace, cell, None, plots=False)).results]
    assert starts == [0.0, 10.0, 20.0]
    shutil.rmtree(cell / "resource_quotas")
    starts = [r.start for r in replay(ReplayOptions(trace, cell, None, plots=False)).results]
    assert starts == [0.0, 0.0, 0.0]
