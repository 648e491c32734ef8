"""A job leaves memory and spool once its tasks are accounted; qstat -s z keeps a small record."""

from __future__ import annotations

from qmaster.core.job_filter import FinishedJob
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, submit


def test_a_finished_array_is_accounted_then_forgotten_but_for_its_record() -> None:
    """Six tasks end: six accounting records, the job's rows deleted from the spool, the
    job gone from the cell, and qstat -s z still shows it from a record without tasks."""
    core = make_core()
    submit(core, CMDARGS=["1"], t_min=1, t_max=6, N="arr")
    outs = run_until(core, T0 + 30)
    accounted = [r for o in outs for r in o.reports if type(r).__name__ == "Acct"]
    assert len(accounted) == 6
    assert any(o.spool.jobs.get(1, "kept") is None for o in outs)
    assert 1 not in core.jobs
    (record,) = core.zombies
    assert isinstance(record, FinishedJob)
    assert record.tasks == {}
    out = request(core, ROOT, "job_list", T0 + 30, users=None, states="z")
    (row,) = out.data["jobs"]
    assert (row["job_id"], row["state"], row["tasks"], row["name"]) == (1, "z", "1-6:1", "arr")
    assert T0 <= row["start_time"] <= T0 + 30
