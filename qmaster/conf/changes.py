"""Planning a configuration change: the new state and Grid Engine's answers, nothing applied.

Every request is planned against the current state. If any answer is an error
the plan is marked failed and its state is not used, so requests are
all-or-nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from qmaster.complexes.formula import parse_formula
from qmaster.complexes.rules import BUILTIN_TYPES
from qmaster.complexes.table import ComplexTable
from qmaster.conf.access import UsersetConf, parse_managers
from qmaster.conf.calendar import queues_using
from qmaster.conf.cluster import OPTIONAL_ON_MODIFY, GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.fields import split_list, split_pairs
from qmaster.conf.flatfile import read_pairs
from qmaster.conf.loading import (
    GLOBAL_HOST,
    OBJECT_KINDS,
    SINGLE_NAMES,
    objects_of,
    parse_object,
)
from qmaster.conf.model import ConfObject
from qmaster.conf.names import name_refusals, pe_refusals
from qmaster.conf.rqsconf import rqs_references
from qmaster.conf.state import ConfState
from qmaster.gdi.answers import Answer, Status, error, ok

LIST_NAMES = {
    "cqueue": "cluster queue",
    "exechost": "execution host",
    "hostgroup": "host group",
    "pe": "parallel environment",
    "userset": "userset",
    "complex": "complex entry",
    "project": "project",
    "ckpt": "checkpoint interface",
    "user": "user",
    "calendar": "calendar",
    "rqs": "resource quota set",
}
DELETE_NAMES = {**LIST_NAMES, "ckpt": "checkpointing environment"}


def sfq(name: str) -> str:
    """A name as Grid Engine's messages quote it (``"%-.100s"``: its first 100 characters)."""
    return name[:100]


STATE_FIELDS = {
    "cqueue": "cqueues",
    "exechost": "exechosts",
    "hostgroup": "hostgroups",
    "pe": "pes",
    "userset": "usersets",
    "project": "projects",
    "ckpt": "ckpts",
    "user": "users",
    "calendar": "calendars",
    "rqs": "rqs",
}


@dataclass
class Change:
    """A planned change: answers, the new state, and which rows it touches."""

    answers: list[Answer] = field(default_factory=list)
    state: ConfState | None = None
    touched: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(a.is_error for a in self.answers)


def _with_object(state: ConfState, kind: str, name: str, obj: Any | None) -> ConfState:
    objects = dict(objects_of(state, kind))
    if obj is None:
        objects.pop(name, None)
    else:
        objects[name] = obj
    return state.evolve(**{STATE_FIELDS[kind]: objects})


def _complex_reference(state: ConfState, name: str) -> str | None:
    """centry_is_referenced(): where a complex still is set, in the qmaster's words and
    order (the scheduler configuration, queues, then hosts: host_is_centry_referenced()
    looks at complex_values, the load list, here ``load_values``, and report_variables)."""
    sched = state.sched_conf.attrs
    formula = [n for _, n in parse_formula(sched["load_formula"]) if n is not None]
    if name in split_pairs(sched["job_load_adjustments"]) or name in formula:
        return f'Complex attribute "{name}" is still referenced in scheduler configuration.'
    for queue in state.cqueues.values():
        values = queue.host_values("complex_values")
        if any(name in split_pairs(v) for v in (values.default, *values.overrides.values())):
            return f'Complex attribute "{name}" is still referenced in queue "{queue.name}".'
    for host in state.exechosts.values():
        attrs = host.attrs
        if (
            name in split_pairs(attrs["complex_values"])
            or name in split_pairs(attrs["load_values"])
            or name in split_list(attrs["report_variables"])
        ):
            return f'Complex attribute "{name}" is still referenced in host "{host.name}".'
    for rqs in state.rqs.values():  # sge_centry_referenced_in_rqs()
        if rqs_references(rqs.rqs, name):
            return f'Complex attribute "{name}" is still referenced in resource quota set "{rqs.name}".'
    return None


