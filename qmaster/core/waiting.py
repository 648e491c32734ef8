"""A just-submitted job kept for verification after the server JSV's ``REJECT_WAIT``.

See :mod:`qmaster.core.verification` for what happens when the JSV is asked again.
"""

from __future__ import annotations

from qmaster.core.jobs import Job, VerifyWait
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.gdi.answers import warning


def wait_for_verification(core: Core, job: Job, message: str, now: float, out: Outcome) -> None:
    """Keep a just-submitted job until the JSV is asked again."""
    retries = core.config.global_conf.jsv_reject_wait_retries
    backoff = core.config.global_conf.jsv_reject_wait_backoff
    job.verify_wait = VerifyWait(tries=1, next_at=now + backoff, message=message)
    core.verify_waiting.add(job.job_id)
    out.answers.append(warning(f"{message}: job waits for verification (try 1 of {retries + 1})"))
