"""A load order kept from pass to pass (instances moved by their old keys) is the order a
full sort gives, and one gone wrong is named by check_scheduler_caches."""

from __future__ import annotations

import random

import pytest

from qmaster.core.pendingindex import pass_view
from qmaster.core.schedstate import check_scheduler_caches
from schedd import QueueState, schedule
from schedd.candidates import KeptOrder, order_differs
from schedd.groups import Groups
from schedd.kept import KeyLog
from tests.unit.core.helpers import ROOT, T0, make_core, request, submit


def test_kept_order_moves_changed_hosts_like_a_full_sort() -> None:
    """Hosts' loads change a few at a time, or many at once, or too long ago for the log:
    the kept order always equals a sort by the current keys."""
    rng = random.Random(7)
    queues = [QueueState(f"{c}@h{i:03d}", c, f"h{i:03d}", 4, 0) for i in range(60) for c in "ab"]
    load = {q.host: float(rng.randint(0, 5)) for q in queues}

    def key(q: QueueState) -> tuple[float, float, str]:
        return (load[q.host], 0.0, q.name)

    log = KeyLog()
    kept = KeptOrder(sorted(queues, key=key), key, log)
    for step in range(400):
        hosts = rng.sample(sorted(load), 40 if step % 50 == 0 else rng.randint(0, 3))
        for h in hosts:
            load[h] = float(rng.randint(0, 5))
        log.add(set(hosts))
        if step % 3 == 0:  # read now and then: changes pile up between reads
            assert kept.current(key) == sorted(queues, key=key)
    assert not order_differs(kept, key)


@pytest.mark.no_validate_state  # corrupts the kept state on purpose
def test_kept_order_out_of_place_is_reported() -> None:
    """Two instances swapped in a kept load order are named by check_scheduler_caches."""
    core = make_core()
    lines = [
        "job_load_adjustments NONE" if ln.split()[:1] == ["job_load_adjustments"] else ln
        for ln in core.config.sched_conf.render().splitlines()
    ]  # the passes read kept orders only when no load adjustment moves the keys
    request(core, ROOT, "conf_modify", T0, kind="sched", text="\n".join(lines) + "\n")
    for _ in range(3):
        submit(core, CMDARGS=["50"])
    core.tick(T0)
    view_, _ = pass_view(core, T0 + 1)
    schedule(view_, T0 + 1)
    assert check_scheduler_caches(core, T0 + 1) == []
    cache = core.derived["kept_view"][1].cache
    orders = [o for g in cache.values() if isinstance(g, Groups) for o, _ in g.orders.values()]
    kept = next(o for o in orders if len(o.items) > 1)
    kept.items[0], kept.items[1] = kept.items[1], kept.items[0]
    assert any("kept load order" in p for p in check_scheduler_caches(core, T0 + 1))
