"""The daemon's JSV driver: verdicts go back to the core that asked, answers to who waits."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from qmaster.core.effects import VerifyJob
from qmaster.core.stimuli import Asked, JsvVerdict
from qmaster.gdi.server import Reply
from qmaster.jsv.protocol import ResultState, Verdict
from qmaster.jsv_driver import JsvDriver
from qmaster.model import Identity

ALICE = Identity(1000, 1000, "alice", "users")


class SlowGate:
    """A JSV that accepts each job when the test says so."""

    def __init__(self) -> None:
        self.go = asyncio.Event()

    async def verify(self, who: Identity, job: dict[str, Any], job_id: int | None) -> Verdict:
        await self.go.wait()
        return Verdict(ResultState.ACCEPT, job)


def _driver(gate: SlowGate, handled: list[Asked], tasks: set[asyncio.Task[None]]) -> JsvDriver:
    def spawn(work: Coroutine[Any, Any, None], name: str) -> None:
        tasks.add(asyncio.get_running_loop().create_task(work, name=name))

    async def handle(stimulus: Asked) -> Reply:
        handled.append(stimulus)
        return Reply([])

    return JsvDriver(gate, spawn, handle)


async def test_a_verdict_goes_back_as_a_stimulus_and_the_answer_to_the_waiting_client() -> None:
    """The JSV's answer becomes JsvVerdict(token); the reply for the request reaches its future."""
    gate, handled, tasks = SlowGate(), [], set()
    driver = _driver(gate, handled, tasks)
    future = driver.verify(VerifyJob(7, 1, ALICE, {"CMDNAME": "a"}, "n", 3))
    assert future is not None
    gate.go.set()
    await asyncio.gather(*tasks)
    assert handled == [JsvVerdict(ALICE, 7, "ACCEPT")]
    driver.answer(3, Reply([]))
    assert (await future).answers == []


async def test_a_verdict_for_a_forgotten_core_is_dropped() -> None:
    """After the core is rebuilt (its questions renumbered), a late verdict is not handed on:
    it would answer the new core's question of the same number."""
    gate, handled, tasks = SlowGate(), [], set()
    driver = _driver(gate, handled, tasks)
    future = driver.verify(VerifyJob(2, 1, ALICE, {"CMDNAME": "a"}, "n", 1))
    assert future is not None
    driver.forget()
    assert (await future).answers[0].text.startswith("job verification was interrupted")
    gate.go.set()
    await asyncio.gather(*tasks)
    assert handled == []
