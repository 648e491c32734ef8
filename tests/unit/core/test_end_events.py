"""The events an event client sees when jobs and array tasks leave the qmaster (qevent -trigger)."""

from __future__ import annotations

from typing import Any

from tests.unit.core.helpers import ALICE, T0, make_core, request, run_until, submit


def ends(outs: list[Any]) -> list[tuple[str, int, int]]:
    return [(e["type"], e["job_number"], e["task_number"]) for o in outs for e in o.events]


def test_a_job_without_array_tasks_ends_as_task_1() -> None:
    """A plain job's end is one job_del with ja_task_id 1."""
    core = make_core()
    submit(core, CMDARGS=["5"])
    assert ends(run_until(core, T0 + 10)) == [("job_del", 1, 1)]


def test_array_tasks_end_before_their_job() -> None:
    """Every array task but the last is a jatask_del; the last one ends the job (job_del)."""
    core = make_core()
    submit(core, CMDARGS=["5"], t_min=1, t_max=3, t_step=1)
    got = ends(run_until(core, T0 + 10))
    assert sorted(task for _, _, task in got) == [1, 2, 3]
    assert [kind for kind, _, _ in got] == ["jatask_del", "jatask_del", "job_del"]


def test_deleting_a_pending_job_ends_it() -> None:
    """qdel of a pending (held) job is its job_del."""
    core = make_core()
    submit(core, CMDARGS=["5"], h=True)
    out = request(core, ALICE, "delete", T0, job_ids=["1"], force=False, users=None)
    assert ends([out]) == [("job_del", 1, 1)]
