"""Which planner handles a configuration request: attribute verbs, name lists, the rest."""

from __future__ import annotations

from typing import Any

from qmaster.conf.attrs import plan_attr
from qmaster.conf.changes import Change, plan_change
from qmaster.conf.namelists import NAME_LIST_FIELDS, plan_names
from qmaster.conf.rqsattr import plan_rqs_attr
from qmaster.conf.rqsplan import plan_rqs_change
from qmaster.conf.state import ConfState


def plan_request(state: ConfState, op: str, args: dict[str, Any], who: str) -> Change:
    """Plan ``conf_attr``, ``conf_add``/``conf_delete`` or ``conf_modify`` (nothing applied)."""
    if op == "conf_attr" and args.get("kind") == "rqs":
        return plan_rqs_attr(state, args, who)
    if op == "conf_attr":
        return plan_attr(state, args, who)
    kind = args.get("kind")
    if op == "conf_modify" and kind == "rqs":
        return plan_rqs_change(state, args, who)
    if op in ("conf_add", "conf_delete") and kind in NAME_LIST_FIELDS:
        members = list(args.get("members") or []) or [args.get("name") or ""]
        return plan_names(state, op, kind, members, who)
    return plan_change(state, op, args, who)
