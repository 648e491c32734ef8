"""The server JSV as an effect: the core asks (VerifyJob), a fake JSV answers (JsvVerdict)."""

from __future__ import annotations

import heapq
from typing import Any

import pytest

from qmaster.core import Core
from qmaster.core.effects import Reply, VerifyJob
from qmaster.core.jobspec import JobSpec
from qmaster.core.stimuli import Alter, JsvVerdict, Submit
from qmaster.core.validate import InvalidState
from qmaster.model import Status
from tests.unit.core.helpers import (
    ALICE,
    BOB,
    JSV_SCRIPT,
    T0,
    answer,
    jsv_verdict,
    make_core,
    questions,
    set_global,
    states,
)


def _jsv_core(**values: str) -> Core:
    core = make_core()
    set_global(core, jsv_url=str(JSV_SCRIPT), **values)
    return core


def _submit(core: Core, verify: Any = "n", **spec: Any) -> VerifyJob:
    out = core.handle(Submit(ALICE, JobSpec.from_dict({"CMDNAME": "job.sh", **spec}), verify), T0)
    assert not any(isinstance(e, Reply) for e in out.effects())  # nobody is answered yet
    assert not out.spool  # nothing is stored before the verdict
    (question,) = questions(out)
    return question


def _reply(core: Core, question: VerifyJob, state: Any, **kw: Any) -> Reply:
    (reply,) = [e for e in answer(core, question, state, **kw).effects() if isinstance(e, Reply)]
    assert reply.request == question.request
    return reply


def test_an_accepted_submission_is_answered_when_the_verdict_comes() -> None:
    """qsub with a server JSV: the JSV sees the job with the id it will get, then it is stored."""
    core = _jsv_core()
    question = _submit(core, l_hard={"a": "lx-amd64"})
    assert (question.job_id, question.owner, question.verify) == (1, ALICE, "n")
    assert question.spec["l_hard"] == {"arch": "lx-amd64"}  # full names, as Grid Engine sends
    assert "w" not in question.spec
    reply = _reply(core, question, "ACCEPT")
    assert reply.answers[0].text == 'Your job 1 ("job.sh") has been submitted'
    assert states(core) == {"1": "qw"}


def test_a_rejected_submission_stores_nothing_and_says_why() -> None:
    """REJECT: the JSV's message (or Grid Engine's text) with status EUNKNOWN; no job."""
    core = _jsv_core()
    reply = _reply(core, _submit(core), "REJECT", message="no jobs on sundays")
    assert [(a.status, a.text) for a in reply.answers] == [(Status.EUNKNOWN, "no jobs on sundays")]
    reply = _reply(core, _submit(core), "REJECT_WAIT")
    assert reply.answers[0].text == "JSV temporarily rejected job"
    assert core.jobs == {}


@pytest.mark.parametrize(
    ("verify", "spec", "text"),
    [
        ("v", {}, "verification: found suitable queue(s)"),
        ("n", {"pe_name": "nope", "pe_min": 1, "pe_max": 1},
         'job rejected: the requested parallel environment "nope" does not exist'),
    ],
)  # fmt: skip
def test_the_qmaster_answers_before_the_jsv_is_asked(
    verify: str, spec: dict[str, Any], text: str
) -> None:
    """sge_gdi_add_job() runs sge_job_verify_adjust() before the JSV: qsub -w v is answered
    and a job it refuses is refused, the JSV never asked; the job's number is used up."""
    core = _jsv_core()
    out = core.handle(Submit(ALICE, JobSpec.from_dict({"CMDNAME": "job.sh", **spec}), verify), T0)
    assert questions(out) == []
    assert [a.text for a in out.answers] == [text]
    assert _submit(core).job_id == 2
    refused = Submit(ALICE, JobSpec.from_dict({"CMDNAME": "job.sh", "N": "1x"}), "n")
    assert questions(core.handle(refused, T0)) == []  # refused before its number is taken
    assert _submit(core).job_id == 3


