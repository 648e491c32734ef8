"""Planning a change of the resource quota sets (qconf -Arqs, -Mrqs, -arqs, -mrqs)."""

from __future__ import annotations

from typing import Any

from qmaster.conf.changes import Change
from qmaster.conf.rqsconf import plan_rqs
from qmaster.conf.state import ConfState
from qmaster.gdi.answers import Status, error, ok


def plan_rqs_change(state: ConfState, args: dict[str, Any], who: str) -> Change:
    """The new state with the sets of ``args["text"]`` added, modified or replacing all."""
    answers, sets = plan_rqs(state.rqs, state.complexes, args, who)
    if sets is None:
        return Change([error(text, Status.ESYNTAX) for good, text in answers if not good])
    change = Change([ok(text) for _, text in answers], state.evolve(rqs=sets))
    change.touched = [("rqs", n) for n, obj in sets.items() if state.rqs.get(n) is not obj]
    change.removed = [("rqs", name) for name in state.rqs if name not in sets]
    return change
