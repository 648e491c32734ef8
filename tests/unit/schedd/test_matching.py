"""Matching through the global -> host -> queue hierarchy, with Grid Engine's reasons."""

from __future__ import annotations

from schedd import HostState, schedule
from schedd.load import load_alarm
from schedd.view import QueueState
from tests.unit.schedd.helpers import global_level, host, job, placed, queue, table, texts, view

MEM = "mem mem MEMORY <= YES YES 0 0"


def test_host_mismatch_ends_evaluation_at_host_level() -> None:
    """A host whose arch does not match refuses once, at host level, in GE's words."""
    t = table()
    h1 = host(t, "h1", {"arch": "lx-amd64"})
    q = queue(t, "all.q", "h1", 4)
    plan = schedule(view(t, [q], [job(1, hard_resources={"arch": "sol-sparc64"})], [h1]), 0.0)
    assert texts(plan, 1) == [
        '(-l arch=sol-sparc64) cannot run at host "h1" because it offers only hl:arch=lx-amd64'
    ]


def test_consumable_is_checked_and_booked_at_every_level() -> None:
    """A host consumable of 4G admits two 2G jobs and stops the third, though queues have room."""
    t = table(MEM)
    h1 = host(t, "h1", mem="4G")
    qs = [queue(t, "a.q", "h1", 4), queue(t, "b.q", "h1", 4)]
    jobs = [job(i, hard_resources={"mem": "2G"}) for i in (1, 2, 3)]
    plan = schedule(view(t, qs, jobs, [h1]), 0.0)
    assert sorted(placed(plan)) == [1, 2]
    assert texts(plan, 3) == ['(-l mem=2G) cannot run at host "h1" because it offers only hc:mem=0']
    assert h1.level.used["mem"] == 4 * 1024**3


def test_global_consumable_limits_the_whole_cluster() -> None:
    """A global license count of 2 lets two jobs run, on any host."""
    t = table("lic lic INT <= YES YES 0 0")
    qs = [queue(t, "all.q", f"h{i}", 1) for i in range(4)]
    jobs = [job(i, hard_resources={"lic": "1"}) for i in range(1, 5)]
    plan = schedule(view(t, qs, jobs, glob=global_level(t, lic="2")), 0.0)
    assert len(plan.orders) == 2
    assert "(-l lic=1) cannot run globally because it offers only gc:lic=0.000000" in texts(plan, 3)


def test_job_consumable_is_booked_once_per_job() -> None:
    """A JOB consumable books its amount once for a 3-slot job, a YES one three times."""
    from schedd import PeState

    t = table("lj lj INT <= YES JOB 0 0", "lsl lsl INT <= YES YES 0 0")
    q = queue(t, "all.q", "h1", 8, lj="10", lsl="10", pe_list="pe")
    j = job(1, pe_name="pe", pe_min=3, pe_max=3, hard_resources={"lj": "2", "lsl": "2"})
    schedule(view(t, [q], [j], pes=[PeState("pe", 10, "$pe_slots")]), 0.0)
    assert q.queue_level.used["lj"] == 2
    assert q.queue_level.used["lsl"] == 6


def test_default_applies_to_unrequested_consumable() -> None:
    """A consumable's default is booked for jobs that do not request it."""
    t = table("tok tok INT <= YES YES 1 0")
    q = queue(t, "all.q", "h1", 8, tok="2")
    plan = schedule(view(t, [q], [job(i) for i in (1, 2, 3)]), 0.0)
    assert sorted(placed(plan)) == [1, 2]
    assert "qc:tok=0" in texts(plan, 3)[0]


def test_forced_attribute_admits_only_jobs_requesting_it() -> None:
    """A queue offering a FORCED attribute refuses jobs that do not request it."""
    t = table("gpu gpu INT <= FORCED YES 0 0")
    q = queue(t, "gpu.q", "h1", 2, gpu="1")
    plan = schedule(view(t, [q], [job(1), job(2, hard_resources={"gpu": "1"})]), 0.0)
    assert placed(plan) == {2: (("gpu.q@h1", 1),)}
    assert texts(plan, 1) == [
        "does not request 'forced' resource \"gpu\" of queue instance gpu.q@h1"
    ]


def test_unknown_resource_is_reported() -> None:
    """An attribute no level defines makes the queue refuse with 'unknown resource'."""
    t = table("foo foo INT <= YES NO 0 0")
    q = queue(t, "all.q", "h1", 2)
    plan = schedule(view(t, [q], [job(1, hard_resources={"foo": "1"})]), 0.0)
    assert texts(plan, 1) == [
        '(-l foo=1) cannot run in queue "all.q@h1" because job requests unknown resource (foo)'
    ]


