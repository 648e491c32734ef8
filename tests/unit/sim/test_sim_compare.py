"""The AccaSim comparison's report: which jobs differ, and the cause it guesses for each."""

from __future__ import annotations

from bench.sim_compare import Side, differences
from qmaster.sim.jobs import TraceJob


def _job(n: int, submit: float, slots: int) -> TraceJob:
    return TraceJob(n, submit, 100.0, slots, "u", "g", 1, 1, f"j{n}")


def test_differences_name_the_first_cause_and_its_knock_ons() -> None:
    """A wide job that starts elsewhere is 'allocation'; a later job it moved is its knock-on;
    a lone one-slot job submitted with another is 'tie-breaking'; equal waits are not listed."""
    jobs = {1: _job(1, 0.0, 64), 2: _job(2, 10.0, 1), 3: _job(3, 20.0, 1), 4: _job(4, 20.0, 1)}
    ours = Side({1: 50.0, 2: 80.0, 3: 0.0, 4: 0.0}, jobs)
    peer = Side({1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}, jobs)
    assert differences(ours, peer) == [
        (1, 50.0, 0.0, "allocation"),
        (2, 80.0, 0.0, "knock-on of job 1"),
    ]
    alone = Side({3: 5.0, 4: 0.0}, {3: jobs[3], 4: jobs[4]})
    assert differences(alone, Side({3: 0.0, 4: 0.0}, alone.jobs)) == [(3, 5.0, 0.0, "tie-breaking")]
    single = Side({2: 5.0}, {2: jobs[2]})
    assert differences(single, Side({}, single.jobs)) == [(2, 5.0, None, "pass timing")]


def test_roots_read_from_accasims_reservation() -> None:
    """AccaSim's blocked job started later than ours is held to its reservation; a job it
    started while that one was blocked, running past the reserved start, backfilled over
    it; a job submitted while both simulators still had the first one waiting is a root too,
    and a job submitted once the machines are the same again is not a knock-on."""
    jobs = {1: _job(1, 0.0, 64), 2: _job(2, 10.0, 16), 3: _job(3, 500.0, 1)}
    jobs[2].requests = {"h_rt": "300"}
    ours = Side({1: 50.0, 2: 200.0, 3: 10.0}, jobs)
    peer = Side({1: 150.0, 2: 0.0, 3: 0.0}, jobs, held={1: 120.0}, over={2: (1, 110.0)})
    assert differences(ours, peer) == [
        (1, 50.0, 150.0, "held to its reservation (AccaSim's, made once: a wait of 120 s)"),
        (2, 200.0, 0.0, "backfilled over the reservation of job 1"),
        (3, 10.0, 0.0, "pass timing"),
    ]


def test_figures_are_the_same_for_both_sides() -> None:
    """Mean, median and p95 wait, bounded slowdown and the wide jobs' wait come from the waits."""
    jobs = {1: _job(1, 0.0, 64), 2: _job(2, 0.0, 1)}
    started, mean, median, p95, bsld, wide = Side({1: 100.0, 2: 0.0}, jobs).figures()
    assert (started, mean, median, p95, wide) == (2, 50.0, 0.0, 100.0, 100.0)
    assert bsld == (2.0 + 1.0) / 2
