"""Bugs the random state machine found, each kept as a plain regression test."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.armembers import jobs_of
from qmaster.core.spool_image import SpoolImage
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    submit,
    waiting_job,
)


def _restart(core: Core, image: SpoolImage, now: float) -> Core:
    tasks = [{**row, "job_id": key[0]} for key, row in image.tasks.items()]
    return Core.recover(
        core.config, core.settings, list(image.jobs.values()), tasks, image.counters, now
    )


def test_a_restart_keeps_the_booking_of_a_task_on_a_host_that_left_its_queue() -> None:
    """A job running on a host taken out of @allhosts still holds its slot after a restart."""
    core = make_core()
    image = SpoolImage.of_core(core)
    image.apply(submit(core, ALICE, T0, CMDARGS=["100"], l_hard={"hostname": "host4"}).spool)
    for out in run_until(core, T0 + 1):
        image.apply(out.spool)
    text = "group_name @allhosts\nhostlist   host1 host2 host3\n"
    image.apply(request(core, ROOT, "conf_modify", T0 + 1, kind="hostgroup", text=text).spool)
    again = _restart(core, image, T0 + 2)
    assert again.booked.by_task == core.booked.by_task
    assert again.booked.slots("all.q@host4") == 1
    again.validate_state()


def test_deleting_a_job_waiting_for_verification_forgets_it_there_too() -> None:
    """qdel of a vqw job: the job is gone, and so is its place among the waiting jobs."""
    core = make_core()
    assert waiting_job(core, ALICE, T0) == 1
    assert core.verify_waiting == {1}
    request(core, ALICE, "delete", T0, job_ids=["1"])
    assert core.jobs == {}
    assert core.verify_waiting == set()


def test_the_jobs_of_an_ar_follow_submission_alteration_and_deletion() -> None:
    """An AR's jobs are found through a kept index: a job moved into an AR by qalter -ar,
    out of it, and deleted is seen (or not) by the AR at once."""
    core = make_core()
    request(core, ROOT, "ar_submit", ar={"a": T0 + 3600, "d": 600.0})
    request(core, ROOT, "ar_submit", ar={"a": T0 + 7200, "d": 600.0})
    submit(core, ROOT, CMDARGS=["10"], b=True, ar=1)
    submit(core, ROOT, CMDARGS=["10"], b=True)
    assert [j.job_id for j in jobs_of(core, 1)] == [1]
    request(core, ROOT, "alter", job_ids=["2"], job={"ar": 1})
    assert [j.job_id for j in jobs_of(core, 1)] == [1, 2]
    request(core, ROOT, "alter", job_ids=["1"], job={"ar": 2})
    assert [j.job_id for j in jobs_of(core, 1)] == [2]
    assert [j.job_id for j in jobs_of(core, 2)] == [1]
    request(core, ROOT, "delete", job_ids=["1"], force=False)
    assert jobs_of(core, 2) == []
