"""flush_submit_sec/flush_finish_sec as Grid Engine's scheduler reads them: a pass within
N-1 seconds of a submission or an end (1: at once), 0: the next schedule_interval."""

from __future__ import annotations

import re

from qmaster.core import Core
from qmaster.core.stimuli import ConfChange, ConfShow, TaskEnded
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, run_until, states, submit


def set_sched(core: Core, **values: str) -> None:
    """Change keys of the scheduler configuration as ``qconf -msconf`` does."""
    now = max(T0, core.now)
    text = str(core.handle(ConfShow(ROOT, "sched"), now).data["text"])
    for key, value in values.items():
        text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
    out = core.handle(ConfChange(ROOT, "conf_modify", "sched", text=text), now)
    assert not any(a.is_error for a in out.answers), out.answers


def test_flush_submit_sec_1_schedules_a_new_job_at_once() -> None:
    """With flush_submit_sec 1 a job submitted between passes is dispatched at once, not at
    the next schedule_interval (15 s here)."""
    core = make_core()
    set_sched(core, schedule_interval="0:0:15", flush_submit_sec="1")
    run_until(core, T0 + 1)
    submit(core, now=T0 + 2, CMDARGS=["100"])
    assert core.next_deadline() == T0 + 2
    run_until(core, T0 + 2)
    assert states(core, T0 + 2)["1"] in {"t", "r"}


def test_flush_submit_sec_3_schedules_a_new_job_within_2_seconds() -> None:
    """flush_submit_sec 3 lets Grid Engine's event client hold a submission up to 2 s."""
    core = make_core()
    set_sched(core, schedule_interval="0:0:15", flush_submit_sec="3")
    run_until(core, T0 + 1)
    submit(core, now=T0 + 2, CMDARGS=["100"])
    assert core.next_deadline() == T0 + 4


def test_flush_submit_sec_0_waits_for_the_schedule_interval() -> None:
    """flush_submit_sec 0 (the default) leaves a new job to the regular pass."""
    core = make_core()
    set_sched(core, schedule_interval="0:0:15")
    run_until(core, T0 + 1)
    submit(core, now=T0 + 2, CMDARGS=["100"])
    assert core.next_deadline() == core.schedule_at
    assert core.next_deadline() > T0 + 2  # type: ignore[operator]


def test_flush_finish_sec_1_schedules_the_next_job_when_a_local_task_ends() -> None:
    """With flush_finish_sec 1 the end of a job starts the next waiting one at once."""
    core = make_core(local_execution=True)
    set_sched(core, schedule_interval="0:0:15", flush_finish_sec="1")
    for _ in range(17):  # 16 slots in the default cell
        submit(core, ALICE, CMDARGS=["1"])
    run_until(core, T0 + 1)
    assert list(states(core, T0 + 1).values()).count("qw") == 1
    core.handle(TaskEnded(ROOT, 1, 0, exit_status=0), T0 + 3)
    assert core.next_deadline() == T0 + 3
    run_until(core, T0 + 3)
    assert "qw" not in states(core, T0 + 3).values()
