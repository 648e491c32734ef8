"""A server JSV's late CORRECT (after REJECT_WAIT) is checked like any submission."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core
from tests.unit.core.helpers import T0, answer, make_core, questions, states, waiting_job


def _waiting_job(core: Core) -> None:
    assert waiting_job(core, now=T0, CMDARGS=["100"]) == 1
    assert states(core) == {"1": "vqw"}


def _correct(core: Core, **spec: Any) -> None:
    """The job's next try comes (jsv_reject_wait_backoff later) and the JSV corrects it."""
    (question,) = questions(core.tick(T0 + 10))
    assert question.job_id == 1
    job = {"CMDNAME": "job.sh", "CMDARGS": ["100"], **spec}
    answer(core, question, "CORRECT", T0 + 10, spec=job)


def test_late_correction_is_stored_normalised() -> None:
    """A corrected h_rt=0:10:0 is stored as h_rt=600 and the job becomes pending."""
    core = make_core()
    _waiting_job(core)
    _correct(core, l_hard={"h_rt": "0:10:0"})
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"h_rt": "600"}
    assert states(core) == {"1": "qw"}


def test_late_correction_that_fails_the_checks_rejects_the_job() -> None:
    """A corrected request of an unknown resource removes the job instead of storing it."""
    core = make_core()
    _waiting_job(core)
    _correct(core, l_hard={"no_such_thing": "1"})
    assert core.jobs == {}
