"""The places a category rules out as groups: spelt out per instance or host when read,
and a group split by a ``-q`` list (:func:`schedd.categories.evaluate`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from schedd.groups import Groups
from schedd.reasons import Reason, Targets
from schedd.view import JobRequest, QueueState, View

if TYPE_CHECKING:
    from schedd.categories import Category


def spread(reason: Reason, queues: Sequence[QueueState], members: list[int]) -> Targets:
    """The places a group's reason stands for, named when the reasons are read."""
    if reason.level == "host":
        return lambda: list(dict.fromkeys(queues[i].host for i in members))
    if reason.level == "queue":
        return lambda: [queues[i].name for i in members]
    return None


def gate(view: View, job: JobRequest, q: QueueState) -> Reason | None:
    """What rules out a whole group before the names count (state, an AR's queues)."""
    if q.disabled:
        return Reason("disabled", "queue", q.name)
    if job.runtime_limit is None and q.name in view.ar_queues:
        return Reason("ar_no_h_rt", "queue", q.name)
    return None


def named_members(
    cat: Category,
    queues: Sequence[QueueState],
    groups: Groups,
    members: list[int],
    named: frozenset[int],
    gate: Reason | None,
) -> list[int]:
    """The members of a group the job's ``-q`` names; the others noted with their reason
    (as :func:`_queue_never` would give it: the gate first, then ``hard_queue``)."""
    if gate is not None:
        cat.note(gate, spread(gate, queues, members))
        return []
    kept, others = groups.split(members, named)
    if others:
        reason = Reason("hard_queue", "queue", queues[others[0]].name)
        cat.note(reason, spread(reason, queues, others))
    return kept
