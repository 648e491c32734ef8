"""Factories for core tests: a core on the default cell, identities, requests."""

from __future__ import annotations

from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome, Request
from qmaster.gdi.messages import ARGS

ALICE = Identity(1000, 1000, "alice", "users")
BOB = Identity(1001, 1000, "bob", "users")
ROOT = Identity(0, 0, "root", "root")
T0 = 1_767_225_600.0

_CONFIG = ClusterConfig.load_dir(DEFAULT_CONF_DIR)


def make_core(**settings: Any) -> Core:
    """A core on a fresh copy of the default cell's configuration."""
    config = ClusterConfig.from_rows(_CONFIG.to_rows())
    return Core(config, CoreSettings(admins=frozenset({"root"}), **settings))


def request(core: Core, who: Identity, op: str, now: float | None = None, **args: Any) -> Outcome:
    """Validate ``args`` as the daemon does and hand the request to the core.

    Without ``now``, at T0 or the core's time when that is later.
    """
    model = ARGS[op].model_validate(args)
    return core.handle(Request(who, op, model), max(T0, core.now) if now is None else now)


def submit(
    core: Core, who: Identity = ALICE, now: float | None = None, verify: str = "n", **spec: Any
) -> Outcome:
    spec.setdefault("CMDNAME", "job.sh")
    return request(core, who, "submit", now, job=spec, verify=verify)


def rows(core: Core, now: float | None = None, **args: Any) -> list[dict[str, Any]]:
    out = request(core, ROOT, "job_list", now, **args)
    result: list[dict[str, Any]] = out.data["jobs"]
    return result


def states(core: Core, now: float | None = None) -> dict[str, str]:
    """``{"1": "r", "2.3": "qw"}``: the state column per job (and task range)."""
    return {
        f"{r['job_id']}{'.' + r['tasks'] if r['tasks'] else ''}": r["state"]
        for r in rows(core, now)
    }


def texts(out: Outcome) -> list[str]:
    return [a.text for a in out.answers]


def run_until(core: Core, until: float, start: float | None = None) -> list[Outcome]:
    """Tick the core at every deadline up to ``until`` (from ``start``, T0 or the core's time)."""
    outs = []
    now = max(T0, core.now) if start is None else start
    while True:
        deadline = core.next_deadline()
        if deadline is None or deadline > until:
            break
        now = max(now, deadline, core.now)
        outs.append(core.tick(now))
    return outs
