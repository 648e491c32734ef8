"""``core.tick`` end to end on a core equivalent to the scale benchmark's cell.

The core is built in this process on the same configuration (1,000 hosts × 8
slots), its slots filled with runners and then the same pending jobs the
daemon received, submitted through :meth:`Core.handle` as the daemon would.
Time is virtual: each tick is one ``schedule_interval`` later than the last,
so a pass is due at every tick. Measured: an idle tick (a pass with nothing
changed) and the tick after one running job was deleted (the pass that fills
its slot), each timed around :meth:`Core.tick` alone. The garbage collector
runs under the daemon's policy (:mod:`qmaster.gcpolicy`), and a collection
settles the fill's garbage before the timed ticks, as it would in the idle
daemon.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.scale_cell import HOSTS, SLOTS, pending_spec, runner_spec
from qmaster import gcpolicy
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome
from qmaster.stimuli_wire import parse

OWNER = Identity(1000, 1000, "bench", "users")
ROOT = Identity(0, 0, "root", "root")
T0 = 1_800_000_000.0


@dataclass(frozen=True, slots=True)
class TickFigures:
    """Wall seconds of core ticks at one size."""

    idle: float
    after_finish: float
    dispatched: int


def _dispatched(out: Outcome) -> int:
    return sum(
        int(fields.get("dispatched", 0)) for event, fields in out.logs if event == "scheduler_pass"
    )


class CoreFiller:
    """A core filled like the daemon's cell, grown size by size."""

    def __init__(self, conf_dir: Path) -> None:
        self.core = Core(ClusterConfig.load_dir(conf_dir), CoreSettings())
        gcpolicy.install()  # as in the daemon: what survives a full collection is frozen
        self.now = T0
        self.pending = 0
        self.runners: list[int] = []
        self._deleted = 0

    def _call(self, who: Identity, op: str, args: dict[str, Any]) -> Outcome:
        out = self.core.handle(parse(who, op, args), self.now)
        bad = [a.text for a in out.answers if a.is_error]
        if bad:
            raise RuntimeError(f"core refused {op}: {bad[0]}")
        return out

    def _submit(self, spec: dict[str, Any]) -> int:
        out = self._call(OWNER, "submit", {"job": spec, "verify": "n"})
        return int(out.data["job_id"])

    def _advance(self) -> Outcome:
        self.now += 1.0
        return self.core.tick(self.now)

    def fill_runners(self) -> None:
        """Every slot taken by a long runner, all of them running."""
        self.runners = [self._submit(runner_spec()) for _ in range(HOSTS * SLOTS)]
        for _ in range(3):  # dispatch, then start
            self._advance()

    def grow(self, pending: int, deadline: float) -> int:
        """Submit pending jobs until there are ``pending`` (or the deadline passes)."""
        while self.pending < pending and time.monotonic() < deadline:
            self._submit(pending_spec(self.pending))
            self.pending += 1
        return self.pending

    def measure(self) -> TickFigures:
        """Time an idle tick, then the tick after one runner is deleted."""
        self._advance()  # settle whatever the last submissions asked for
        gc.collect()  # the fill's garbage, and a freeze of what lives on (as the daemon's)
        started = time.perf_counter()
        self._advance()
        idle = time.perf_counter() - started
        victim = self.runners[self._deleted]
        self._deleted += 1
        self._call(ROOT, "delete", {"job_ids": [str(victim)], "force": True})
        started = time.perf_counter()
        out = self._advance()
        after = time.perf_counter() - started
        return TickFigures(idle, after, _dispatched(out))
