"""Factories for core tests: a core on the default cell, identities, requests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Identity, Outcome
from qmaster.core.effects import VerifyJob
from qmaster.core.stimuli import ConfChange, ConfShow, JsvVerdict, VerdictState
from qmaster.jsv.protocol import ResultState, Verdict
from qmaster.stimuli_wire import parse, verdict_of

ALICE = Identity(1000, 1000, "alice", "users")
BOB = Identity(1001, 1000, "bob", "users")
ROOT = Identity(0, 0, "root", "root")
T0 = 1_767_225_600.0

_CONFIG = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
JSV_SCRIPT = Path(__file__).resolve().parents[3] / "examples" / "jsv" / "example_jsv.py"
"""A server JSV for ``jsv_url``: the core never runs it (its verdicts are the tests')."""


def make_core(**settings: Any) -> Core:
    """A core on a fresh copy of the default cell's configuration."""
    config = ClusterConfig.from_rows(_CONFIG.to_rows())
    return Core(config, CoreSettings(admins=frozenset({"root"}), **settings))


def request(core: Core, who: Identity, op: str, now: float | None = None, **args: Any) -> Outcome:
    """Validate ``args`` as the daemon does and hand the stimulus to the core.

    Without ``now``, at T0 or the core's time when that is later.
    """
    return core.handle(parse(who, op, args), max(T0, core.now) if now is None else now)


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


def set_global(core: Core, **values: str) -> Outcome:
    """Change keys of the global configuration as ``qconf -mconf`` does (stimuli only)."""
    now = max(T0, core.now)
    text = str(core.handle(ConfShow(ROOT, "global"), now).data["text"])
    for key, value in values.items():
        text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
    out = core.handle(ConfChange(ROOT, "conf_modify", "global", text=text), now)
    assert not any(a.is_error for a in out.answers), out.answers
    return out


def questions(out: Outcome) -> list[VerifyJob]:
    """What an outcome asks the server JSV."""
    return [e for e in out.effects() if isinstance(e, VerifyJob)]


def answer(
    core: Core,
    question: VerifyJob,
    state: VerdictState,
    now: float | None = None,
    spec: dict[str, Any] | None = None,
    message: str = "",
) -> Outcome:
    """The server JSV's verdict on one question, as the driver hands it back."""
    verdict = jsv_verdict(question.owner, question.token, state, spec, message=message)
    return core.handle(verdict, max(T0, core.now) if now is None else now)


def jsv_verdict(
    owner: Identity,
    token: int,
    state: VerdictState,
    spec: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    message: str = "",
) -> JsvVerdict:
    """A JSV's verdict built as the daemon builds it (a CORRECT's job checked as the wire's)."""
    if state != "CORRECT" or spec is None:
        return JsvVerdict(owner, token, state, message=message)
    return verdict_of(owner, token, Verdict(ResultState.CORRECT, spec, env, message))


def waiting_job(core: Core, who: Identity = ALICE, now: float | None = None, **spec: Any) -> int:
    """A job the server JSV asked to wait (REJECT_WAIT, 3 retries): its id."""
    set_global(core, jsv_url=str(JSV_SCRIPT), jsv_reject_wait_retries="3")
    (question,) = questions(submit(core, who, now, **spec))
    answer(core, question, "REJECT_WAIT", now, message="try later")
    assert question.job_id is not None
    return question.job_id
