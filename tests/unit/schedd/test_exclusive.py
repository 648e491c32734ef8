"""EXCL consumables: a job asking for exclusive use gets its host to itself."""

from __future__ import annotations

from schedd import schedule
from tests.unit.schedd.helpers import host, job, placed, queue, table, texts, view

EXCL = "exclusive excl BOOL EXCL YES YES 0 0"


def _cell(*jobs):  # type: ignore[no-untyped-def]
    t = table(EXCL)
    qs = [queue(t, "all.q", f"h{i}", 4) for i in (1, 2)]
    hosts = [host(t, f"h{i}", exclusive="true") for i in (1, 2)]
    return view(t, qs, list(jobs), hosts=hosts)


def test_an_exclusive_job_has_its_host_to_itself() -> None:
    """After an exclusive job lands on h1, the next jobs go to h2, not beside it."""
    plan = schedule(_cell(job(1, hard_resources={"excl": "true"}), job(2), job(3)), 0.0)
    hosts = {j: a[0][0].split("@")[1] for j, a in placed(plan).items()}
    assert hosts == {1: "h1", 2: "h2", 3: "h2"}


def test_an_exclusive_job_waits_for_a_host_nobody_uses() -> None:
    """Two busy hosts: an exclusive job waits, saying the hosts are in use; plain jobs share."""
    plain = [job(i) for i in range(1, 6)]
    plan = schedule(_cell(*plain, job(6, hard_resources={"excl": "true"})), 0.0)
    assert sorted(placed(plan)) == [1, 2, 3, 4, 5]
    assert (
        '(-l exclusive=true) cannot run at host "h2" because exclusive resource (exclusive) is'
        " already in use" in texts(plan, 6)
    )


def test_exclusive_use_is_booked_and_blocks_later_passes() -> None:
    """The dispatch books the host's exclusive attribute; a plain job then cannot use that host."""
    v = _cell(job(1, hard_resources={"excl": "true"}))
    plan = schedule(v, 0.0)
    assert ("host", "h1", "exclusive", 1.0) in plan.orders[0].debits
    t = v.complexes
    h1 = host(t, "h1", exclusive="true")
    h1.level.used["exclusive"] = 1.0
    later = view(t, [queue(t, "all.q", "h1", 4)], [job(2)], hosts=[h1])
    plan = schedule(later, 0.0)
    assert plan.orders == []
    assert texts(plan, 2) == [
        'cannot run at host "h1" because exclusive resource (exclusive) is already in use'
    ]
