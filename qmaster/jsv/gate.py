"""The server JSV's place in the daemon: submissions and alterations pass through it.

- ``submit``: the job is verified in master context (``JOB_ID`` is the id the
  job will get); ACCEPT keeps it, CORRECT replaces it with the corrected job
  (validated again as any request is), REJECT refuses it with the JSV's
  message, REJECT_WAIT refuses it too unless ``jsv_reject_wait_retries`` lets
  it wait for verification (beyond Grid Engine).
- ``alter``: with a server JSV configured, qalter may change only the
  parameters in ``jsv_allowed_mod`` (see :data:`SWITCH_OF`), and, beyond
  Grid Engine, the altered job is verified again, so a change cannot slip
  past the policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from qmaster.conf.cluster import GlobalConf
from qmaster.core.jobs import Identity
from qmaster.core.jobspec import JobSpec as CoreSpec
from qmaster.core.specs import altered_spec
from qmaster.gdi.messages import JobSpec
from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext, ResultState, Verdict

# The jsv_allowed_mod name of each JobSpec key a qalter may change, as Grid Engine
# maps job attributes to switch names (sge_jsv_script.c): -wd and -cwd are "cwd",
# -V and -v are "v", a slot range is "pe_min", a task range "t". Keys without a
# name here (job arguments, -b, -shell, -now, -tc, -binding, -ot) are not limited,
# as in Grid Engine. "w" is always allowed, and "t" whenever "h" is.
SWITCH_OF = {
    **{key: key for key in ("a", "ac", "ar", "A", "c_interval", "c_occasion", "ckpt", "cwd")},
    **{key: key for key in ("dl", "e", "hold_jid", "hold_jid_ad", "h", "i", "j", "js")},
    **{key: key for key in ("l_hard", "l_soft", "m", "masterq", "notify", "M", "N", "o")},
    **{key: key for key in ("P", "p", "pe_name", "q_hard", "q_soft", "R", "r", "S", "v")},
    "wd": "cwd",
    "V": "v",
    "pe_min": "pe_min",
    "pe_max": "pe_min",
    "w": "w",
    "t_min": "t",
    "t_max": "t",
    "t_step": "t",
    "CMDNAME": "CMDNAME",
    "context_ops": "ac",
}


@dataclass(frozen=True, slots=True)
class GateResult:
    """What the gate decided: a job to go on with, or a refusal (``error``)."""

    job: JobSpec | None = None
    error: str | None = None
    wait: str | None = None
    verify: str = "n"


def with_verify(spec: dict[str, Any], verify: str) -> dict[str, Any]:
    """The job as a JSV sees it: the ``-w`` mode is parameter ``w``, sent when not ``n``."""
    return {**spec, "w": verify} if verify != "n" else dict(spec)


def verify_of(verdict: Verdict, verify: str) -> str:
    """The ``-w`` mode after a verdict: a corrected job may carry a new one."""
    if verdict.state is not ResultState.CORRECT:
        return verify
    return str(verdict.spec.get("w", "n"))


def job_of(verdict: Verdict) -> JobSpec:
    """The job a verdict leaves, with the JSV's environment in ``v``."""
    spec = dict(verdict.spec)
    if verdict.env is not None:
        spec["v"] = dict(verdict.env)
    return JobSpec.model_validate({k: v for k, v in spec.items() if k in JobSpec.model_fields})


def refused_text(verdict: Verdict) -> str:
    """Grid Engine's text for a rejection without a message of its own."""
    if verdict.message:
        return verdict.message
    if verdict.state is ResultState.REJECT_WAIT:
        return "JSV temporarily rejected job"
    return "JSV rejected job"


def disallowed_changes(changes: dict[str, Any], conf: GlobalConf) -> str | None:
    """The refusal text when a qalter touches parameters ``jsv_allowed_mod`` does not list."""
    allowed = {a for a in conf.jsv_allowed_mod if a.lower() != "none"}
    if not allowed:
        return "No job modification allowed due to jsv_allowed_mod configuration"
    allowed |= {"w", "t"} if "h" in allowed else {"w"}
    bad = sorted({SWITCH_OF[k] for k in changes if k in SWITCH_OF} - allowed)
    if bad:
        return "rejected due to jsv_allowed_mod configuration which does not allow: " + ",".join(
            bad
        )
    return None


class JsvGate:
    """The server JSV pool and the rules around it."""

    def __init__(self, pool_size: int) -> None:
        self.pool_size = pool_size
        self.pool: JsvPool | None = None
        self.conf: GlobalConf | None = None

    @property
    def active(self) -> bool:
        return self.pool is not None and self.pool.url is not None

    async def configure(self, conf: GlobalConf) -> None:
        """Start the pool, or restart its scripts when the JSV settings changed."""
        self.conf = conf
        url = conf.jsv_url
        timeout, threshold_ms = conf.jsv_timeout, int(conf.jsv_threshold)
        if self.pool is None:
            self.pool = JsvPool(url, self.pool_size, timeout, threshold_ms)
            await self.pool.start()
        else:
            await self.pool.reconfigure(url, timeout, threshold_ms)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def verify(self, who: Identity, job: dict[str, Any], job_id: int | None) -> Verdict:
        """One verification by the server JSV: ``CONTEXT server``, ``CLIENT qmaster``.

        jsv(1) says CONTEXT is ``master`` in the qmaster, but Grid Engine 6.2u5
        sends ``server`` (sge_jsv_script.c; its jsv_include.sh documents
        client/server) and scripts test for ``server``. CLIENT is the name of the
        program that runs the JSV: ``qmaster`` here, ``qsub``/``qalter`` in a client.
        """
        assert self.pool is not None
        ctx = JsvContext(who.user, who.group, client="qmaster", context="server", job_id=job_id)
        return await self.pool.verify(job, ctx, job.get("v"))

    async def submission(
        self, who: Identity, job: JobSpec, job_id: int | None, verify: str = "n"
    ) -> GateResult:
        """Verify a submission; see the module docstring."""
        spec = with_verify(job.model_dump(exclude_none=True), verify)
        verdict = await self.verify(who, spec, job_id)
        if verdict.accepted:
            return self._corrected(verdict, job, verify_of(verdict, verify))
        assert self.conf is not None
        if verdict.state is ResultState.REJECT_WAIT and self.conf.jsv_reject_wait_retries > 0:
            return GateResult(job=job, wait=refused_text(verdict), verify=verify)
        return GateResult(error=refused_text(verdict))

    async def alteration(
        self,
        who: Identity,
        current: dict[str, Any],
        changes: dict[str, Any],
        job_id: int,
        verify: str = "n",
    ) -> GateResult:
        """Check a qalter against ``jsv_allowed_mod``, then verify the altered job."""
        assert self.conf is not None
        refused = disallowed_changes(changes, self.conf)
        if refused:
            return GateResult(error=refused)
        merged = altered_spec(CoreSpec.from_dict(current), changes).to_dict()
        verdict = await self.verify(who, with_verify(merged, verify), job_id)
        if not verdict.accepted:
            return GateResult(error=refused_text(verdict))
        return self._corrected(verdict, JobSpec.model_validate(merged), verify_of(verdict, verify))

    @staticmethod
    def _corrected(verdict: Verdict, original: JobSpec, verify: str) -> GateResult:
        if verdict.state is not ResultState.CORRECT:
            return GateResult(job=original, verify=verify)
        try:
            return GateResult(job=job_of(verdict), verify=verify)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return GateResult(
                error=f"JSV corrected the job into an invalid one: {where}: {err['msg']}"
            )
