"""A day of simulated time with overlapping ARs, AR jobs and ordinary jobs, checked throughout."""

from __future__ import annotations

import math
import random

import pytest

from qmaster.core import Core
from qmaster.core.states import TaskState
from qmaster.core.view import assemble
from tests.unit.ar.helpers import HOUR, ar_core, qrsub
from tests.unit.core.helpers import ALICE, BOB, T0, request, submit

DAY = 24 * HOUR
ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)


def _capacities(core: Core) -> dict[tuple[str, str], dict[str, float]]:
    view = assemble(core, [], T0, empty=True)
    levels = [view.global_level, *(h.level for h in view.hosts.values())]
    levels += [q.queue_level for q in view.queues]
    caps = {(lv.kind, lv.name): dict(lv.capacity) for lv in levels}
    for name, pe in view.pes.items():
        caps[("pe", name)] = {"slots": float(pe.slots)}
    return caps


def _check(core: Core, caps: dict[tuple[str, str], dict[str, float]], now: float) -> None:
    for (kind, name), used in core.booked.used.items():
        for attr, amount in used.items():
            cap = caps.get((kind, name), {}).get(attr, math.inf)
            assert amount <= cap + 1e-9, f"{kind} {name} books {amount} {attr} of {cap} at {now}"
    for key, spans in core.ar_calendar.spans.items():
        cap = caps.get(key[:2], {}).get(key[2], math.inf)
        for t in {s for s, _, _ in spans}:
            assert sum(a for s, e, a in spans if s <= t < e) <= cap + 1e-9
    for job in core.jobs.values():
        ar_id = job.spec.ar or 0
        if not ar_id:
            continue
        ar = core.ars.get(ar_id)
        for task in job.tasks.values():
            if task.state in ACTIVE:
                assert ar is not None, f"job {job.job_id} outlives its AR"
                assert now < ar.end_time, f"job {job.job_id} outlives its AR"
                granted = {q for q, _ in ar.granted}
                assert {q for q, _ in task.assignment} <= granted


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_day_never_overbooks_and_no_job_outlives_its_ar(seed: int) -> None:
    """Over a simulated day no level books more than it has and AR jobs end with their AR."""
    rng = random.Random(seed)
    core = ar_core()
    request(core, ALICE, "conf_add", kind="userset", name="arusers", members=["bob"])
    caps = _capacities(core)
    now, granted, jobs = T0, 0, 0
    while now < T0 + DAY:
        now += rng.uniform(60, 900)
        who = rng.choice([ALICE, BOB])
        roll = rng.random()
        if roll < 0.25:
            spec = {"a": now + rng.uniform(0, 6 * HOUR), "d": rng.choice([1800, HOUR, 3 * HOUR])}
            if rng.random() < 0.5:
                spec.update(pe_name="mpi", pe_min=rng.randint(2, 8), pe_max=8)
            granted += not qrsub(core, who, now, **spec).answers[0].is_error
        elif roll < 0.6 and core.ars:
            ar = rng.choice(list(core.ars.values()))
            h_rt = rng.choice([None, "600", "1800"])
            spec = {"ar": ar.ar_id, "CMDARGS": [str(rng.randint(60, 4000))]}
            if h_rt:
                spec["l_hard"] = {"h_rt": h_rt}
            out = submit(core, ar.owner, now, **spec)
            jobs += not out.answers[0].is_error
        else:
            h_rt = rng.choice([None, "300", "3600"])
            spec = {"CMDARGS": [str(rng.randint(60, 7200))]}
            if h_rt:
                spec["l_hard"] = {"h_rt": h_rt}
            submit(core, who, now, **spec)
        for _ in range(2):  # dispatch, then start
            core.tick(now)
            _check(core, caps, now)
    assert granted > 5
    assert jobs > 5
