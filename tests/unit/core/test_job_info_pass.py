"""``schedd_job_info false``: the pass skips collecting why jobs wait, and nothing else changes.

Nobody can read a pending job's reasons while the setting is off (``qstat -j`` says the
collecting is turned off), so the pass does not gather them, and refuses a parallel
job that asks for more slots than the cell has free without looking at every queue
instance. The schedule is the same; turned on again, the next pass says why exactly
as if it had never been off.
"""

from __future__ import annotations

from typing import Any

from qmaster.core import Core
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, states, submit


def set_sched(core: Core, key: str, value: str, now: float) -> None:
    """Change one attribute of the scheduler configuration as ``qconf -msconf`` would."""
    conf = core.config.sched_conf
    lines = [
        f"{key} {value}" if ln.split()[:1] == [key] else ln for ln in conf.render().splitlines()
    ]
    out = request(core, ROOT, "conf_modify", now, kind="sched", text="\n".join(lines) + "\n")
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]


def cell(job_info: str) -> Core:
    """Job 1 runs on a slot; job 2 wants all 16 slots of the cell (15 free); 3 and 4 are serial."""
    core = make_core()
    set_sched(core, "schedd_job_info", job_info, T0)
    submit(core, CMDARGS=["1000"])
    run_until(core, T0 + 5)
    submit(core, now=T0 + 6, CMDARGS=["10"], pe_name="mpi", pe_min=16, pe_max=16)
    submit(core, now=T0 + 6, CMDARGS=["10"], pe_name="mpi", pe_min=4, pe_max=4)
    submit(core, now=T0 + 6, CMDARGS=["10"])
    run_until(core, T0 + 8)
    return core


def info(core: Core, job_id: int) -> Any:
    out = request(core, ROOT, "job_detail", core.now, job_ids=[str(job_id)])
    return out.data["jobs"][0]["scheduling_info"]


def test_the_schedule_is_the_same_without_job_info() -> None:
    """The same jobs run where they would with schedd_job_info true; the wide one waits."""
    quiet, told = cell("false"), cell("true")
    assert states(quiet) == states(told)
    assert states(quiet)["2"] == "qw"
    assert states(quiet)["3"] in ("t", "r")
    assert info(quiet, 2) == ["(Collecting of scheduler job information is turned off)"]


def test_turned_on_the_next_pass_says_why_as_before() -> None:
    """After schedd_job_info goes from false to true, qstat -j of the waiting parallel job
    lists the very reasons of a cell where it was always true."""
    quiet, told = cell("false"), cell("true")
    for core in (quiet, told):  # the same change in both: a pass at the same time
        set_sched(core, "schedd_job_info", "true", T0 + 9)
    run_until(quiet, T0 + 12)
    run_until(told, T0 + 12)
    wanted = info(told, 2)
    assert any("cannot run in PE" in line or "offers only" in line for line in wanted), wanted
    assert info(quiet, 2) == wanted
