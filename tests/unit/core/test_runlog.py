"""qconf -tsm: the next pass hands over its run log (schedd_runlog's lines), once."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.effects import RunLog
from qmaster.core.runlog import START, STOP, listed
from qmaster.core.stimuli import SchedMonitor
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, run_until, submit


def _runlogs(core: Core, until: float) -> list[RunLog]:
    return [e for out in run_until(core, until) for e in out.effects() if isinstance(e, RunLog)]


def test_the_pass_after_tsm_logs_its_decisions_once() -> None:
    """A held job, one waiting for it and one no host can take are logged as Grid Engine's
    run log has them; the pass after that logs nothing."""
    core = make_core()
    submit(core, h=True)
    submit(core, hold_jid=["1"])
    submit(core, l_hard={"hostname": "nohost*"})
    run_until(core, T0 + 5)
    out = core.handle(SchedMonitor(ROOT), T0 + 5)
    assert [a.text for a in out.answers] == ["root@localhost triggers scheduler monitoring"]
    (log,) = _runlogs(core, T0 + 20)
    assert log.lines[0] == START
    assert log.lines[-1] == STOP
    assert log.lines[1:3] == (
        "jobs dropped because of hold: 1",
        "jobs dropped because of job dependencies: 2",
    )
    assert log.lines[3].startswith("Job 3 (-l hostname=nohost*) cannot run at host ")
    submit(core, ALICE, T0 + 21)
    assert _runlogs(core, T0 + 40) == []


def test_only_managers_trigger_monitoring() -> None:
    """A user's -tsm is refused with Grid Engine's text and marks nothing."""
    core = make_core()
    out = core.handle(SchedMonitor(ALICE), T0)
    assert [a.text for a in out.answers] == [
        "starting scheduler monitoring requires manager privileges"
    ]
    assert not core.monitor_next_pass


def test_long_lists_carry_ten_items_a_line() -> None:
    """schedd_log_list(): ten ids a line, nothing for an empty list."""
    assert listed("jobs dropped because of hold: ", map(str, range(1, 13))) == [
        "jobs dropped because of hold: 1 2 3 4 5 6 7 8 9 10",
        "jobs dropped because of hold: 11 12",
    ]
    assert listed("x: ", []) == []
