"""A server JSV's late CORRECT (after REJECT_WAIT) is checked like any submission."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core, Request
from qmaster.gdi.messages import JsvVerdictArgs, SubmitArgs
from tests.unit.core.helpers import ALICE, T0, make_core, states


def _waiting_job(core: Core) -> None:
    core.config.global_conf.attrs["jsv_reject_wait_retries"] = "3"
    args = SubmitArgs.model_validate({"job": {"CMDNAME": "job.sh", "CMDARGS": ["100"]}})
    core.handle(Request(ALICE, "submit", args, job_id=1, jsv_wait="try later"), T0)
    assert states(core) == {"1": "vqw"}


def _correct(core: Core, **spec: Any) -> None:
    job = {"CMDNAME": "job.sh", "CMDARGS": ["100"], **spec}
    args = JsvVerdictArgs.model_validate({"job_id": 1, "state": "CORRECT", "job": job})
    core.handle(Request(ALICE, "jsv_verdict", args), T0 + 1)


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
