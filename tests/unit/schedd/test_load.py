"""queue_sort_method, load_formula, job_load_adjustments and load_thresholds act."""

from __future__ import annotations

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.cluster import SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.queue import QueueConf
from qmaster.conf.store import ClusterConfig
from schedd import schedule
from tests.unit.schedd.helpers import host, job, placed, queue, table, texts, view


def _hosts(t, **loads: str):  # type: ignore[no-untyped-def]
    return [
        host(t, h, {"np_load_avg": v, "num_proc": "4", "load_avg": v}) for h, v in loads.items()
    ]


def _where(plan, job_id: int) -> str:  # type: ignore[no-untyped-def]
    return placed(plan)[job_id][0][0].split("@")[1]


def test_load_sort_prefers_the_least_loaded_host() -> None:
    """queue_sort_method load: the job goes to the host with the lower np_load_avg."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4), queue(t, "all.q", "h2", 4)]
    v = view(t, qs, [job(1)], hosts=_hosts(t, h1="0.8", h2="0.1"), queue_sort="load")
    assert _where(schedule(v, 0.0), 1) == "h2"


def test_seqno_sort_puts_seq_no_before_load() -> None:
    """queue_sort_method seqno: the lower seq_no wins whatever the load."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4, seq_no=0), queue(t, "all.q", "h2", 4, seq_no=1)]
    v = view(t, qs, [job(1)], hosts=_hosts(t, h1="0.8", h2="0.1"), queue_sort="seqno")
    assert _where(schedule(v, 0.0), 1) == "h1"


def test_load_formula_decides_the_order() -> None:
    """load_formula mem_used+1: the host using less memory goes first, whatever np_load_avg."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4), queue(t, "all.q", "h2", 4)]
    hosts = [host(t, "h1", {"np_load_avg": "0.1", "mem_used": "4G"}),
             host(t, "h2", {"np_load_avg": "0.9", "mem_used": "1G"})]  # fmt: skip
    v = view(t, qs, [job(1)], hosts=hosts, load_formula="mem_used+1")
    assert _where(schedule(v, 0.0), 1) == "h2"


def test_job_load_adjustments_spread_jobs_in_one_pass() -> None:
    """np_load_avg=0.50 per slot: after a job lands on h1, the next goes to the idle h2."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4), queue(t, "all.q", "h2", 4)]
    v = view(t, qs, [job(1), job(2), job(3)], hosts=_hosts(t, h1="0.0", h2="0.0"),
             load_adjustments=[("np_load_avg", 0.5)])  # fmt: skip
    plan = schedule(v, 0.0)
    assert [_where(plan, j) for j in (1, 2, 3)] == ["h1", "h2", "h1"]


def test_recent_dispatches_still_count_while_they_decay() -> None:
    """A job dispatched 60 s ago to h1 (decay 7:30) still makes h1 look busier."""
    t = table()
    qs = [queue(t, "all.q", "h1", 4), queue(t, "all.q", "h2", 4)]
    v = view(t, qs, [job(1)], hosts=_hosts(t, h1="0.0", h2="0.0"),
             load_adjustments=[("np_load_avg", 0.5)], load_decay=450.0,
             recent=[((("h1", 1),), 940.0)])  # fmt: skip
    assert _where(schedule(v, 1000.0), 1) == "h2"


def test_load_threshold_puts_a_queue_in_alarm() -> None:
    """np_load_avg above the queue's load_thresholds: the instance takes no job, saying why."""
    t = table()
    busy = queue(t, "all.q", "h1", 4)
    busy.load_thresholds = (("np_load_avg", "1.75"),)
    v = view(t, [busy], [job(1)], hosts=_hosts(t, h1="2.0"))
    plan = schedule(v, 0.0)
    assert plan.orders == []
    assert texts(plan, 1) == [
        'queue instance "all.q@h1" dropped because it is overloaded: np_load_avg=2.000000 >= 1.75'
    ]


