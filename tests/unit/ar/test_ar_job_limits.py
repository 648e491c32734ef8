"""A job in an AR never runs past the AR: its h_rt is cut to the end minus DURATION_OFFSET."""

from __future__ import annotations

from typing import Any

from qmaster.events.records import Acct
from tests.unit.ar.helpers import HOUR, ar_core, qrsub
from tests.unit.core.helpers import ALICE, ROOT, T0, request, run_until, submit


def _accounting(core: Any, until: float) -> list[Acct]:
    outs = run_until(core, until)
    return [r for out in outs for r in out.reports if isinstance(r, Acct)]


def test_runtime_is_cut_to_the_ar_end_minus_duration_offset() -> None:
    """A long job without h_rt in a 1 h AR is ended by an h_rt limit 60 s before the AR ends."""
    core = ar_core()
    qrsub(core, d=HOUR)
    assert not submit(core, ALICE, T0, ar=1, CMDARGS=["99999"]).answers[0].is_error
    [done] = _accounting(core, T0 + HOUR)
    assert done.end_time == int(T0 + HOUR - 60)
    assert (done.failed, done.exit_status) == (100, 137)  # killed by execd at h_rt


def test_duration_offset_sets_the_cut() -> None:
    """With DURATION_OFFSET=0:5:0 the job ends five minutes before the AR."""
    core = ar_core()
    text = request(core, ROOT, "conf_show", kind="sched", name=None).data["text"]
    lines = [
        "params DURATION_OFFSET=0:5:0" if line.startswith("params") else line
        for line in text.splitlines()
    ]
    out = request(core, ROOT, "conf_modify", kind="sched", text="\n".join(lines) + "\n")
    assert not any(a.is_error for a in out.answers), out.answers
    qrsub(core, d=HOUR)
    submit(core, ALICE, T0, ar=1, CMDARGS=["99999"])
    [done] = _accounting(core, T0 + HOUR)
    assert done.end_time == int(T0 + HOUR - 300)


def test_short_jobs_end_on_their_own() -> None:
    """A job that ends before the cut ends normally."""
    core = ar_core()
    qrsub(core, d=HOUR)
    submit(core, ALICE, T0, ar=1, CMDARGS=["30"])
    [done] = _accounting(core, T0 + HOUR)
    assert (done.end_time, done.failed, done.exit_status) == (int(T0 + 30), 0, 0)
