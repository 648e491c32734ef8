"""Jobs waiting for verification: REJECT_WAIT that can mean something (beyond Grid Engine).

Grid Engine answers a JSV's ``REJECT_WAIT`` by refusing the submission. With
``jsv_reject_wait_retries`` above 0 the job is kept instead, shown as ``vqw``
and not scheduled; the daemon asks the server JSV again after
``jsv_reject_wait_backoff`` seconds, doubling the wait each time, and feeds the
answer back as the internal ``jsv_verdict`` request. An accepted job becomes
an ordinary pending job; a rejected one, or one out of tries, is deleted with
the JSV's message.
"""

from __future__ import annotations

from typing import Any

from qmaster.core import lifecycle
from qmaster.core.errors import CoreError
from qmaster.core.jobs import Job, VerifyWait
from qmaster.core.machine import Core, Request, handler
from qmaster.core.outcome import Outcome
from qmaster.core.specs import checked_spec
from qmaster.core.submit import check_name, validate_spec
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
    if args.state == "CORRECT" and args.job is not None:
        corrected = {**args.job.model_dump(exclude_none=True), "N": job.spec.get("N")}
        try:
            job.spec = _checked(core, job, corrected, now)
        except CoreError as exc:
            args = args.model_copy(update={"state": "REJECT", "message": str(exc)})
    if args.state in ("ACCEPT", "CORRECT"):
        job.verify_wait = None
        core.verify_waiting.discard(job.job_id)
        core.spool_job(out, job)
        out.log("jsv_verified_late", job_id=job.job_id, tries=wait.tries)
        core.request_pass(now)
        return
    conf = core.config.global_conf
    if args.state == "REJECT_WAIT" and wait.tries <= conf.jsv_reject_wait_retries:
        delay = conf.jsv_reject_wait_backoff * 2**wait.tries
        job.verify_wait = VerifyWait(wait.tries + 1, now + delay, args.message or wait.message)
        core.spool_job(out, job)
        return
    core.verify_waiting.discard(job.job_id)
    job.verify_wait = None
    out.log("jsv_rejected_late", job_id=job.job_id, message=args.message)
    for task_id in list(job.pending):
        lifecycle.finish_pending(core, job, task_id, now, out)


def _checked(core: Core, job: Job, corrected: dict[str, Any], now: float) -> dict[str, Any]:
    """A late correction checked and completed exactly as a submission is."""
    spec = checked_spec(corrected, now)
    check_name(str(spec["N"]))
    validate_spec(core, spec, job.owner)
    return spec
