"""Every call the simulator makes into the core, in one place.

The core's API is changing from ``Core.handle(Request(identity, op, args))``
to typed stimuli; the simulator reaches the core only through
:class:`CoreFeed`, so that change is made here and nowhere else in
``qmaster/sim``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome, Request
from qmaster.gdi.messages import SubmitArgs

SIM_HOST = "qsim"
"""The qmaster host name the simulated cell reports (so outputs do not name the machine)."""


@dataclass(frozen=True, slots=True)
class Submitted:
    """What a submission gave: the job id, or the refusal in Grid Engine's words."""

    job_id: int | None
    refusal: str | None
    outcome: Outcome


class CoreFeed:
    """The cell's core, driven by submissions and the passing of virtual time."""

    def __init__(self, config: ClusterConfig, default_runtime: float) -> None:
        settings = CoreSettings(
            default_runtime=default_runtime, admins=frozenset({"root"}), qmaster_host=SIM_HOST
        )
        self.core = Core(config, settings)

    def submit(self, who: Identity, spec: dict[str, Any], now: float) -> Submitted:
        """qsub of one job at ``now``; a refusal changes nothing in the core."""
        try:
            args = SubmitArgs.model_validate({"job": spec, "verify": "n"})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            return Submitted(None, f"malformed request: {where}: {err['msg']}", Outcome())
        out = self.core.handle(Request(who, "submit", args), now)
        refused = [a.text for a in out.answers if a.is_error]
        if refused:
            return Submitted(None, refused[0], out)
        return Submitted(int(out.data["job_id"]), None, out)

    def tick(self, now: float) -> Outcome:
        """Time has come to ``now``: due timers fire, a due pass runs."""
        return self.core.tick(now)

    def next_deadline(self) -> float | None:
        """When the core next has something to do, if ever."""
        return self.core.next_deadline()

    def config_changed(self) -> ClusterConfig:
        """The configuration in force (it changes only through requests)."""
        return self.core.config
