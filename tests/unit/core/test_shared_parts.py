"""Parts many jobs have alike are held once: a million waiting jobs fit in the memory they should."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.jobs import Job
from qmaster.core.schedjobs import request_memo
from schedd.catkeys import with_category
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, run_until, states, submit


def _jobs(core: Core) -> list[Job]:
    return [core.jobs[i] for i in sorted(core.jobs)]


def test_jobs_without_holds_share_their_empty_sets() -> None:
    """Submitted and recovered jobs without a hold or a rescheduled task hold no sets of
    their own (two empty sets were 435 bytes a job)."""
    core = make_core()
    for _ in range(3):
        submit(core, CMDARGS=["100"])
    submit(core, h=True)
    a, b, c, held = _jobs(core)
    assert a.holds is b.holds is c.holds
    assert not a.holds
    assert a.restarted is b.restarted is c.restarted
    assert not a.restarted
    assert held.hold == {"u"}
    rows = [job.to_row() for job in (a, b, c, held)]
    again = Core.recover(core.config, core.settings, rows, [], {}, T0)
    x, y, z, held_again = _jobs(again)
    assert x.holds is y.holds is z.holds is a.holds
    assert x.restarted is y.restarted is a.restarted
    assert held_again.hold == {"u"}


def test_a_hold_released_on_one_job_leaves_the_others_held() -> None:
    """Shared hold sets are never changed in place: qrls of one job leaves the rest held."""
    core = make_core()
    submit(core, h=True)
    submit(core, h=True)
    request(core, ALICE, "alter", T0, job_ids=["1"], job={}, hold="U")
    assert states(core) == {"1": "qw", "2": "hqw"}


def test_a_rescheduled_task_marks_only_its_own_job() -> None:
    """qmod -rj of one job shows Rq for it alone, not for the jobs sharing its empty set."""
    core = make_core()
    submit(core, CMDARGS=["100"], r=True)
    submit(core, CMDARGS=["100"], r=True, h=True)
    run_until(core, T0 + 2)
    out = request(core, ROOT, "qmod", T0 + 3, action="rj", targets=["1"], force=True)
    assert "rescheduling of job 1" in out.answers[0].text
    assert states(core, T0 + 3) == {"1": "Rq", "2": "hqw"}
    assert not core.jobs[2].restarted


def test_equal_requests_share_their_parts_and_keep_their_category() -> None:
    """Jobs asking alike share one resource dict and queue list; each job's category is the
    one the scheduler would work out from its request."""
    core = make_core()
    for n in range(2):
        submit(core, CMDARGS=[str(n)], l_hard={"arch": "lx-amd64"}, q_hard=["all.q"])
    submit(core, l_hard={"arch": "lx-amd64", "h_rt": "60"})
    first, second, other = (request_memo(job).base for job in _jobs(core))
    assert first.hard_resources is second.hard_resources
    assert first.hard_queues is second.hard_queues
    assert first.category == second.category != other.category
    assert other.hard_resources == {"arch": "lx-amd64", "h_rt": "60"}
    for base in (first, other):
        assert base.category == with_category(base).category


def test_a_pass_makes_the_requests_only_of_the_jobs_it_reaches() -> None:
    """Waiting jobs are filed by category; a pass makes the scheduler request of the first
    job of each category only (a million waiting jobs cost no million requests)."""
    core = make_core()
    for n in range(30):
        submit(core, CMDARGS=["100"], l_hard={"arch": "no-such-arch"}, N=f"w{n}")
    for _ in range(20):
        submit(core, CMDARGS=["100"], l_hard={"arch": "no-such-arch"}, q_hard=["all.q"])
    run_until(core, T0 + 5)
    assert set(states(core, T0 + 5).values()) == {"qw"}
    with_request = [job.job_id for job in _jobs(core) if job.request_memo is not None]
    assert with_request == [1, 31]
