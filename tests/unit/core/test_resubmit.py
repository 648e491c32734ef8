"""qresub in the core: a copy of a job goes through the submission path (sge_gdi_copy_job())."""

from __future__ import annotations

from qmaster.core.effects import Reply
from qmaster.model import Status
from tests.unit.core.helpers import (
    ALICE,
    BOB,
    JSV_SCRIPT,
    ROOT,
    T0,
    answer,
    make_core,
    questions,
    request,
    set_global,
    states,
    submit,
)


def _resubmit(core, who, job_id, hold=None, now=None):  # type: ignore[no-untyped-def]
    return request(core, who, "resubmit", now, job_id=job_id, hold=hold)


def test_the_copy_is_a_new_job_of_the_caller_without_the_originals_holds() -> None:
    """root copies alice's held job: job 2, owned by root, submitted now, pending without a
    hold; name, requests and context are the original's."""
    core = make_core()
    submit(core, ALICE, N="orig", h=True, l_hard={"arch": "lx-amd64"}, ac={"a": "1"})
    out = _resubmit(core, ROOT, "1", now=T0 + 5)
    assert [(a.status, a.text) for a in out.answers] == [
        (Status.OK, 'Your job 2 ("orig") has been submitted')
    ]
    copy, orig = core.jobs[2], core.jobs[1]
    assert (copy.owner.user, copy.submit_time) == ("root", T0 + 5)
    assert copy.spec.hard_resources == orig.spec.hard_resources
    assert copy.spec.context == orig.spec.context
    assert states(core) == {"1": "hqw", "2": "qw"}


def test_hold_list_holds_the_copy_or_the_named_tasks() -> None:
    """-h u holds every task of the copy; 2.2-3 -h o only tasks 2 and 3 (root: operator)."""
    core = make_core()
    submit(core, ALICE, t_min=1, t_max=4)
    _resubmit(core, ALICE, "1", hold="u")
    assert states(core)["2.1-4:1"] == "hqw"
    assert core.jobs[2].spec.user_hold is True
    _resubmit(core, ROOT, "1.2-3", hold="o")
    assert states(core) == {"1.1-4:1": "qw", "2.1-4:1": "hqw", "3.1,4": "qw", "3.2,3": "hqw"}


def test_refusals_use_grid_engines_words_and_status() -> None:
    """An unknown job, a name (job 0), another user's job, an operator hold by a user."""
    core = make_core()
    submit(core, ALICE)
    cases = [(ALICE, "99", None), (ALICE, "job.sh", None), (BOB, "1", None), (ALICE, "1", "o")]
    got = [[(a.status, a.text) for a in _resubmit(core, *case).answers] for case in cases]
    assert got == [
        [(Status.EUNKNOWN, 'job "99" does not exist')],
        [(Status.EUNKNOWN, 'job "0" does not exist')],
        [(Status.EUNKNOWN,
          "job rejected: bob@localhost is not allowed to resubmit jobs of user alice")],
        [(Status.ENOMGR, 'denied: "alice" must be operator to set operator hold')],
    ]  # fmt: skip
    assert list(core.jobs) == [1]


def test_the_server_jsv_is_asked_about_the_copy() -> None:
    """With a server JSV the copy waits for its verdict as a qsub does: the JSV sees the new
    job id and the caller; REJECT stores nothing."""
    core = make_core()
    submit(core, ALICE, N="orig")
    set_global(core, jsv_url=str(JSV_SCRIPT))
    out = _resubmit(core, ALICE, "1", hold="u")
    (question,) = questions(out)
    assert (question.job_id, question.owner, question.spec["N"]) == (2, ALICE, "orig")
    assert question.spec["h"] is True
    replies = [e for e in answer(core, question, "ACCEPT").effects() if isinstance(e, Reply)]
    assert replies[0].answers[0].text == 'Your job 2 ("orig") has been submitted'
    (question,) = questions(_resubmit(core, ALICE, "1"))
    answer(core, question, "REJECT", message="no copies")
    assert list(core.jobs) == [1, 2]
