"""What a pass keeps of the dropped instances and the hosts' free slots is checked
against a rebuild, and a serial job waits without a walk when no host has a free slot."""

from __future__ import annotations

import pytest

from qmaster.core.pendingindex import pass_view
from qmaster.core.schedstate import check_scheduler_caches
from schedd import View, schedule
from schedd.freeslots import FreeSlots
from tests.unit.core.helpers import T0, make_core, submit
from tests.unit.schedd.helpers import host, job, placed, queue, table, texts, view


@pytest.mark.no_validate_state  # corrupts the kept state on purpose
def test_stale_kept_dropped_instances_and_free_slots_are_reported() -> None:
    """A queue instance wrongly kept as without a free slot, or a host's free slots
    counted wrong, is named by check_scheduler_caches."""
    core = make_core()
    submit(core, CMDARGS=["50"])
    submit(core, CMDARGS=["50"], l_hard={"arch": "sol*"})  # never runs: the passes go on
    core.tick(T0)
    view_, _ = pass_view(core, T0 + 1)
    schedule(view_, T0 + 1)
    assert check_scheduler_caches(core, T0 + 1) == []
    cache = core.derived["kept_view"][1].cache
    cache["no_free"].add(view_.queues[-1].name)
    problems = check_scheduler_caches(core, T0 + 1)
    assert any("without a free slot" in p for p in problems)
    cache["no_free"].discard(view_.queues[-1].name)
    slots = cache["free_slots"]
    assert isinstance(slots, FreeSlots)
    slots.total += 1
    assert any("free slots" in p for p in check_scheduler_caches(core, T0 + 1))


def full_cell(job_info: bool) -> View:
    """Two hosts of 2 slots, both busy; their queue instances have slots to spare."""
    t = table()
    hosts = [host(t, f"h{i}", slots="2") for i in (1, 2)]
    for h in hosts:
        h.level.used["slots"] = 2.0
    qs = [queue(t, "all.q", f"h{i}", 4) for i in (1, 2)]
    return view(t, qs, [job(1), job(2)], hosts, job_info=job_info)


def test_a_serial_job_waits_when_no_host_has_a_free_slot() -> None:
    """Without job info the serial jobs wait as they do with it (where the reasons say
    the hosts offer no slot)."""
    quiet, told = schedule(full_cell(False), 0.0), schedule(full_cell(True), 0.0)
    assert placed(quiet) == placed(told) == {}
    assert texts(quiet, 1) == []
    assert any('host "h1"' in t for t in texts(told, 1))
