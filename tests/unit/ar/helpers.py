"""Factories for advance reservation tests: a core where alice may make ARs, qrsub, qrstat."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core, Identity, Outcome
from tests.unit.core.helpers import ALICE, ROOT, make_core, request

HOUR = 3600.0


def ar_core(**settings: Any) -> Core:
    """A default cell (4 hosts x 4 slots in all.q) with alice in ``arusers``."""
    core = make_core(**settings)
    request(core, ROOT, "conf_add", kind="userset", name="arusers", members=["alice"])
    return core


def qrsub(
    core: Core, who: Identity = ALICE, now: float | None = None, verify: str = "e", **spec: Any
) -> Outcome:
    return request(core, who, "ar_submit", now, ar=spec, verify=verify)


def ar_rows(core: Core, now: float | None = None, **args: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = request(core, ROOT, "ar_list", now, **args).data["ars"]
    return rows


def ar_state(core: Core, ar_id: int, now: float | None = None) -> str | None:
    """qrstat's state letter of one AR, or None when it is gone."""
    found = [r["state"] for r in ar_rows(core, now) if r["ar_id"] == ar_id]
    return found[0] if found else None


def modify_queue(core: Core, now: float, **attrs: str) -> Outcome:
    """qconf -Mq all.q with some attributes changed (how outages are simulated)."""
    text = request(core, ROOT, "conf_show", now, kind="cqueue", name="all.q").data["text"]
    lines = []
    for line in text.splitlines():
        key = line.split(" ", 1)[0]
        lines.append(f"{key} {attrs[key]}" if key in attrs else line)
    return request(core, ROOT, "conf_modify", now, kind="cqueue", text="\n".join(lines) + "\n")


def report_kinds(outs: list[Outcome]) -> list[str]:
    """``ar_log`` events (``KIND:EVENT``) and other AR record kinds, in order."""
    found = []
    for out in outs:
        for r in out.reports:
            kind = getattr(r, "KIND", "")
            if kind.startswith(("ar_", "new_ar")):
                found.append(f"{kind}:{getattr(r, 'event', '')}".rstrip(":"))
    return found
