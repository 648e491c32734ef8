"""The server JSV's late answer for a job that waited for verification (beyond Grid Engine).

A ``CORRECT`` specification goes through the same checks as a submission's
(:func:`qmaster.core.submit.validate_spec`); one they refuse rejects the job.
:mod:`qmaster.core.jsvflow` hands the verdicts over.
"""

from __future__ import annotations

from qmaster.core import lifecycle
from qmaster.core.errors import CoreError
from qmaster.core.holds import live_tasks, new_holds, set_holds, start_time_of
from qmaster.core.hostnames import check_path_lists
from qmaster.core.jobs import Job, VerifyWait
from qmaster.core.jobspec import JobSpec
from qmaster.core.jsvrules import refused_text
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.specs import checked_spec, with_full_names
from qmaster.core.stimuli import JsvVerdict, Verify
from qmaster.core.story import note
from qmaster.core.submit import validate_spec

REVERIFY = "reverify"
"""The timer of a job's next verification."""


def corrected(spec: JobSpec, verdict: JsvVerdict, verify: Verify) -> tuple[JobSpec, Verify]:
    """The job and ``-w`` mode a verdict leaves: a CORRECT's job (the JSV's environment
    in it, its ``w`` the new mode), else ``spec`` and ``verify`` as they were."""
    if verdict.state != "CORRECT" or verdict.spec is None:
        return spec, verify
    return verdict.spec, verdict.verify or "n"


def late_verdict(core: Core, job_id: int, args: JsvVerdict, now: float, out: Outcome) -> None:
    """Apply the server JSV's answer for a job that waited for verification."""
    job = core.jobs.get(job_id)
    if job is None or job.verify_wait is None:
        return
    wait = job.verify_wait
    message = refused_text(args.state, args.message)
    if args.state in ("ACCEPT", "CORRECT"):
        if args.state == "CORRECT" and args.spec is not None:
            try:
                _correct(core, job, corrected(job.spec, args, "n")[0], now)
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
        job.verify_wait = VerifyWait(wait.tries + 1, now + delay, message or wait.message)
        core.set_timer(now + delay, REVERIFY, job.job_id, 0)
        note(job.job_id, f"waiting for verification (try {wait.tries + 1})")
        core.spool_job(out, job)
        return
    _reject(core, job, message, now, out)


def _correct(core: Core, job: Job, spec: JobSpec, now: float) -> None:
    """The JSV's corrected specification, checked as every other one is."""
    spec = spec.changed(name=job.spec.name)
    spec = with_full_names(checked_spec(spec, now), core.config.complexes)
    check_path_lists(core, spec)
    spec = validate_spec(core, spec, job.owner)
    start_time_of(spec)
    holds = new_holds(job, live_tasks(job, None), bool(spec.user_hold), None)
    job.spec = spec
    core.jobs.refile(job)
    set_holds(job, holds)
    lifecycle.watch_start_time(core, job, now)


def _reject(core: Core, job: Job, message: str | None, now: float, out: Outcome) -> None:
    core.verify_waiting.discard(job.job_id)
    job.verify_wait = None
    note(job.job_id, "rejected by JSV")
    out.log("jsv_rejected_late", job_id=job.job_id, message=message)
    for task_id in job.pending.copy():
        lifecycle.finish_pending(core, job, task_id, now, out)