def test_a_consumable_known_by_its_load_value_alone_is_static() -> None:
    """A consumable no level gives a capacity but a host reports as load (the testsuite's
    complex check, a load sensor's test_integer) is compared as a load value: requests up
    to it run, one above it is refused at host level, and nothing is booked."""
    t = table("ti ti INT <= YES YES 1 0")
    h = host(t, "h1", {"ti": "123456"})
    q = queue(t, "all.q", "h1", 4)
    jobs = [job(1, hard_resources={"ti": "123456"}), job(2, hard_resources={"ti": "123457"})]
    plan = schedule(view(t, [q], jobs, [h]), 0.0)
    assert list(placed(plan)) == [1]
    assert texts(plan, 2)[0].startswith('(-l ti=123457) cannot run at host "h1" because')
    assert h.level.used.get("ti", 0.0) == 0.0


def test_a_threshold_no_complex_defines_is_an_alarm() -> None:
    """sge_load_alarm(): a load threshold whose complex was removed puts the queue in
    alarm, in order with the thresholds before it."""
    t = table()
    assert load_alarm(t, [("gone", "5")], lambda n: 0.5) == (
        "gone", "5", 'no such complex attribute for threshold "gone"'
    )  # fmt: skip
    passed = load_alarm(t, [("np_load_avg", "0.1"), ("gone", "5")], lambda n: 0.5)
    assert passed is not None
    assert passed[0] == "np_load_avg"
    assert load_alarm(t, [("np_load_avg", "1.75")], lambda n: 0.5) is None


def test_restring_request_uses_wildcards_and_alternatives() -> None:
    """-l arch='sol*|lx-*' matches a lx-amd64 host; 'lx-?' does not."""
    t = table()
    hs = [host(t, "h1", {"arch": "lx-amd64"})]
    q = queue(t, "all.q", "h1", 2)
    jobs = [job(1, hard_resources={"arch": "sol*|lx-*"}), job(2, hard_resources={"arch": "lx-?"})]
    assert sorted(placed(schedule(view(t, [q], jobs, hs), 0.0))) == [1]


def test_hard_queue_list_with_wildcards() -> None:
    """-q '*@h2' restricts a job to the queue instances on h2."""
    t = table()
    qs = [queue(t, "all.q", "h1", 1), queue(t, "all.q", "h2", 1)]
    plan = schedule(view(t, qs, [job(1, hard_queues=("*@h2",))]), 0.0)
    assert placed(plan) == {1: (("all.q@h2", 1),)}


def test_user_lists_restrict_access() -> None:
    """A queue with user_lists admits only members; the others get 'no permission'."""
    t = table()
    q = queue(t, "vip.q", "h1", 4, user_lists="vips")
    jobs = [job(1, owner="alice"), job(2, owner="bob")]
    v = view(t, [q], jobs, usersets={"vips": frozenset({"alice"})})
    plan = schedule(v, 0.0)
    assert sorted(placed(plan)) == [1]
    assert texts(plan, 2) == ['has no permission for queue "vip.q@h1"']


def test_soft_request_prefers_the_queue_violating_fewer() -> None:
    """Among fitting queues the one meeting the soft request wins, seq_no notwithstanding."""
    t = table()
    hs = [host(t, "h1", {"arch": "lx-amd64"}), host(t, "h2", {"arch": "sol-sparc64"})]
    qs = [queue(t, "all.q", "h1", 1, seq_no=0), queue(t, "all.q", "h2", 1, seq_no=1)]
    plan = schedule(view(t, qs, [job(1, soft_resources={"arch": "sol*"})], hs), 0.0)
    assert placed(plan) == {1: (("all.q@h2", 1),)}


def test_full_queue_reason_and_priority_order() -> None:
    """The higher -p job gets the only slot; the other reads 'dropped because it is full'."""
    t = table()
    q = queue(t, "all.q", "h1", 1)
    plan = schedule(view(t, [q], [job(1), job(2, priority=10)]), 0.0)
    assert placed(plan) == {2: (("all.q@h1", 1),)}
    assert texts(plan, 1) == ['queue instance "all.q@h1" dropped because it is full']


def test_load_value_and_consumable_dominance() -> None:
    """A consumable reported as load too offers the smaller of what is left and the load."""
    t = table("mem_free mf MEMORY <= YES YES 0 0")
    h = HostState(host(t, "h1", {"mem_free": "1G"}, mem_free="4G").level)
    q = queue(t, "all.q", "h1", 4)
    plan = schedule(view(t, [q], [job(1, hard_resources={"mem_free": "2G"})], [h]), 0.0)
    assert plan.orders == []
    assert "hc:mem_free=1.000G" in texts(plan, 1)[0]


def test_unknown_host_offers_nothing_but_hostname() -> None:
    """A queue on a host the view does not list still matches -l hostname."""
    t = table()
    q: QueueState = queue(t, "all.q", "node7", 1)
    plan = schedule(view(t, [q], [job(1, hard_resources={"h": "NODE7"})]), 0.0)
    assert placed(plan) == {1: (("all.q@node7", 1),)}
