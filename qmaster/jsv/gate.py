"""The server JSV's place in the daemon: submissions and alterations pass through it.

- ``submit``: the job is verified in master context (``JOB_ID`` is the id the
  job will get); ACCEPT keeps it, CORRECT replaces it with the corrected job
  (validated again as any request is), REJECT refuses it with the JSV's
  message, REJECT_WAIT refuses it too unless ``jsv_reject_wait_retries`` lets
  it wait for verification (beyond Grid Engine).
- ``alter``: with a server JSV configured, qalter may change only the
  parameters in ``jsv_allowed_mod`` (``w`` and ``t`` always pass), and, beyond
  Grid Engine, the altered job is verified again, so a change cannot slip
  past the policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from qmaster.conf.cluster import GlobalConf
from qmaster.core.jobs import Identity
from qmaster.gdi.messages import JobSpec
from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext, ResultState, Verdict
from qmaster.submitvalues import altered_spec

ALWAYS_ALLOWED = frozenset({"w", "t_min", "t_max", "t_step"})
# JobSpec keys that one qalter switch sets together
_SWITCH_OF = {
    "pe_min": "pe_name",
    "pe_max": "pe_name",
    "t_max": "t_min",
    "t_step": "t_min",
    "context_ops": "ac",
    "c_interval": "c",
    "c_occasion": "c",
}


def _switch_of(key: str) -> str:
    """The qalter switch (as jsv_allowed_mod names it) a changed key comes from."""
    return "binding" if key.startswith("binding_") else _SWITCH_OF.get(key, key)


@dataclass(frozen=True, slots=True)
class GateResult:
    """What the gate decided: a job to go on with, or a refusal (``error``)."""

    job: JobSpec | None = None
    error: str | None = None
    wait: str | None = None


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
    bad = sorted({_switch_of(k) for k in changes} - allowed - ALWAYS_ALLOWED)
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
        if self.pool is None:
            self.pool = JsvPool(url, self.pool_size, conf.jsv_timeout, int(conf.jsv_threshold))
            await self.pool.start()
        else:
            await self.pool.reconfigure(url, conf.jsv_timeout, int(conf.jsv_threshold))

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def verify(self, who: Identity, job: dict[str, Any], job_id: int | None) -> Verdict:
        """One verification by the server JSV (jsv(1): CONTEXT master, CLIENT qmaster)."""
        assert self.pool is not None
        ctx = JsvContext(who.user, who.group, client="qmaster", context="master", job_id=job_id)
        return await self.pool.verify(job, ctx, job.get("v"))

    async def submission(self, who: Identity, job: JobSpec, job_id: int | None) -> GateResult:
        """Verify a submission; see the module docstring."""
        verdict = await self.verify(who, job.model_dump(exclude_none=True), job_id)
        if verdict.accepted:
            return self._corrected(verdict, job)
        assert self.conf is not None
        if verdict.state is ResultState.REJECT_WAIT and self.conf.jsv_reject_wait_retries > 0:
            return GateResult(job=job, wait=refused_text(verdict))
        return GateResult(error=refused_text(verdict))

    async def alteration(
        self, who: Identity, current: dict[str, Any], changes: dict[str, Any], job_id: int
    ) -> GateResult:
        """Check a qalter against ``jsv_allowed_mod``, then verify the altered job."""
        assert self.conf is not None
        refused = disallowed_changes(changes, self.conf)
        if refused:
            return GateResult(error=refused)
        merged = altered_spec(current, changes)
        verdict = await self.verify(who, merged, job_id)
        if not verdict.accepted:
            return GateResult(error=refused_text(verdict))
        return self._corrected(verdict, JobSpec.model_validate(merged))

    @staticmethod
    def _corrected(verdict: Verdict, original: JobSpec) -> GateResult:
        if verdict.state is not ResultState.CORRECT:
            return GateResult(job=original)
        try:
            return GateResult(job=job_of(verdict))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return GateResult(
                error=f"JSV corrected the job into an invalid one: {where}: {err['msg']}"
            )
