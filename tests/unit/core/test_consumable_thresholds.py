"""functional/consumable_resources level 5: a consumable as a queue's load threshold.

What is left of it for the instance (the least of its global, host and queue levels)
compares with the threshold by the relop: ``test1 <=`` with threshold 2 alarms once 2
or less are left. qstat shows ``a``; the scheduler drops the instance at the start of a
pass and after the dispatch that passes the threshold.
"""

from __future__ import annotations

import re

from qmaster.core import Core
from qmaster.core.view import queue_alarms
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, rows, run_until, submit


def _set(core: Core, kind: str, name: str | None, **values: str) -> None:
    text = str(request(core, ROOT, "conf_show", kind=kind, name=name).data["text"])
    for key, value in values.items():
        text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
    out = request(core, ROOT, "conf_modify", kind=kind, text=text)
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]


def _level5(threshold: str = "test1=2") -> Core:
    """The check's setup: test1 5 globally, 4 on host1, 3 in all.q, and the threshold."""
    core = make_core()
    text = str(request(core, ROOT, "conf_show", kind="complex", name=None).data["text"])
    text += "test1 t1 INT <= YES YES 0 1000\n"
    request(core, ROOT, "conf_modify", kind="complex", text=text)
    _set(core, "exechost", "global", complex_values="test1=5")
    _set(core, "exechost", "host1", complex_values="test1=4")
    _set(core, "cqueue", "all.q", complex_values="test1=3")
    _set(core, "cqueue", "all.q", load_thresholds=f"np_load_avg=11.75,{threshold}")
    return core


def _running(core: Core) -> list[int]:
    found = rows(core, T0 + 10, users=["*"])
    return sorted(int(r["job_id"]) for r in found if r["state"] == "r")


def test_one_job_takes_the_queue_to_its_consumable_threshold() -> None:
    """Level 5: a job with -l test1=1 on host1 leaves 2 of all.q@host1's 3: the instance
    is in alarm (it was not: the threshold was compared with the host's value)."""
    core = _level5()
    assert queue_alarms(core) == set()
    submit(core, ALICE, l_hard={"test1": "1", "h": "host1"}, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert _running(core) == [1]
    assert queue_alarms(core) == {"all.q@host1"}


def test_the_pass_stops_at_the_dispatch_that_passes_the_threshold() -> None:
    """Three such jobs in one pass: the first puts the instance in alarm, the others wait
    ('dropped because it is overloaded'); all three ran before (the queue holds 3)."""
    core = _level5()
    for _ in range(3):
        submit(core, ALICE, l_hard={"test1": "1", "h": "host1"}, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert _running(core) == [1]
    out = request(core, ROOT, "job_detail", T0 + 10, job_ids=["2"])
    info = out.data["jobs"][0]["scheduling_info"]
    assert 'queue instance "all.q@host1" dropped because it is overloaded: ' in "\n".join(info)


def test_a_threshold_not_reached_leaves_the_queue_open() -> None:
    """With threshold 1, two jobs leave 1 of 3: the second is the one that reaches it."""
    core = _level5("test1=1")
    for _ in range(3):
        submit(core, ALICE, l_hard={"test1": "1", "h": "host1"}, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert _running(core) == [1, 2]


def test_a_consumable_no_level_defines_puts_the_queue_in_alarm() -> None:
    """sge_load_alarm(): a consumable threshold with no global, host or queue value is no
    attribute it can find: the instance is in alarm (qstat a, -explain a's error line)
    and every job is dropped from it; host1 defining it opens all.q@host1 only."""
    core = make_core()
    text = str(request(core, ROOT, "conf_show", kind="complex", name=None).data["text"])
    request(core, ROOT, "conf_modify", kind="complex", text=text + "test1 t1 INT <= YES YES 0 0\n")
    _set(core, "cqueue", "all.q", load_thresholds="np_load_avg=11.75,test1=2")
    names = {q.name for q in core.config.queue_instances()}
    assert queue_alarms(core) == names
    submit(core, ALICE, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert _running(core) == []
    out = request(core, ROOT, "job_detail", T0 + 10, job_ids=["1"])
    info = out.data["jobs"][0]["scheduling_info"]
    dropped = 'queue instance "all.q@host1" dropped because it is overloaded: '
    assert f'{dropped}no such complex attribute for threshold "test1"' in info
    queues = request(core, ROOT, "job_list", T0 + 10, full=True, explain="a").data["queues"]
    assert queues[0]["explain"] == ["error: no complex attribute for threshold test1"]
    _set(core, "exechost", "host1", complex_values="test1=5")
    assert queue_alarms(core) == names - {"all.q@host1"}
    run_until(core, T0 + 20)
    assert _running(core) == [1]
