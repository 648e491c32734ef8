"""The pending index built a slice at a time (the daemon's first pass after a start): the
pass that follows dispatches what a pass building it at once would, whatever requests
changed between the slices; and the daemon's loop answers requests between slices."""

from __future__ import annotations

import asyncio

import pytest

from qmaster import ticker
from qmaster.core import Core
from qmaster.core.pendingindex import IndexBuild, kept_index
from tests.unit.core.helpers import ALICE, BOB, T0, make_core, request, run_until, states, submit


def _busy_cell() -> Core:
    """40 waiting jobs of two users, three categories and four priorities for 16 slots."""
    core = make_core()
    for i in range(40):
        who = ALICE if i % 2 else BOB
        submit(core, who, T0, CMDARGS=["1000"], l_hard={"h_rt": str(100 + i % 3)}, p=-(i % 4))
    return core


def _changes(core: Core, now: float) -> None:
    """What requests do while the index is half built: jobs filed already and jobs not
    reached yet deleted and reprioritised, and a new job."""
    for job_id in ("3", "30"):
        request(core, ALICE if int(job_id) % 2 == 0 else BOB, "delete", now, job_ids=[job_id],
                force=False, users=None)  # fmt: skip
    for job_id in ("6", "26"):
        request(core, ALICE, "alter", now, job_ids=[job_id], users=None, job={"p": -900})
    submit(core, ALICE, now, CMDARGS=["1000"], l_hard={"h_rt": "100"})


def test_a_pass_after_a_build_in_slices_dispatches_as_one_after_a_whole_build() -> None:
    """Jobs changed between slices are filed again at the pass: the same 16 jobs run."""
    sliced, whole = _busy_cell(), _busy_cell()
    build = IndexBuild.wanted(sliced)
    assert build is not None
    assert not build.step(sliced, 7)
    assert kept_index(sliced) is None  # not the core's until the last slice
    _changes(sliced, T0 + 1)
    _changes(whole, T0 + 1)
    while not build.step(sliced, 7):
        pass
    assert kept_index(sliced) is build.index
    run_until(sliced, T0 + 2, T0 + 2)
    run_until(whole, T0 + 2, T0 + 2)
    assert kept_index(sliced) is build.index  # used, not built again
    assert states(sliced, T0 + 2) == states(whole, T0 + 2)
    assert list(states(sliced, T0 + 2).values()).count("r") == 16


def test_a_build_made_needless_by_a_pass_stops() -> None:
    """A pass that built the index itself meanwhile (its tick came first) ends the build,
    and the index stays the pass's own."""
    core = _busy_cell()
    build = IndexBuild.wanted(core)
    assert build is not None
    build.step(core, 7)
    run_until(core, T0 + 1, T0 + 1)
    built = kept_index(core)
    assert built is not None
    assert built is not build.index
    assert build.step(core, 7)
    assert kept_index(core) is built
    assert IndexBuild.wanted(core) is None  # kept: nothing to build before the next pass


def test_the_daemon_answers_between_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request waiting on the event loop is served before the build has ended."""
    monkeypatch.setattr(ticker, "INDEX_SLICE", 4)
    core = _busy_cell()
    seen: list[bool] = []

    async def a_request() -> None:
        seen.append(kept_index(core) is None)

    async def start() -> None:
        waiting = asyncio.create_task(a_request())
        await ticker.build_pending_index(lambda: core)
        await waiting

    asyncio.run(start())
    assert seen == [True]
    assert kept_index(core) is not None
