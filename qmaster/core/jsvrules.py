"""The server JSV's rules that do not need the JSV: what qalter may change, what a JSV sees.

- with a server JSV configured, qalter may change only the parameters in
  ``jsv_allowed_mod`` (see :data:`SWITCH_OF`);
- the job a JSV sees carries the ``-w`` mode as parameter ``w`` when it is not ``n``;
- a rejection without a message of its own gets Grid Engine's text.

Used by the core (:mod:`qmaster.core.jsvflow`) and re-exported by :mod:`qmaster.jsv.gate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qmaster.conf.cluster import GlobalConf

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


def with_verify(spec: dict[str, Any], verify: str) -> dict[str, Any]:
    """The job as a JSV sees it: the ``-w`` mode is parameter ``w``, sent when not ``n``."""
    return {**spec, "w": verify} if verify != "n" else dict(spec)


def refused_text(state: str, message: str) -> str:
    """Grid Engine's text for a rejection without a message of its own."""
    if message:
        return message
    if state == "REJECT_WAIT":
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


@dataclass(slots=True)
class Verifications:
    """What the core asked the server JSV and has not heard back about.

    ``tokens`` maps each :class:`~qmaster.core.effects.VerifyJob`'s token to the
    client request waiting for it and its place in that request, or, for a job
    waiting for verification (REJECT_WAIT), to ``(None, job id)``; ``requests``
    holds the waiting requests (:class:`qmaster.core.jsvflow.Waiting`). Memory
    only: a qmaster that restarts asks again for the jobs that wait.
    """

    tokens: dict[int, tuple[int | None, int]] = field(default_factory=dict)
    requests: dict[int, Any] = field(default_factory=dict)
    last_id: int = 0

    def new_id(self) -> int:
        """A number for a token or a request, never used before by this core."""
        self.last_id += 1
        return self.last_id