def _modify_complex(state: ConfState, text: str, source: str, who: str) -> Change:
    new = ComplexTable.parse(text, source)
    change = Change(touched=[("complex", SINGLE_NAMES["complex"])])
    old_names = set(state.complexes.names)
    for name in sorted(old_names - set(new.names)):
        if name in BUILTIN_TYPES:
            change.answers.append(error(f'The built-in complex "{name}" cannot be deleted'))
        elif (where := _complex_reference(state, name)) is not None:
            change.answers.append(error(where))
        else:
            change.answers.append(ok(f'{who} removed "{name}" from complex list'))
    for entry in new:
        if entry.name not in old_names:
            change.answers.append(ok(f'{who} added "{entry.name}" to complex entry list'))
        elif state.complexes[entry.name] != entry:
            change.answers.append(ok(f'{who} modified "{entry.name}" in complex entry list'))
    if not change.answers:  # qconf's summary when nothing was sent (centry_list_add_del_mod)
        change.answers.append(ok("Complex attribute configuration has not been changed"))
    change.state = state.evolve(complexes=new)
    return change


def _modify_managers(state: ConfState, text: str, who: str) -> Change:
    new = parse_managers(text)
    change = Change(touched=[("manager", SINGLE_NAMES["manager"])])
    if "root" in state.managers and "root" not in new:
        change.answers.append(error('may not remove user "root" from manager list'))
    for name in new:
        if name not in state.managers:
            change.answers.append(ok(f'{who} added "{name}" to manager list'))
    for name in state.managers:
        if name not in new and name != "root":
            change.answers.append(ok(f'{who} removed "{name}" from manager list'))
    change.state = state.evolve(managers=tuple(new))
    return change


def _require_all(
    cls: type[ConfObject], text: str, source: str, optional: frozenset[str] = frozenset()
) -> None:
    """A modification gives every attribute: a truncated file must not reset the rest."""
    pairs = read_pairs(text, source)
    given = {p.key for p in pairs}
    last = pairs[-1].line if pairs else 1
    for attr in cls.FORMAT.attrs:
        if attr.name not in given and attr.name not in optional:
            raise ConfigError(source, last, f'Required attribute "{attr.name}" is missing')


def _keep_optional(state: ConfState, text: str, source: str) -> str:
    """-Mconf text with the optional keys it leaves out added at their current values."""
    given = {p.key for p in read_pairs(text, source)}
    kept = [f"{k} {state.global_conf.attrs[k]}" for k in sorted(OPTIONAL_ON_MODIFY - given)]
    return text if not kept else text.rstrip("\n") + "\n" + "\n".join(kept) + "\n"


def _modify(state: ConfState, args: dict[str, Any], who: str) -> Change:
    kind, text = args["kind"], args["text"]
    source = args.get("source") or "-"
    if kind == "global":
        _require_all(GlobalConf, text, source, OPTIONAL_ON_MODIFY)
        text = _keep_optional(state, text, source)
    if kind == "sched":
        _require_all(SchedConf, text, source)
    if kind in OBJECT_KINDS:
        return _modify_object(state, args, source, who)
    if kind == "complex":
        return _modify_complex(state, text, source, who)
    if kind == "manager":
        return _modify_managers(state, text, who)
    if kind == "global":
        conf = GlobalConf.parse(text, source)
        answer = ok(f'{who} modified "global" in configuration list')
        return Change([answer], state.evolve(global_conf=conf), [("global", "global")])
    if kind == "sched":
        sched = SchedConf.parse(text, source)
        answer = ok(f'{who} modified "scheduler" in scheduler configuration list')
        return Change([answer], state.evolve(sched_conf=sched), [("sched", "scheduler")])
    raise ConfigError(source, 0, f'objects of kind "{kind}" cannot be modified')


def _modify_object(state: ConfState, args: dict[str, Any], source: str, who: str) -> Change:
    """-M* replaces an existing object (given whole), -A* adds one that does not exist."""
    kind, text, add = args["kind"], args["text"], bool(args.get("add"))
    obj = parse_object(kind, text, source)
    exists = obj.name in objects_of(state, kind)
    what = LIST_NAMES[kind]
    shown = sfq(obj.name)
    if exists and add:
        return Change([error(f'{what} "{shown}" already exists', Status.EEXIST)])
    if not exists and not add:
        return Change([error(f'denied: {what} "{shown}" does not exist', Status.EEXIST)])
    refused = [] if exists else name_refusals(kind, obj.name)
    if kind == "pe" and not refused:
        refused = pe_refusals(obj.name, obj.attrs)
    if refused:
        return Change([error(text, Status.ESYNTAX) for text in refused])
    if exists:
        _require_all(OBJECT_KINDS[kind], text, source)
    verb = f'modified "{shown}" in' if exists else f'added "{shown}" to'
    answer = ok(f"{who} {verb} {what} list")
    new_state = _with_object(state, kind, obj.name, obj)
    return Change([answer], new_state, [(kind, obj.name)])