@pytest.mark.parametrize(("load", "alarmed"), [("1.75", True), ("1.74", False)])
def test_a_load_at_its_threshold_is_in_alarm(load: str, alarmed: bool) -> None:
    """load_check_alarm(): in alarm when ``load relop threshold`` holds, so np_load_avg
    (>=) of exactly 1.75 passes 1.75 (it took jobs: only a load above it alarmed)."""
    t = table()
    q = queue(t, "all.q", "h1", 4)
    q.load_thresholds = (("np_load_avg", "1.75"),)
    plan = schedule(view(t, [q], [job(1)], hosts=_hosts(t, h1=load)), 0.0)
    assert (plan.orders == []) is alarmed


@pytest.mark.parametrize(
    ("cls", "text", "reason"),
    [
        (QueueConf, "qname q\nsuspend_thresholds np_load_avg=3\n", "minige does not suspend jobs"),
        (QueueConf, "qname q\nsubordinate_list other.q\n", "minige does not suspend jobs"),
        (SchedConf, "load_formula np_load_avg+\n", 'invalid load_formula "np_load_avg+"'),
        (SchedConf, "job_load_adjustments np_load_avg=x\n", "must be of numeric type"),
    ],
)
def test_settings_that_cannot_act_are_refused(cls, text: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    """Suspension settings and unreadable load settings are refused, not ignored."""
    with pytest.raises(ConfigError) as info:
        cls.parse(text, "f")
    assert reason in info.value.reason


def test_load_adjusted_order_is_the_same_with_and_without_the_category_cache() -> None:
    """Moving queue instances after each dispatch gives the orders of a fresh evaluation."""

    def cell():  # type: ignore[no-untyped-def]
        t = table()
        qs = [queue(t, cq, f"h{i}", 2, seq_no=s) for i in range(4) for s, cq in enumerate("ab")]
        jobs = [job(j, hard_queues=("a",) if j % 3 else ()) for j in range(1, 15)]
        loads = {f"h{i}": f"0.{i}" for i in range(4)}
        return view(t, qs, jobs, hosts=_hosts(t, **loads), load_adjustments=[("np_load_avg", 0.3)])

    fast, slow = schedule(cell(), 0.0), schedule(cell(), 0.0, cache=False)
    assert [(o.job_id, o.assignment) for o in fast.orders] == [
        (o.job_id, o.assignment) for o in slow.orders
    ]
    assert len({o.assignment[0][0].split("@")[1] for o in fast.orders[:4]}) >= 2


@pytest.mark.parametrize(
    ("kind", "name", "old", "new"),
    [
        ("sched", "", "load_formula                      np_load_avg", "load_formula nosuch*2"),
        ("sched", "", "job_load_adjustments              np_load_avg=0.50",
         "job_load_adjustments nosuch=1"),
        ("cqueue", "all.q", "load_thresholds       np_load_avg=1.75", "load_thresholds nosuch=1"),
    ],
)  # fmt: skip
def test_load_settings_naming_unknown_attributes_are_refused(
    kind: str, name: str, old: str, new: str
) -> None:
    """A load formula, adjustment or threshold naming no complex attribute is refused."""
    conf = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    shown = conf.show(kind, name)["text"]
    assert old in shown
    change = conf.apply("conf_modify", {"kind": kind, "text": shown.replace(old, new)},
                        "root", "h", True)  # fmt: skip
    assert change.answers[0].is_error
    assert 'unknown resource "nosuch"' in change.answers[0].text


def test_an_alarm_held_up_by_decaying_adjustments_asks_for_another_pass() -> None:
    """A queue in load alarm only through recent dispatches: the pass says a later one may
    find it open although nothing else changes (so the idle qmaster keeps passing)."""
    t = table()
    busy = queue(t, "all.q", "h1", 4)
    busy.load_thresholds = (("np_load_avg", "1.75"),)
    decaying = view(t, [busy], [job(1)], hosts=_hosts(t, h1="1.5"),
                    load_adjustments=[("np_load_avg", 2.0)], load_decay=450.0,
                    recent=[((("h1", 1),), 940.0)])  # fmt: skip
    plan = schedule(decaying, 1000.0)
    assert plan.orders == []
    assert plan.load_decaying
    loaded = view(t, [busy], [job(1)], hosts=_hosts(t, h1="2.0"))
    assert not schedule(loaded, 1000.0).load_decaying
