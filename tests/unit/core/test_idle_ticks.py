"""A tick with nothing changed runs no scheduling pass; every change still gets one in time."""

from __future__ import annotations

import time

import pytest

from qmaster.core import Core, pendingindex
from qmaster.core.holds import START_TIME_FORMAT
from qmaster.core.registry import HOOKS
from tests.unit.core.helpers import T0, make_core, run_until, states, submit


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The times of the scheduling passes that ran."""
    ran: list[float] = []
    real = HOOKS.run_pass
    assert real is not None

    def counted(core: Core, now: float, out: object) -> None:
        ran.append(now)
        real(core, now, out)  # type: ignore[arg-type]

    monkeypatch.setattr(HOOKS, "run_pass", counted)
    return ran


def _busy_core(jobs: int = 20, runtime: str = "100") -> Core:
    """The default cell (16 slots) with ``jobs`` jobs submitted at T0 and the first pass run."""
    core = make_core()
    for _ in range(jobs):
        submit(core, CMDARGS=[runtime])
    run_until(core, T0 + 1)
    return core


def test_an_idle_core_runs_no_pass(passes: list[float]) -> None:
    """With jobs waiting and nothing changing, the qmaster does not re-plan every second."""
    core = _busy_core()
    passes.clear()
    deadline = core.next_deadline()
    assert deadline is not None
    assert deadline >= T0 + 100  # the first job end, not the next second
    for second in range(2, 60):
        core.tick(T0 + second)
    assert passes == []
    assert list(states(core).values()).count("qw") == 4


def test_a_submission_starts_at_the_next_interval(passes: list[float]) -> None:
    """After a quiet spell a new job still waits for the next schedule_interval boundary."""
    core = make_core()
    run_until(core, T0 + 1)
    core.tick(T0 + 10)
    passes.clear()
    submit(core, now=T0 + 10.4, CMDARGS=["100"])
    assert core.next_deadline() == T0 + 11
    core.tick(T0 + 10.6)
    assert states(core, T0 + 10.6) == {"1": "qw"}
    core.tick(T0 + 11)
    assert states(core, T0 + 11) == {"1": "t"}
    assert passes == [T0 + 11]


def test_a_job_end_gives_the_waiting_job_its_slot(passes: list[float]) -> None:
    """When a running job ends, the next pass starts a waiting one; idle seconds before do not."""
    core = _busy_core(jobs=17, runtime="10")
    passes.clear()
    run_until(core, T0 + 12, start=T0 + 1)
    assert states(core, T0 + 12) == {"17": "r"}
    assert 1 <= len(passes) <= 2


def test_a_start_time_still_acts_on_an_idle_core(passes: list[float]) -> None:
    """qsub -a: the job waits while nothing changes and starts when its time comes."""
    core = make_core()
    run_until(core, T0 + 1)
    at = time.strftime(START_TIME_FORMAT, time.localtime(T0 + 30))
    submit(core, now=T0 + 1, CMDARGS=["100"], a=at)
    run_until(core, T0 + 29, start=T0 + 1)
    assert states(core, T0 + 29) == {"1": "qw"}
    run_until(core, T0 + 31, start=T0 + 29)
    assert states(core, T0 + 31) == {"1": "r"}
    assert len(passes) <= 3


def test_a_read_only_request_changes_nothing(passes: list[float]) -> None:
    """qstat on an idle qmaster does not wake the scheduler."""
    core = _busy_core()
    passes.clear()
    states(core, T0 + 5)
    assert not core.sched_dirty
    core.tick(T0 + 6)
    assert passes == []


def test_a_load_alarm_from_recent_dispatches_clears_by_itself() -> None:
    """Job load adjustments hold queues in alarm; as they decay the waiting jobs start,
    with no other change to wake the scheduler."""
    core = make_core()
    attrs = core.config.sched_conf.attrs
    attrs["job_load_adjustments"] = "np_load_avg=8"  # +2 np_load_avg per slot on 4 CPUs
    attrs["load_adjustment_decay_time"] = "0:0:30"
    for _ in range(4):
        submit(core, CMDARGS=["1000"])
    run_until(core, T0 + 0.5)
    for _ in range(4):
        submit(core, now=T0 + 1, CMDARGS=["1000"])
    run_until(core, T0 + 2, start=T0 + 1)
    assert list(states(core, T0 + 2).values()).count("qw") == 4  # every queue in alarm
    run_until(core, T0 + 20, start=T0 + 2)
    assert "qw" not in states(core, T0 + 20).values()


def test_a_pass_with_nothing_pending_does_not_build_the_cell_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A job ending while no job waits costs no look at every queue instance (a replay's
    usual pass: qsim ticks after every job end)."""
    core = make_core()
    submit(core, CMDARGS=["5"])
    run_until(core, T0 + 2)
    assert list(states(core).values()) == ["r"]
    built: list[int] = []
    real = pendingindex.assemble

    def counted(*args: object, **kw: object) -> object:
        built.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pendingindex, "assemble", counted)
    run_until(core, T0 + 10)
    assert states(core) == {}
    assert built == []
