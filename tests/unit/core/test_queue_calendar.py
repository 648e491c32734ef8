"""Queue calendars in virtual time: states D and C come and go with the calendar."""

from __future__ import annotations

from datetime import datetime

from qmaster.core import Core, SpoolDelta
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    make_core,
    request,
    states,
    submit,
    texts,
)

EVENING = datetime(2026, 11, 23, 18, 0).timestamp()  # a Monday, local time
NOON = EVENING - 6 * 3600
HOUR = 3600.0


def _calendar(core: Core, week: str, now: float = NOON) -> None:
    text = f"calendar_name night\nyear NONE\nweek {week}\n"
    added = request(core, ROOT, "conf_modify", now, kind="calendar", text=text, add=True)
    assert texts(added) == ['root@localhost added "night" to calendar list']
    q = request(core, ROOT, "conf_show", now, kind="cqueue", name="all.q").data["text"]
    q = q.replace("calendar              NONE", "calendar              night")
    out = request(core, ROOT, "conf_modify", now, kind="cqueue", text=q)
    assert not any(a.is_error for a in out.answers), out.answers


def tick(core: Core, now: float) -> None:
    """Time passes to ``now``: timers fire, a pass dispatches, dispatched tasks start."""
    core.tick(now)
    core.tick(now)


def _queue_states(core: Core, now: float) -> set[str]:
    out = request(core, ROOT, "job_list", now, full=True)
    return {q["states"] for q in out.data["queues"]}


def test_calendar_suspends_queue_and_its_jobs_then_lets_them_run_on() -> None:
    """At 18:00 the queues are C and the running job S; at 6:00 it runs on for what it had left."""
    core = make_core()
    _calendar(core, "mon-fri=18-24,0-6=suspended")
    assert _queue_states(core, NOON) == {""}
    submit(core, ALICE, NOON, CMDARGS=[str(8 * HOUR)])
    tick(core, NOON)
    tick(core, EVENING - 1)
    assert states(core, EVENING - 1) == {"1": "r"}
    tick(core, EVENING)
    assert _queue_states(core, EVENING) == {"C"}
    assert states(core, EVENING) == {"1": "S"}
    morning = EVENING + 12 * HOUR
    tick(core, morning)
    assert _queue_states(core, morning) == {""}
    assert states(core, morning) == {"1": "r"}
    tick(core, morning + 2 * HOUR - 1)
    assert states(core, morning + 2 * HOUR - 1) == {"1": "r"}  # 6 h ran before, 2 h left
    tick(core, morning + 2 * HOUR + 1)
    assert states(core, morning + 2 * HOUR + 1) == {}


def test_calendar_off_disables_queues_for_new_jobs() -> None:
    """During an ``off`` period the queues are D and a new job waits until it ends."""
    core = make_core()
    _calendar(core, "mon=12-13=off")
    assert _queue_states(core, NOON) == {"D"}
    submit(core, ALICE, NOON + 60, CMDARGS=["10"])
    tick(core, NOON + HOUR - 1)
    assert states(core, NOON + HOUR - 1) == {"1": "qw"}
    tick(core, NOON + HOUR)
    assert states(core, NOON + HOUR) == {"1": "r"}
    assert _queue_states(core, NOON + HOUR) == {""}


def test_ar_on_a_disabled_queue_instance_waits_in_error() -> None:
    """An AR whose queue instance is disabled by qmod goes to W, and back to w when enabled."""
    core = make_core()
    out = request(
        core,
        ROOT,
        "ar_submit",
        NOON,
        ar={"a": NOON + HOUR, "d": HOUR, "q_hard": ["all.q@host1"]},
    )
    assert not any(a.is_error for a in out.answers), out.answers
    request(core, ROOT, "qmod", NOON, action="d", targets=["all.q@host1"])
    ar = next(iter(core.ars.values()))
    assert ar.state.value == "W"
    assert ar.messages == ["reserved queue all.q@host1 is disabled"]
    request(core, ROOT, "qmod", NOON, action="e", targets=["all.q@host1"])
    assert ar.state.value == "w"


def test_a_restart_after_the_calendar_moved_on_lets_suspended_jobs_run() -> None:
    """Suspended by the calendar at 18:00, the qmaster down until 7:00: the job runs again."""
    core = make_core()
    spool = SpoolDelta()
    _calendar(core, "mon-fri=18-24,0-6=suspended")
    spool.merge(submit(core, ALICE, NOON, CMDARGS=[str(8 * HOUR)]).spool)
    for at in (NOON, NOON, EVENING, EVENING):
        spool.merge(core.tick(at).spool)
    assert states(core, EVENING) == {"1": "S"}
    jobs = [row for row in spool.jobs.values() if row is not None]
    tasks = [{**row, "job_id": j} for (j, _), row in spool.tasks.items() if row is not None]
    later = EVENING + 13 * HOUR
    again = Core.recover(core.config, core.settings, jobs, tasks, spool.counters, later)
    tick(again, later)
    assert states(again, later) == {"1": "r"}


def test_new_queue_instances_start_as_initial_state_says() -> None:
    """A queue added with initial_state disabled has its instances in state d."""
    core = make_core()
    q = request(core, ROOT, "conf_show", NOON, kind="cqueue", name="all.q").data["text"]
    q = q.replace("all.q", "new.q").replace(
        "initial_state         default", "initial_state disabled"
    )
    out = request(core, ROOT, "conf_modify", NOON, kind="cqueue", text=q, add=True)
    assert not any(a.is_error for a in out.answers), out.answers
    shown = request(core, ROOT, "job_list", NOON, full=True).data["queues"]
    assert {r["states"] for r in shown if r["name"].startswith("new.q@")} == {"d"}
    assert {r["states"] for r in shown if r["name"].startswith("all.q@")} == {""}


def test_a_queue_deleted_and_added_again_starts_enabled() -> None:
    """States of a deleted queue's instances go with it; initial_state default enables."""
    core = make_core()
    q = request(core, ROOT, "conf_show", NOON, kind="cqueue", name="all.q").data["text"]
    q = q.replace("all.q", "new.q")
    request(core, ROOT, "conf_modify", NOON, kind="cqueue", text=q, add=True)
    request(core, ROOT, "qmod", NOON, action="d", targets=["new.q"])
    request(core, ROOT, "conf_delete", NOON, kind="cqueue", name="new.q", members=[])
    assert core.qi_states == {}
    request(core, ROOT, "conf_modify", NOON, kind="cqueue", text=q, add=True)
    shown = request(core, ROOT, "job_list", NOON, full=True).data["queues"]
    assert {r["states"] for r in shown if r["name"].startswith("new.q@")} == {""}


def test_ar_granted_on_a_disabled_queue_instance_is_in_error_at_once() -> None:
    """An AR whose reserved queue instance is already disabled starts in W, with the reason."""
    core = make_core()
    request(core, ROOT, "qmod", NOON, action="d", targets=["all.q@host1"])
    out = request(
        core, ROOT, "ar_submit", NOON, ar={"a": NOON + HOUR, "d": HOUR, "q_hard": ["all.q@host1"]}
    )
    assert not any(a.is_error for a in out.answers), out.answers
    ar = next(iter(core.ars.values()))
    assert ar.state.value == "W"
    assert ar.messages == ["reserved queue all.q@host1 is disabled"]
