"""Every call the simulator makes into the core, in one place.

The core's API is changing from ``Core.handle(Request(identity, op, args))``
to typed stimuli; the simulator reaches the core only through
:class:`CoreFeed`, so that change is made here and nowhere else in
``qmaster/sim``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from qmaster.complexes.table import ComplexTable
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome, Request
from qmaster.core.specs import full_resource_names
from qmaster.gdi.messages import ArSubmitArgs, JobSpec, JsvVerdictArgs, SubmitArgs

if TYPE_CHECKING:  # the gate's module loads the JSV pool, and with it asyncio
    from qmaster.jsv.gate import GateResult

SIM_HOST = "qsim"
"""The qmaster host name the simulated cell reports (so outputs do not name the machine)."""


@dataclass(frozen=True, slots=True)
class Submitted:
    """What a submission gave: the job id, or the refusal in Grid Engine's words."""

    job_id: int | None
    refusal: str | None
    outcome: Outcome


class Verifier(Protocol):
    """The server JSV as the feed needs it (see :mod:`qmaster.sim.jsv`)."""

    def submission(self, who: Identity, spec: dict[str, Any], job_id: int) -> GateResult: ...

    def reverify(
        self, who: Identity, spec: dict[str, Any], job_id: int
    ) -> tuple[str, JobSpec | None, str]: ...


Sink = Callable[[Outcome], None]


class CoreFeed:
    """The cell's core, driven by submissions and the passing of virtual time."""

    def __init__(self, config: ClusterConfig, default_runtime: float) -> None:
        settings = CoreSettings(
            default_runtime=default_runtime, admins=frozenset({"root"}), qmaster_host=SIM_HOST
        )
        self.core = Core(config, settings)

    def submit(
        self, who: Identity, spec: dict[str, Any], now: float, jsv: Verifier | None = None
    ) -> Submitted:
        """qsub of one job at ``now`` (through the server JSV first, when there is one, as
        the daemon does it); a refusal changes nothing in the core."""
        try:
            args = SubmitArgs.model_validate({"job": spec, "verify": "n"})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return Submitted(None, f"malformed request: {where}: {err['msg']}", Outcome())
        request = Request(who, "submit", args)
        if jsv is not None:
            # the daemon's order: the id is allocated (and burnt on a rejection) first
            job_id = self.core.allocate_job_id()
            named = full_resource_names(args.job.model_dump(exclude_none=True), self.complexes)
            result = jsv.submission(who, named, job_id)
            if result.error is not None or result.job is None:
                return Submitted(None, result.error or "JSV rejected job", Outcome())
            checked = SubmitArgs(job=result.job, verify=result.verify)
            request = Request(who, "submit", checked, job_id=job_id, jsv_wait=result.wait)
        out = self.core.handle(request, now)
        refused = [a.text for a in out.answers if a.is_error]
        if refused:
            return Submitted(None, refused[0], out)
        return Submitted(int(out.data["job_id"]), None, out)

    def submit_ar(self, who: Identity, spec: dict[str, Any], now: float) -> Submitted:
        """qrsub of one advance reservation at ``now``: its id, or the qmaster's refusal."""
        try:
            args = ArSubmitArgs.model_validate({"ar": spec, "verify": "e"})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return Submitted(None, f"malformed request: {where}: {err['msg']}", Outcome())
        out = self.core.handle(Request(who, "ar_submit", args), now)
        refused = [a.text for a in out.answers if a.is_error]
        ar_id = out.data.get("ar_id") if isinstance(out.data, dict) else None
        if refused or ar_id is None:
            return Submitted(None, refused[0] if refused else "not granted", out)
        return Submitted(int(ar_id), None, out)

    def tick(self, now: float) -> Outcome:
        """Time has come to ``now``: due timers fire, a due pass runs."""
        return self.core.tick(now)

    def next_deadline(self) -> float | None:
        """When the core next has something to do, if ever."""
        return self.core.next_deadline()

    def reverify_due(self, now: float, jsv: Verifier, sink: Sink) -> None:
        """Jobs the server JSV told to come back later ask it again (the daemon's re-verify)."""
        for job in self.core.due_verifications(now):
            state, corrected, message = jsv.reverify(job.owner, dict(job.spec), job.job_id)
            args = JsvVerdictArgs(job_id=job.job_id, state=state, job=corrected, message=message)
            sink(self.core.handle(Request(job.owner, "jsv_verdict", args), now))

    @property
    def complexes(self) -> ComplexTable:
        """The complex table (requests are named by their full names before a JSV sees them)."""
        return self.core.config.complexes

    @property
    def config(self) -> ClusterConfig:
        """The configuration in force."""
        return self.core.config