def _add_to_userset(state: ConfState, name: str, members: list[str]) -> Change:
    if name not in state.usersets and (refused := name_refusals("userset", name)):
        return Change([error(text, Status.ESYNTAX) for text in refused])
    userset = state.usersets.get(name) or UsersetConf.with_values(name=name)
    entries = list(userset.entries)
    change = Change(touched=[("userset", name)])
    for member in members:
        if member in entries:
            text = f'"{member}" is already in access list "{name}"'
            change.answers.append(error(text, Status.EEXIST))
        else:
            entries.append(member)
            change.answers.append(ok(f'added "{member}" to access list "{name}"'))
    change.state = _with_object(state, "userset", name, userset.with_entries(entries))
    return change


def _delete_from_userset(state: ConfState, name: str, members: list[str]) -> Change:
    userset = state.usersets.get(name)
    if userset is None:
        return Change([error(f'access list "{name}" doesn\'t exist', Status.EEXIST)])
    entries = list(userset.entries)
    change = Change(touched=[("userset", name)])
    for member in members:
        if member not in entries:
            text = f'user "{member}" is not in access list "{name}"'
            change.answers.append(error(text, Status.EEXIST))
        else:
            entries.remove(member)
            change.answers.append(ok(f'deleted user "{member}" from access list "{name}"'))
    change.state = _with_object(state, "userset", name, userset.with_entries(entries))
    return change


def _add_managers(state: ConfState, members: list[str], who: str) -> Change:
    names = list(state.managers)
    change = Change(touched=[("manager", "managers")])
    for member in members:
        if member in names:
            change.answers.append(error(f'manager "{member}" already exists', Status.EEXIST))
        else:
            names.append(member)
            change.answers.append(ok(f'{who} added "{member}" to manager list'))
    change.state = state.evolve(managers=tuple(names))
    return change


def _delete_managers(state: ConfState, members: list[str], who: str) -> Change:
    names = list(state.managers)
    change = Change(touched=[("manager", "managers")])
    for member in members:
        if member == "root":
            change.answers.append(error('may not remove user "root" from manager list'))
        elif member not in names:
            text = f'denied: manager "{member}" does not exist'
            change.answers.append(error(text, Status.EEXIST))
        else:
            names.remove(member)
            change.answers.append(ok(f'{who} removed "{member}" from manager list'))
    change.state = state.evolve(managers=tuple(names))
    return change


def _delete_object(state: ConfState, kind: str, name: str, who: str) -> Change:
    if kind not in OBJECT_KINDS:
        raise ConfigError("-", 0, f'objects of kind "{kind}" cannot be deleted')
    what = DELETE_NAMES[kind]
    if name not in objects_of(state, kind):
        return Change([error(f'denied: {what} "{sfq(name)}" does not exist', Status.EEXIST)])
    if kind == "exechost" and name == GLOBAL_HOST:
        return Change([error('denied: pseudo host "global" may not be deleted')])
    if kind == "calendar" and (users := queues_using(state.cqueues, name)):
        return Change([error(f'Calendar "{name}" is still referenced in queue "{users[0]}"')])
    answer = ok(f'{who} removed "{sfq(name)}" from {what} list')
    return Change([answer], _with_object(state, kind, name, None), [], [(kind, name)])


def plan_change(state: ConfState, op: str, args: dict[str, Any], who: str) -> Change:
    """Plan ``conf_modify``, ``conf_add`` or ``conf_delete`` (``who`` is ``user@host``)."""
    if op == "conf_modify":
        return _modify(state, args, who)
    kind, name = args["kind"], args.get("name") or ""
    members = list(args.get("members") or [])
    if op == "conf_add" and kind == "userset":
        return _add_to_userset(state, name, members)
    if op == "conf_add" and kind == "manager":
        return _add_managers(state, members or [name], who)
    if op == "conf_delete" and kind == "userset" and members:
        return _delete_from_userset(state, name, members)
    if op == "conf_delete" and kind == "manager":
        return _delete_managers(state, members or [name], who)
    if op == "conf_delete":
        return _delete_object(state, kind, name, who)
    raise ConfigError("-", 0, f'operation "{op}" is not supported for "{kind}"')
