"""A job leaves memory and spool once its tasks are accounted; qstat -s z keeps a small record."""

from __future__ import annotations

from qmaster.core.job_filter import FinishedJob
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, set_global, submit


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


def test_a_finished_job_names_its_tasks_that_never_started() -> None:
    """qstat -j of a job gone from the cell names it under "finished" while the qmaster
    keeps it, with the tasks deleted while pending (no accounting record will come for
    them: qsub -sync y need not wait); a job ended long ago or never known is missing only."""
    core = make_core()
    submit(core, CMDARGS=["1"], t_min=1, t_max=6, h=True, N="arr")
    request(core, ROOT, "delete", T0, job_ids=["1.3-4"])
    request(core, ROOT, "alter", T0, job_ids=["1"], job={"h": False})
    submit(core, h=True)  # job 2: deleted while held, it never ran
    request(core, ROOT, "delete", T0, job_ids=["2"])
    run_until(core, T0 + 30)
    assert 1 not in core.jobs
    data = request(core, ROOT, "job_detail", T0 + 30, job_ids=["1", "2", "9"]).data
    assert data["jobs"] == []
    assert data["missing"] == ["1", "2", "9"]
    assert data["finished"] == [
        {"job_id": 1, "never_started": [[3, 4, 1]]},
        {"job_id": 2, "never_started": [[0, 0, 1]]},
    ]
    set_global(core, finished_jobs="0")
    submit(core, h=True)  # job 3: the zombie list is cleared with finished_jobs 0
    request(core, ROOT, "delete", T0 + 30, job_ids=["3"])
    data = request(core, ROOT, "job_detail", T0 + 30, job_ids=["2", "3"]).data
    assert data["finished"] == []
