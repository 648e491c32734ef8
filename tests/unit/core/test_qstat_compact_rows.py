"""job_list's compact and chunked replies carry exactly the rows of the dict reply."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Core, job_priority, qstat_rows
from qmaster.core.job_priority import JobPriorities
from qmaster.core.qstat_rows import ChunkedListing, Priors
from qmaster.qstat_wire import expand, in_queue
from schedd.priority import Weights
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, request, run_until, submit

OPTIONS: list[dict[str, Any]] = [
    {},
    {"states": "a"},
    {"states": "hu"},
    {"states": "pz"},
    {"states": "r"},
    {"full": True},
    {"columns": ["ext", "pri", "urg"]},
    {"requirements": True},
    {"group": "d"},
    {"group": "t", "full": True},
    {"queues": ["all.q"], "full": True},
    {"users": ["bob"]},
]


def varied_cell() -> Core:
    """Running, finished, held, array, -hold_jid_ad, -p and -ot jobs."""
    core = make_core()
    for n in range(6):
        submit(core, ALICE, CMDARGS=["30"], N=f"run{n}", p=-n * 10)
    submit(core, BOB, CMDARGS=["1"], N="short")
    run_until(core, T0 + 5)
    submit(core, ALICE, t_min=1, t_max=40, t_step=3, CMDARGS=["30"], N="arr", now=T0 + 5)
    submit(core, BOB, h=True, N="held", ot=5, now=T0 + 5)
    submit(core, ALICE, hold_jid=["run0"], N="after", now=T0 + 5)
    submit(core, ALICE, t_min=1, t_max=40, t_step=3, hold_jid_ad=["arr"], N="ad", now=T0 + 5)
    for n in range(30):
        submit(core, BOB if n % 3 else ALICE, CMDARGS=["100"], N=f"wait{n}", now=T0 + 6)
    run_until(core, T0 + 8, start=T0 + 5)
    return core


@pytest.fixture(scope="module")
def cell() -> Core:
    return varied_cell()


def reply(core: Core, **args: Any) -> Any:
    args.setdefault("users", None)
    out = request(core, ROOT, "job_list", T0 + 9, **args)
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]
    return out.data


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_compact_rows_equal_dict_rows(cell: Core, opts: dict[str, Any]) -> None:
    """qstat gets the same rows, in the same order, whether sent as dicts or as lists."""
    plain = reply(cell, **opts)
    small = reply(cell, compact=True, **opts)
    assert [expand(r) for r in small.pop("job_rows")] == plain.pop("jobs")
    assert small == plain


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_chunks_running_first(cell: Core, opts: dict[str, Any]) -> None:
    """Streamed in frames, the rows in a queue come first, then the others in job order."""
    plain = reply(cell, **opts)
    chunked = reply(cell, compact=True, chunk=4, running_first=True, **opts)
    assert isinstance(chunked, ChunkedListing)
    frames = list(chunked.frames())
    assert [f["more"] for f in frames] == [True] * (len(frames) - 1) + [False]
    assert all(0 < len(f["job_rows"]) <= 4 for f in frames[1:])
    head = {k: v for k, v in frames[0].items() if k not in ("job_rows", "more")}
    rows = [expand(r) for f in frames for r in f["job_rows"]]
    want = plain.pop("jobs")
    assert head == plain
    assert all(in_queue(r) for r in frames[0]["job_rows"])
    running = [r for r in want if r["queue"]]
    assert rows == running + [r for r in want if not r["queue"]]
    assert len(frames[0]["job_rows"]) == len(running)


def test_chunks_in_order(cell: Core) -> None:
    """Without running_first the frames keep the reply's own order (qstat -json)."""
    want = reply(cell, states="a")["jobs"]
    chunked = reply(cell, compact=True, chunk=7, states="a")
    rows = [expand(r) for f in chunked.frames() for r in f["job_rows"]]
    assert len(want) > 7
    assert rows == want


def test_a_job_gone_between_frames_is_left_out() -> None:
    """A job deleted while its listing is being sent is not shown afterwards."""
    core = make_core()
    for n in range(5):
        submit(core, ALICE, h=True, N=f"j{n}")
    chunked = reply(core, compact=True, chunk=1, running_first=True)
    frames = chunked.frames()
    first = next(frames)
    request(core, ROOT, "delete", T0 + 9, job_ids=["5"])
    ids = [r[0] for r in first["job_rows"]] + [r[0] for f in frames for r in f["job_rows"]]
    assert ids == [1, 2, 3, 4]


@pytest.mark.no_validate_state  # gives jobs a deadline behind the core's back
@pytest.mark.parametrize("waiting", [0.0, 0.25])
def test_prior_column_is_the_schedulers_priority(
    waiting: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prior qstat shows is priority_of's, rounded, with deadlines, -p, tickets and
    resource requests mixed, with and without a waiting time weight."""
    core = make_core()
    submit(core, ALICE, p=-100, N="low")
    submit(core, ROOT, N="deadline")
    submit(core, BOB, ot=30, N="tickets", now=T0 + 3)
    submit(core, BOB, l_hard={"h_vmem": "2G"}, pe_name="make", pe_min=2, pe_max=2, N="big")
    submit(core, ROOT, p=7, ot=3, now=T0 + 7)
    for job_id, deadline in ((2, T0 + 500), (5, T0 + 50)):  # as a deadline user's -dl
        core.jobs[job_id].spec = core.jobs[job_id].spec.changed(deadline=deadline)
    boosted = Weights(waiting_time=waiting)
    monkeypatch.setattr(qstat_rows, "weights", lambda _: boosted)
    monkeypatch.setattr(job_priority, "weights", lambda _: boosted)
    assert len(core.jobs) == 5
    priors = Priors(core, T0 + 20, core.jobs.values())
    reference = JobPriorities(core, T0 + 20)
    shown = [priors.prior(j) for j in core.jobs.values()]
    assert shown == [round(reference.of(j).prio, 5) for j in core.jobs.values()]
    assert len(set(shown)) >= 4
