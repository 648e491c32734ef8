"""Properties of a pass: the category cache changes nothing, consumables are never overbooked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schedd import PeState, View, schedule
from schedd.categories import Groups, evaluate
from tests.unit.schedd.helpers import global_level, host, job, queue, table, view

TABLE = table("mem mem MEMORY <= YES YES 0 0", "lic lic INT <= YES JOB 0 0")
ARCHES = ("lx-amd64", "sol-sparc64")
Cell = tuple[int, list[tuple[int, int, int, int]], list[dict[str, Any]]]


@st.composite
def cells(draw: st.DrawFn) -> Cell:
    n_hosts = draw(st.integers(1, 4))
    hosts = [(draw(st.integers(0, 1)), draw(st.integers(1, 8))) for _ in range(n_hosts)]
    queues = [
        (h, draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.sampled_from([1, 2, 4])))
        for h in range(n_hosts)
        for _ in range(draw(st.integers(1, 2)))
    ]
    jobs = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "arch": st.sampled_from([None, *ARCHES, "lx-*"]),
                    "mem": st.sampled_from([None, "1G", "2G", "3G"]),
                    "lic": st.sampled_from([None, "1", "2"]),
                    "pe": st.sampled_from([None, (1, 2), (2, 4), (3, 3)]),
                    "p": st.integers(-1, 1),
                    "tasks": st.integers(1, 3),
                }
            ),
            max_size=14,
        )
    )
    return draw(st.integers(1, 5)), [(a, m, 0, 0) for a, m in hosts] + queues, jobs


def _build(lic: int, spec: list[tuple[int, int, int, int]], jobs: list[dict[str, Any]]) -> View:
    n_hosts = sum(1 for s in spec if s[2:] == (0, 0) and len(spec) > 0)
    hosts = [
        host(TABLE, f"h{i}", {"arch": ARCHES[a]}, mem=f"{m}G")
        for i, (a, m, *_r) in enumerate(spec[:n_hosts])
    ]
    queues = [
        queue(
            TABLE,
            f"q{n}",
            f"h{h}",
            slots,
            seq_no=seq,
            pe_list="pe",
            **({"mem": f"{qm}G"} if qm else {}),
        )
        for n, (h, seq, qm, slots) in enumerate(spec[n_hosts:])
    ]
    reqs = []
    for i, j in enumerate(jobs, start=1):
        hard = {k: str(j[k]) for k in ("arch", "mem", "lic") if j[k] is not None}
        pe = j["pe"]
        extra = {"pe_name": "pe", "pe_min": pe[0], "pe_max": pe[1]} if pe else {}
        reqs.append(
            job(
                i,
                priority=j["p"],
                hard_resources=hard,
                task_ids=list(range(1, int(j["tasks"]) + 1)),
                **extra,
            )
        )
    return view(TABLE, queues, reqs, hosts, glob=global_level(TABLE, lic=str(lic)), pes=[PeState("pe", 6, "$round_robin")])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(cells())
def test_category_cache_dispatches_exactly_as_without_it(cell: Cell) -> None:
    """With and without the category cache a pass gives the same orders and pending jobs."""
    with_cache = schedule(_build(*cell), 0.0)
    without = schedule(_build(*cell), 0.0, cache=False)
    assert [(o.job_id, o.task_id, o.assignment) for o in with_cache.orders] == [
        (o.job_id, o.task_id, o.assignment) for o in without.orders
    ]
    assert set(with_cache.reasons) == set(without.reasons)


@settings(max_examples=150, deadline=None)
@given(cells())
def test_no_consumable_is_ever_overbooked(cell: Cell) -> None:
    """After a pass no level holds more of a consumable than it has, PE slots included."""
    v = _build(*cell)
    plan = schedule(v, 0.0)
    levels = [
        v.global_level,
        *(h.level for h in v.hosts.values()),
        *(q.queue_level for q in v.queues),
    ]
    for level in levels:
        for name, used in level.used.items():
            assert used <= level.capacity[name] + 1e-6
    assert v.pes["pe"].used <= 6
    booked: dict[tuple[str, str, str], float] = {}
    for order in plan.orders:
        for kind, name, attr, amount in order.debits:
            booked[(kind, name, attr)] = booked.get((kind, name, attr), 0.0) + amount
    for (kind, name, attr), amount in booked.items():
        if kind == "queue":
            assert amount <= next(q for q in v.queues if q.name == name).queue_level.capacity[attr]


@settings(max_examples=150, deadline=None)
@given(
    cells(), st.lists(st.sampled_from([(), ("q*",), ("q1",), ("*@h0",), ("q0", "q2")]), max_size=14)
)
def test_grouped_instances_decide_as_each_alone(
    cell: Cell, queue_lists: list[tuple[str, ...]]
) -> None:
    """Evaluating a category once per group of alike instances (``-q`` lists included)
    keeps the same instances and gives the same reasons as evaluating each one alone."""
    v = _build(*cell)
    v.jobs = [
        replace(j, hard_queues=queue_lists[i % len(queue_lists)] if queue_lists else ())
        for i, j in enumerate(v.jobs)
    ]
    groups = Groups(v, v.queues)
    alone = Groups(v, v.queues)
    alone.members = alone.singles()
    for j in v.jobs:
        grouped = evaluate(v, v.queues, groups, j, "k")
        single = evaluate(v, v.queues, alone, j, "k")
        assert [q.name for q in grouped.static] == [q.name for q in single.static]
        assert sorted(map(str, grouped.reasons)) == sorted(map(str, single.reasons))