def test_a_correction_replaces_the_job_its_environment_and_its_w() -> None:
    """CORRECT: the corrected job is stored, with the JSV's environment; its w is the -w mode."""
    core = _jsv_core()
    question = _submit(core, "e")
    spec = {**question.spec, "N": "fixed", "w": "n"}
    verdict = jsv_verdict(ALICE, question.token, "CORRECT", spec, {"FROM_JSV": "1"})
    out = core.handle(verdict, T0)
    assert any(isinstance(e, Reply) for e in out.effects())
    assert core.jobs[1].name == "fixed"
    assert core.jobs[1].spec.to_dict()["v"] == {"FROM_JSV": "1"}


def test_a_correction_into_a_bad_job_is_refused_and_stores_nothing() -> None:
    """A corrected job the checks refuse, or a w that is no -w mode: an error, no job."""
    core = _jsv_core()
    question = _submit(core)
    reply = _reply(core, question, "CORRECT", spec={**question.spec, "w": "x"})
    assert reply.answers[0].text.startswith("JSV corrected the job into an invalid one: w:")
    question = _submit(core)
    reply = _reply(core, question, "CORRECT", spec={**question.spec, "pe_name": "nope"})
    assert reply.answers[0].is_error
    assert core.jobs == {}


def test_reject_wait_keeps_the_job_and_asks_again_after_the_backoff() -> None:
    """REJECT_WAIT with retries: the job waits (vqw), and its timer asks the JSV again."""
    core = _jsv_core(jsv_reject_wait_retries="2", jsv_reject_wait_backoff="0:0:10")
    reply = _reply(core, _submit(core), "REJECT_WAIT", message="later")
    assert "job waits for verification (try 1 of 3)" in reply.answers[0].text
    assert states(core) == {"1": "vqw"}
    assert questions(core.tick(T0 + 9)) == []
    (again,) = questions(core.tick(T0 + 10))
    assert (again.job_id, again.request) == (1, None)
    out = answer(core, again, "ACCEPT", T0 + 10)
    assert not any(isinstance(e, Reply) for e in out.effects())  # no client waits for it
    assert states(core) == {"1": "qw"}


def test_a_waiting_job_is_not_asked_about_without_a_jsv() -> None:
    """The JSV removed while a job waits: no question, and the job is looked at again later."""
    core = _jsv_core(jsv_reject_wait_retries="2", jsv_reject_wait_backoff="0:0:10")
    _reply(core, _submit(core), "REJECT_WAIT")
    set_global(core, jsv_url="none")
    assert questions(core.tick(T0 + 10)) == []
    assert core.next_deadline() is not None
    assert core.next_deadline() <= T0 + 20  # type: ignore[operator]


def test_a_verdict_for_a_question_the_core_did_not_ask_changes_nothing() -> None:
    """A stale token (asked by a core since rebuilt): no reply, no change."""
    core = _jsv_core()
    out = core.handle(JsvVerdict(ALICE, 99, "ACCEPT"), T0)
    assert out.effects() == []
    assert core.jobs == {}


def _two_jobs(core: Core) -> None:
    for _ in range(2):
        _reply(core, _submit(core, CMDARGS=["100"]), "ACCEPT")


def test_qalter_asks_about_each_job_and_answers_once_all_verdicts_are_in() -> None:
    """qalter of two jobs: two questions with the changed jobs; one reply, in job order."""
    core = _jsv_core()
    _two_jobs(core)
    out = core.handle(Alter(ALICE, ["1", "2"], {"N": "renamed"}), T0)
    first, second = questions(out)
    assert first.request == second.request
    assert (first.job_id, second.job_id, first.spec["N"]) == (1, 2, "renamed")
    assert questions(answer(core, second, "ACCEPT")) == []
    assert core.jobs[2].name == "job.sh"  # nothing changes before the last verdict
    reply = _reply(core, first, "REJECT", message="not that one")
    assert [a.text for a in reply.answers] == ["not that one", "modified job name of job 2"]
    assert (core.jobs[1].name, core.jobs[2].name) == ("job.sh", "renamed")


def test_qalter_of_a_parameter_jsv_allowed_mod_does_not_list_asks_nobody() -> None:
    """jsv_allowed_mod refuses the change at once, as Grid Engine does; the JSV is not asked."""
    core = _jsv_core(jsv_allowed_mod="N")
    _two_jobs(core)
    out = core.handle(Alter(ALICE, ["1"], {"p": -5}), T0)
    assert questions(out) == []
    (reply,) = [e for e in out.effects() if isinstance(e, Reply)]
    assert reply.answers[0].text.endswith("which does not allow: p")


