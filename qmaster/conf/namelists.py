"""The operator list and the administrative and submit host lists (``qconf -ao/-ah/-as``).

Each is a list of names kept as one row, as the manager list is. Adding a
name twice or removing one that is not there is refused in Grid Engine's
words and changes nothing.
"""

from __future__ import annotations

from qmaster.conf.changes import Change
from qmaster.conf.state import ConfState
from qmaster.gdi.answers import Status, error, ok

NAME_LIST_FIELDS = {"operator": "operators", "adminhost": "adminhosts", "submithost": "submithosts"}
LIST_TITLES = {
    "operator": "operator",
    "adminhost": "administrative host",
    "submithost": "submit host",
}


def names_of(state: ConfState, kind: str) -> tuple[str, ...]:
    """The names held in the list ``kind``."""
    names: tuple[str, ...] = getattr(state, NAME_LIST_FIELDS[kind])
    return names


def _added(kind: str, name: str, who: str) -> str:
    if kind == "operator":
        return f'{who} added "{name}" to operator list'
    return f"{name} added to {LIST_TITLES[kind]} list"


def _exists(kind: str, name: str) -> str:
    return {"operator": f'operator "{name}" already exists',
            "adminhost": f'adminhost "{name}" already exists',
            "submithost": f'submithost "{name}" already exists'}[kind]  # fmt: skip


def plan_names(state: ConfState, op: str, kind: str, members: list[str], who: str) -> Change:
    """Add (``conf_add``) or remove (``conf_delete``) names of an operator or host list."""
    names = list(names_of(state, kind))
    title = LIST_TITLES[kind]
    change = Change(touched=[(kind, NAME_LIST_FIELDS[kind])])
    for member in members:
        if op == "conf_add" and member in names:
            change.answers.append(error(_exists(kind, member), Status.EEXIST))
        elif op == "conf_add":
            names.append(member)
            change.answers.append(ok(_added(kind, member, who)))
        elif member not in names:
            text = f'denied: {title} "{member}" does not exist'
            change.answers.append(error(text, Status.EEXIST))
        else:
            names.remove(member)
            change.answers.append(ok(f'{who} removed "{member}" from {title} list'))
    change.state = state.evolve(**{NAME_LIST_FIELDS[kind]: tuple(names)})
    return change
