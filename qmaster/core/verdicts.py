"""The server JSV's late answer for a job that waited for verification (beyond Grid Engine).

A ``CORRECT`` specification goes through the same checks as a submission's
(:func:`qmaster.core.submit.validate_spec`); one they refuse rejects the job.
"""

from __future__ import annotations

from typing import Any

from qmaster.core import lifecycle
from qmaster.core.errors import CoreError
from qmaster.core.holds import new_hold, set_hold, start_time_of
from qmaster.core.jobs import Job, VerifyWait
from qmaster.core.machine import Core, Request
from qmaster.core.outcome import Outcome
from qmaster.core.registry import handler
from qmaster.core.specs import checked_spec, full_resource_names
from qmaster.core.story import note
from qmaster.core.submit import validate_spec
from qmaster.gdi.messages import JsvVerdictArgs


@handler("jsv_verdict")
def handle_verdict(core: Core, req: Request, now: float, out: Outcome) -> None:
    """Apply the server JSV's answer for a job that waited for verification."""
    args = req.args
    assert isinstance(args, JsvVerdictArgs)
    job = core.jobs.get(args.job_id)
    if job is None or job.verify_wait is None:
        return
    wait = job.verify_wait
    if args.state in ("ACCEPT", "CORRECT"):
        if args.state == "CORRECT" and args.job is not None:
            try:
                _correct(core, job, args.job.model_dump(exclude_none=True), now)
            except CoreError as exc:
                _reject(core, job, str(exc), now, out)
                return
        job.verify_wait = None
        core.verify_waiting.discard(job.job_id)
        note(job.job_id, f"verified by JSV ({args.state})")
        core.spool_job(out, job)
        out.log("jsv_verified_late", job_id=job.job_id, tries=wait.tries)
        core.request_pass(now)
        return
    conf = core.config.global_conf
    if args.state == "REJECT_WAIT" and wait.tries <= conf.jsv_reject_wait_retries:
        delay = conf.jsv_reject_wait_backoff * 2**wait.tries
        job.verify_wait = VerifyWait(wait.tries + 1, now + delay, args.message or wait.message)
        note(job.job_id, f"waiting for verification (try {wait.tries + 1})")
        core.spool_job(out, job)
        return
    _reject(core, job, args.message, now, out)


def _correct(core: Core, job: Job, spec: dict[str, Any], now: float) -> None:
    """The JSV's corrected specification, checked as every other one is."""
    spec["N"] = job.spec.get("N")
    spec = full_resource_names(checked_spec(spec, now), core.config.complexes)
    validate_spec(core, spec, job.owner)
    start_time_of(spec)
    hold = new_hold(job, bool(spec.get("h")), None)
    job.spec = spec
    set_hold(job, hold)
    lifecycle.watch_start_time(core, job, now)


def _reject(core: Core, job: Job, message: str | None, now: float, out: Outcome) -> None:
    core.verify_waiting.discard(job.job_id)
    job.verify_wait = None
    note(job.job_id, "rejected by JSV")
    out.log("jsv_rejected_late", job_id=job.job_id, message=message)
    for task_id in job.pending.copy():
        lifecycle.finish_pending(core, job, task_id, now, out)
