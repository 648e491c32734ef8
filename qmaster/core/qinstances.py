"""The states of a queue instance as the core knows them, and what the scheduler sees of them.

:func:`letters` joins the states set by hand (qmod), by the queue's calendar and
by an ambiguous configuration. The scheduler's view marks a disabled instance
(``d``, ``D``) as such, so that a waiting job's scheduling info says
``queue instance "all.q@host1" dropped because it is disabled``; an instance in
another state that takes no jobs (``s``, ``C``, ``E``, ``c``) is left out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from qmaster.core.ambiguity import ambiguous
from qmaster.core.qstates import takes_jobs
from schedd import QueueState

if TYPE_CHECKING:
    from qmaster.core.machine import Core

DISABLED = frozenset("dD")


def letters(core: Core, qi_name: str) -> frozenset[str]:
    """The states of a queue instance set by hand, by its calendar and by its configuration."""
    manual = core.qi_states.get(qi_name, frozenset())
    cal = core.qi_calendar.get(qi_name)
    found = manual | {cal} if cal else manual
    if qi_name.partition("@")[2] in core.down_hosts:
        found = found | {"u"}
    return found | {"c"} if qi_name in ambiguous(core) else found


def for_scheduler(core: Core, queues: list[QueueState]) -> list[QueueState]:
    """The queue instances a pass may consider, disabled ones marked so."""
    out: list[QueueState] = []
    for q in queues:
        have = letters(core, q.name)
        if takes_jobs(have):
            out.append(q)
        elif have & DISABLED and takes_jobs(have - DISABLED):
            out.append(replace(q, disabled=True))
    return out
