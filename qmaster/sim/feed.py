"""Every call the simulator makes into the core, in one place.

The simulator hands the core the daemon's own stimuli, converted from the wire's
messages as the daemon converts them (:mod:`qmaster.stimuli_wire`), and runs the
server JSV's ``VerifyJob`` effects itself, at the same virtual instant, handing
each verdict back as the daemon does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from qmaster.complexes.table import ComplexTable
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome
from qmaster.core.effects import Reply
from qmaster.jsv.protocol import Verdict
from qmaster.stimuli_wire import MalformedRequest, parse, verdict_of

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

    def verify(self, who: Identity, spec: dict[str, Any], job_id: int | None) -> Verdict: ...


Sink = Callable[[Outcome], None]


class CoreFeed:
    """The cell's core, driven by submissions and the passing of virtual time."""

    def __init__(self, config: ClusterConfig, default_runtime: float) -> None:
        settings = CoreSettings(
            default_runtime=default_runtime, admins=frozenset({"root"}), qmaster_host=SIM_HOST
        )
        self.core = Core(config, settings)

    def use_jsv(self, url: str, now: float) -> None:
        """``--jsv URL``: the cell's ``jsv_url``, set as ``qconf -mconf`` would set it."""
        root = Identity(0, 0, "root", "root")
        shown = self.core.handle(parse(root, "conf_show", {"kind": "global"}), now)
        text = re.sub(r"^jsv_url\s+.*$", f"jsv_url {url}", str(shown.data["text"]), flags=re.M)
        args = {"kind": "global", "text": text, "source": "qsim --jsv", "add": False}
        out = self.core.handle(parse(root, "conf_modify", args), now)
        refused = [a.text for a in out.answers if a.is_error]
        if refused:
            raise ValueError(refused[0])

    def submit(
        self,
        who: Identity,
        spec: dict[str, Any],
        now: float,
        jsv: Verifier | None = None,
        sink: Sink | None = None,
    ) -> Submitted:
        """qsub of one job at ``now`` (through the server JSV first, when one is set, as the
        daemon does it); a refusal changes nothing in the core. ``sink`` takes the outcomes
        of the JSV's verdicts (the submission's own is in the result)."""
        try:
            stimulus = parse(who, "submit", {"job": spec, "verify": "n"})
        except MalformedRequest as exc:
            return Submitted(None, str(exc), Outcome())
        out = self.core.handle(stimulus, now)
        reply = self._answer(out, now, jsv, sink)
        refused = [a.text for a in reply.answers if a.is_error]
        if refused or not isinstance(reply.data, dict):
            return Submitted(None, refused[0] if refused else "not submitted", out)
        return Submitted(int(reply.data["job_id"]), None, out)

    def _answer(self, out: Outcome, now: float, jsv: Verifier | None, sink: Sink | None) -> Reply:
        """The reply to a request: at once, or once the JSV's verdicts on it are in."""
        replies = [r for r in (out.reply(),) if r is not None]
        for outcome in self._verify(out, now, jsv):
            reply = outcome.reply()
            if reply is not None:
                replies.append(reply)
            if sink is not None:
                sink(outcome)
        return replies[-1] if replies else Reply([])

    def _verify(self, out: Outcome, now: float, jsv: Verifier | None) -> list[Outcome]:
        """Run every ``VerifyJob`` of an outcome (and of the verdicts' outcomes)."""
        asked = out.verify_jobs()
        done: list[Outcome] = []
        while asked:
            question = asked.pop(0)
            if jsv is None:
                raise RuntimeError("the core asked the server JSV, and the replay has none")
            verdict = jsv.verify(question.owner, question.spec, question.job_id)
            outcome = self.core.handle(verdict_of(question.owner, question.token, verdict), now)
            done.append(outcome)
            asked.extend(outcome.verify_jobs())
        return done

    def submit_ar(self, who: Identity, spec: dict[str, Any], now: float) -> Submitted:
        """qrsub of one advance reservation at ``now``: its id, or the qmaster's refusal."""
        try:
            stimulus = parse(who, "ar_submit", {"ar": spec, "verify": "e"})
        except MalformedRequest as exc:
            return Submitted(None, str(exc), Outcome())
        out = self.core.handle(stimulus, now)
        refused = [a.text for a in out.answers if a.is_error]
        ar_id = out.data.get("ar_id") if isinstance(out.data, dict) else None
        if refused or ar_id is None:
            return Submitted(None, refused[0] if refused else "not granted", out)
        return Submitted(int(ar_id), None, out)

    def tick(self, now: float, jsv: Verifier | None, sink: Sink) -> None:
        """Time has come to ``now``: due timers fire, a due pass runs, and the JSV is asked
        again about jobs it told to come back later (their verdicts handed back at once)."""
        out = self.core.tick(now)
        sink(out)
        for outcome in self._verify(out, now, jsv):
            sink(outcome)

    def next_deadline(self) -> float | None:
        """When the core next has something to do, if ever."""
        return self.core.next_deadline()

    @property
    def complexes(self) -> ComplexTable:
        """The complex table (requests are named by their full names before a JSV sees them)."""
        return self.core.config.complexes

    @property
    def config(self) -> ClusterConfig:
        """The configuration in force."""
        return self.core.config
