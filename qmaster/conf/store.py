"""``ClusterConfig``: the configuration of one cell, read often, changed through ``apply``.

Reads are plain attribute lookups on a :class:`ConfState` whose queue instances
are computed once. ``apply`` handles the ``conf_modify``/``conf_add``/
``conf_delete`` operations: it builds a new state, checks it whole, and only
then swaps it in, so a refused request leaves everything as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qmaster.complexes.table import ComplexTable
from qmaster.conf.access import PeConf, UsersetConf
from qmaster.conf.calendar import CalendarConf
from qmaster.conf.changes import Change
from qmaster.conf.cluster import GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError, ConfNotFound
from qmaster.conf.loading import (
    GLOBAL_HOST,
    OBJECT_KINDS,
    Row,
    object_text,
    objects_of,
    read_dir,
    read_rows,
    state_rows,
    template_text,
)
from qmaster.conf.namelists import NAME_LIST_FIELDS, names_of
from qmaster.conf.planners import plan_request
from qmaster.conf.projects import CkptConf, ProjectConf
from qmaster.conf.qshow import show_queues
from qmaster.conf.queue import ExecHostConf, HostgroupConf, QueueConf
from qmaster.conf.rqsconf import show_rqs
from qmaster.conf.state import ConfState, QueueInstanceConf, check_state
from qmaster.gdi.answers import Answer, Status, error

NOT_FOUND = {
    "cqueue": 'No cluster queue or queue instance matches the phrase "{}"',
    "exechost": "{} is not an execution host",
    "pe": "{} is not a parallel environment",
    "userset": 'access list "{}" doesn\'t exist',
    "hostgroup": 'Host group "{}" does not exist',
    "project": "{} is not known as project",
    "ckpt": "{} is not a checkpointing interface definition",
    "user": "{} is not known as user",
    "calendar": "{} is not a calendar",
    "rqs": "No resource quota set found",
}


@dataclass
class ConfChange:
    """The outcome of a configuration request: answers, and the spool rows to write/remove."""

    answers: list[Answer]
    upserts: list[Row] = field(default_factory=list)
    deletes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no answer is an error."""
        return not any(a.is_error for a in self.answers)


class ClusterConfig:
    """The configuration objects of one cell."""

    def __init__(self, state: ConfState) -> None:
        self._state = state

    @classmethod
    def load_dir(cls, path: Path) -> ClusterConfig:
        """Read a cell configuration folder; a bad file raises :class:`ConfigError`."""
        return cls(read_dir(path))

    @classmethod
    def from_rows(cls, rows: list[Row]) -> ClusterConfig:
        """Rebuild from spool rows, checked as a folder is."""
        return cls(read_rows(rows))

    def to_rows(self) -> list[Row]:
        """Every object as ``(kind, name, text)`` in Grid Engine's file formats."""
        return state_rows(self._state)

    # -- reads -----------------------------------------------------------------

    @property
    def state(self) -> ConfState:
        """The current immutable state."""
        return self._state

    @property
    def complexes(self) -> ComplexTable:
        return self._state.complexes

    @property
    def cqueues(self) -> dict[str, QueueConf]:
        return self._state.cqueues

    @property
    def exechosts(self) -> dict[str, ExecHostConf]:
        return self._state.exechosts

    @property
    def hostgroups(self) -> dict[str, HostgroupConf]:
        return self._state.hostgroups

    @property
    def pes(self) -> dict[str, PeConf]:
        return self._state.pes

    @property
    def usersets(self) -> dict[str, UsersetConf]:
        return self._state.usersets

    @property
    def projects(self) -> dict[str, ProjectConf]:
        return self._state.projects

    @property
    def ckpts(self) -> dict[str, CkptConf]:
        return self._state.ckpts

    @property
    def calendars(self) -> dict[str, CalendarConf]:
        return self._state.calendars

    @property
    def global_conf(self) -> GlobalConf:
        return self._state.global_conf

    @property
    def sched_conf(self) -> SchedConf:
        return self._state.sched_conf

    @property
    def managers(self) -> frozenset[str]:
        return frozenset(self._state.managers)

    def exechost(self, name: str) -> ExecHostConf | None:
        """The execution host called ``name``, or None."""
        return self._state.exechosts.get(name)

    def queue_instances(self) -> list[QueueInstanceConf]:
        """Every queue instance (computed once per configuration change)."""
        return self._state.queue_instances

    def user_in_lists(self, user: str, group: str, lists: list[str] | tuple[str, ...]) -> bool:
        """True when ``user`` (or ``@group``) is an entry of any of the named usersets."""
        for name in lists:
            userset = self._state.usersets.get(name)
            if userset is not None and (user in userset.entries or f"@{group}" in userset.entries):
                return True
        return False

    # -- conf_show ---------------------------------------------------------------

    def show(self, kind: str, name: str | None, template: bool = False) -> dict[str, Any]:
        """The ``data`` of ``conf_show``: ``{"text": ...}`` or ``{"names": [...]}``.

        Queue patterns that match nothing are listed under ``"missing"``.
        """
        if kind == "manager":
            return {"names": list(self._state.managers)}
        if kind in NAME_LIST_FIELDS:
            return {"names": list(names_of(self._state, kind))}
        if kind == "global" and name not in (None, "global"):
            raise ConfNotFound(f"configuration {name} not defined")
        if kind in ("complex", "global", "sched"):
            return {"text": object_text(self._state, kind, "")}
        if kind == "rqs":
            return show_rqs(self._state.rqs, name, template)
        if kind not in OBJECT_KINDS:
            raise ValueError(f'unknown configuration kind "{kind}"')
        if template:
            return {"text": template_text(kind, name)}
        objects = objects_of(self._state, kind)
        if name is None:
            return {"names": sorted(n for n in objects if n != GLOBAL_HOST)}
        if kind == "cqueue":
            text, missing = show_queues(self._state, name)
            return {"text": text, "missing": missing}
        if name not in objects:
            raise ConfNotFound(NOT_FOUND[kind].format(name))
        return {"text": objects[name].render()}

    # -- conf_modify / conf_add / conf_delete -----------------------------------

    def apply(
        self,
        op: str,
        args: dict[str, Any],
        user: str,
        host: str,
        is_manager: bool,
        veto: Callable[[ConfState], str | None] | None = None,
    ) -> ConfChange:
        """Carry out a configuration request completely, or not at all.

        ``veto`` sees the planned state and may refuse it with a message
        (advance reservations the change would break).
        """
        if not is_manager:
            text = f'denied: "{user}" must be manager for this operation'
            return ConfChange([error(text, Status.ENOMGR)])
        try:
            change = plan_request(self._state, op, args, f"{user}@{host}")
        except ConfigError as exc:
            return ConfChange([error(exc.answer, Status.ESYNTAX)])
        return self._commit(change, veto)

    def _commit(
        self, change: Change, veto: Callable[[ConfState], str | None] | None = None
    ) -> ConfChange:
        if change.failed or change.state is None:
            # Nothing was applied, so no success line may be printed for any part of it.
            return ConfChange([a for a in change.answers if a.is_error])
        try:
            check_state(change.state, before=self._state)
        except ConfigError as exc:
            return ConfChange([error(exc.reason, Status.ESEMANTIC)])
        refused = veto(change.state) if veto is not None else None
        if refused is not None:
            return ConfChange([error(refused, Status.ESYNTAX)])
        self._state = change.state
        upserts = [(k, n, object_text(change.state, k, n)) for k, n in change.touched]
        return ConfChange(change.answers, upserts, list(change.removed))