def test_qalter_u_with_a_jsv_verifies_every_job_of_the_user() -> None:
    """qalter -u alice with a server JSV alters alice's jobs (it used to alter none)."""
    core = _jsv_core()
    _two_jobs(core)
    out = core.handle(Alter(BOB, [], {"N": "renamed"}, users=["alice"]), T0)
    assert [q.job_id for q in questions(out)] == [1, 2]
    for question in questions(out):
        answer(core, question, "ACCEPT")
    assert [j.name for j in core.jobs.values()] == ["job.sh", "job.sh"]  # bob may not
    out = core.handle(Alter(ALICE, [], {"N": "renamed"}, users=["alice"]), T0)
    for question in questions(out):
        answer(core, question, "ACCEPT")
    assert [j.name for j in core.jobs.values()] == ["renamed", "renamed"]


def test_qalter_of_an_unknown_job_is_answered_at_once() -> None:
    """qalter 99 with a JSV: the core's own answer, without asking the JSV."""
    core = _jsv_core()
    out = core.handle(Alter(ALICE, ["99"], {"N": "x"}), T0)
    assert questions(out) == []
    (reply,) = [e for e in out.effects() if isinstance(e, Reply)]
    assert reply.answers[0].text == 'denied: job "99" does not exist'


@pytest.mark.no_validate_state  # the test breaks the core on purpose
def test_validate_state_finds_a_waiting_job_nobody_will_ask_about() -> None:
    """A job waiting for verification without its timer or a question out is a broken core."""
    core = _jsv_core(jsv_reject_wait_retries="2")
    _reply(core, _submit(core), "REJECT_WAIT")
    core.validate_state()
    core._timers = [t for t in core.timer_list() if t.kind != "reverify"]
    heapq.heapify(core._timers)
    with pytest.raises(InvalidState, match="job 1 waits for verification and will never be"):
        core.validate_state()


@pytest.mark.no_validate_state  # the test breaks the core on purpose
def test_validate_state_finds_a_request_that_waits_for_nothing() -> None:
    """A request kept for the JSV's verdicts with no question out would never be answered."""
    core = _jsv_core()
    question = _submit(core)
    core.validate_state()
    del core.verifications.tokens[question.token]
    with pytest.raises(InvalidState, match="waits for the JSV but asked nothing"):
        core.validate_state()


def test_qalter_of_a_task_range_keeps_its_range_through_the_jsv() -> None:
    """qalter -h u 1.2 answers the same with a server JSV as without, and holds task 2 only."""
    plain = make_core()
    plain.handle(
        Submit(ALICE, JobSpec.from_dict({"CMDNAME": "job.sh", "t_min": 1, "t_max": 3})), T0
    )
    expected = plain.handle(Alter(ALICE, ["1.2"], {}, hold="u"), T0).answers
    assert [a.text for a in expected] == ["modified hold of job-array task 1.2"]
    core = _jsv_core()
    _reply(core, _submit(core, t_min=1, t_max=3), "ACCEPT")
    (question,) = questions(core.handle(Alter(ALICE, ["1.2"], {}, hold="u"), T0))
    assert _reply(core, question, "ACCEPT").answers == expected
    assert str(core.jobs[1].holds["u"]) == "2"


def test_qhold_is_the_switch_h_for_jsv_allowed_mod() -> None:
    """qhold/qrls are qalter -h: refused when jsv_allowed_mod lacks h (it slipped past)."""
    core = _jsv_core(jsv_allowed_mod="N")
    _two_jobs(core)
    out = core.handle(Alter(ALICE, ["1"], {}, hold="u"), T0)
    assert questions(out) == []
    (reply,) = [e for e in out.effects() if isinstance(e, Reply)]
    assert [(a.status, a.text) for a in reply.answers] == [
        (Status.EUNKNOWN, "rejected due to jsv_allowed_mod configuration which does not allow: h")
    ]
    assert core.jobs[1].hold == frozenset()
    set_global(core, jsv_allowed_mod="N,h")
    (question,) = questions(core.handle(Alter(ALICE, ["1"], {}, hold="u"), T0))
    answer(core, question, "ACCEPT")
    assert core.jobs[1].hold == frozenset("u")
