"""The daemon's side of the server JSV: it runs the core's ``VerifyJob`` effects.

Each question goes to the JSV pool in a task of its own; the verdict goes back
to the core as a :class:`~qmaster.core.stimuli.JsvVerdict` (converted at the
boundary, :func:`qmaster.stimuli_wire.verdict_of`). A client whose request
waits for verdicts waits on a future, by the core's request number, until an
outcome carries its reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from qmaster import logs
from qmaster.core.effects import VerifyJob
from qmaster.core.stimuli import Asked, JsvVerdict
from qmaster.gdi.server import Reply, error_reply
from qmaster.jsv.protocol import Verdict
from qmaster.model import Identity, Status
from qmaster.stimuli_wire import verdict_of

log = logs.get("qmaster")

Spawn = Callable[[Coroutine[Any, Any, None], str], None]


class Verifier(Protocol):
    """What runs one verification (the daemon's :class:`~qmaster.jsv.gate.JsvGate`)."""

    async def verify(self, who: Identity, job: dict[str, Any], job_id: int | None) -> Verdict: ...


Handle = Callable[[Asked], Awaitable[Reply]]


class JsvDriver:
    """Runs the server JSV for the core and keeps the clients waiting for its verdicts."""

    def __init__(self, gate: Verifier, spawn: Spawn, handle: Handle) -> None:
        self.gate = gate
        self._spawn = spawn
        self._handle = handle
        self._awaiting: dict[int, asyncio.Future[Reply]] = {}
        self._generation = 0
        """Counts the cores forgotten: a verdict for an earlier core is not handed on
        (its tokens mean nothing to the core rebuilt since, which numbers afresh)."""

    def verify(self, effect: VerifyJob) -> asyncio.Future[Reply] | None:
        """Ask the JSV; the future of the reply when a client waits for this request."""
        self._spawn(self._verdict(effect, self._generation), f"jsv-{effect.token}")
        if effect.request is None:
            return None
        loop = asyncio.get_running_loop()
        return self._awaiting.setdefault(effect.request, loop.create_future())

    async def _verdict(self, effect: VerifyJob, generation: int) -> None:
        who = effect.owner
        try:
            verdict = await self.gate.verify(who, effect.spec, effect.job_id)
            stimulus = verdict_of(who, effect.token, verdict)
        except Exception:
            log.exception("jsv_reverify_failed", job_id=effect.job_id)
            stimulus = JsvVerdict(who, effect.token, "REJECT_WAIT")
        if generation == self._generation:
            await self._handle(stimulus)

    def answer(self, request: int, reply: Reply) -> None:
        """Answer a client that waited for the server JSV."""
        future = self._awaiting.pop(request, None)
        if future is not None and not future.done():
            future.set_result(reply)

    def forget(self) -> None:
        """The core that asked is gone (rebuilt from the spool): its clients are told."""
        self._generation += 1
        awaiting, self._awaiting = self._awaiting, {}
        text = "job verification was interrupted: the qmaster reloaded its state"
        for future in awaiting.values():
            if not future.done():
                future.set_result(error_reply(text, Status.EUNKNOWN, close=False))
