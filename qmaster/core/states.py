"""Task states and their transition table.

A job is a set of tasks (one, for a job that is not an array). Each task moves
through the states below; hold and error are shown by Grid Engine as prefixes
of the pending state (``hqw``, ``Eqw``), so the table keeps them as states of
their own where they change what may happen next. The table is the only place
that says which move is legal: :func:`check_transition` raises
:class:`IllegalTransition` for anything else.
"""

from __future__ import annotations

from enum import Enum

from qmaster.core.errors import IllegalTransition


class TaskState(Enum):
    """Where a task is in its life."""

    PENDING = "qw"
    TRANSFERRING = "t"
    RUNNING = "r"
    DELETING = "dr"
    ERROR = "Eqw"
    FINISHED = "z"


S = TaskState

TRANSITIONS: dict[TaskState, frozenset[TaskState]] = {
    S.PENDING: frozenset({S.TRANSFERRING, S.ERROR, S.FINISHED}),
    S.TRANSFERRING: frozenset({S.RUNNING, S.ERROR, S.DELETING, S.FINISHED, S.PENDING}),
    # PENDING: qmod -r; ERROR (also from DELETING): the qmaster failed on it twice (quarantine)
    S.RUNNING: frozenset({S.DELETING, S.FINISHED, S.PENDING, S.ERROR}),
    S.DELETING: frozenset({S.FINISHED, S.ERROR}),
    S.ERROR: frozenset({S.PENDING, S.FINISHED}),
    S.FINISHED: frozenset(),
}

ACTIVE = frozenset({S.TRANSFERRING, S.RUNNING, S.DELETING})


def check_transition(obj: str, frm: TaskState, to: TaskState, story: list[str]) -> None:
    """Raise :class:`IllegalTransition` unless the table allows ``frm -> to``."""
    if to not in TRANSITIONS[frm]:
        raise IllegalTransition(obj, frm.value, to.value, story)


def held_state(shown: str) -> str:
    """A started task's state with Grid Engine's ``h`` where job_get_state_string() puts
    it: after ``d E S T``, before the rest (``hr``, ``dhr``, ``hRr``)."""
    at = len(shown) - len(shown.lstrip("dEST"))
    return f"{shown[:at]}h{shown[at:]}"


def display_state(state: TaskState, *, held: bool, deleting: bool = False) -> str:
    """The state column of qstat: ``qw``, ``hqw``, ``Eqw``, ``t``, ``r``, ``dr``, ``dt``."""
    if state is S.PENDING:
        return "hqw" if held else "qw"
    if state is S.TRANSFERRING and deleting:
        return "dt"
    return str(state.value)
