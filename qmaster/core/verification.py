"""Jobs waiting for verification: REJECT_WAIT that can mean something (beyond Grid Engine).

Grid Engine answers a JSV's ``REJECT_WAIT`` by refusing the submission. With
``jsv_reject_wait_retries`` above 0 the job is kept instead, shown as ``vqw``
and not scheduled; the daemon asks the server JSV again after
``jsv_reject_wait_backoff`` seconds, doubling the wait each time: the job's
``reverify`` timer makes the core ask for a ``VerifyJob``, whose verdict comes
back as a ``JsvVerdict`` (see :mod:`qmaster.core.jsvflow`, :mod:`qmaster.core.verdicts`). An accepted job becomes an ordinary pending
job; a rejected one, or one out of tries, is deleted with the JSV's message.
"""

from __future__ import annotations

from qmaster.core.jobs import Job, VerifyWait
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.story import note
from qmaster.model import warning


def wait_for_verification(core: Core, job: Job, message: str, now: float, out: Outcome) -> None:
    """Keep a just-submitted job until the JSV is asked again."""
    retries = core.config.global_conf.jsv_reject_wait_retries
    backoff = core.config.global_conf.jsv_reject_wait_backoff
    job.verify_wait = VerifyWait(tries=1, next_at=now + backoff, message=message)
    core.verify_waiting.add(job.job_id)
    core.set_timer(now + backoff, "reverify", job.job_id, 0)
    note(job.job_id, "waiting for verification (try 1)")
    out.answers.append(warning(f"{message}: job waits for verification (try 1 of {retries + 1})"))
