"""``qconf -aattr/-mattr/-rattr/-dattr`` (and the ``-A/-M/-R/-Dattr`` file forms), ``-purge``.

An attribute verb edits one attribute of one object: the changed object is
rendered and then goes through the same path as ``qconf -M*`` (parse, checks,
cross-checks), so it is refused or accepted exactly as the whole file would be.
On a queue, ``all.q@host1`` or ``all.q@@group`` edits the value for that host or
host group (``[host1=value]`` in queue_conf(5)); ``-purge`` removes such a value.

Modes: ``set`` (-rattr) replaces the value; ``change`` (-mattr) changes the named
entries of a ``name=value`` list and replaces any other value; ``append``
(-aattr) adds entries to a list; ``remove`` (-dattr) removes entries from a list.
"""

from __future__ import annotations

from typing import Any

from qmaster.conf import fields as f
from qmaster.conf.changes import Change, _modify_object
from qmaster.conf.errors import ConfigError
from qmaster.conf.flatfile import read_pairs
from qmaster.conf.hostvalues import HostValues
from qmaster.conf.loading import OBJECT_KINDS, objects_of
from qmaster.conf.model import ConfObject
from qmaster.conf.queue import QueueConf
from qmaster.conf.state import ConfState
from qmaster.gdi.answers import Status, error

ATTR_KINDS = {"queue": "cqueue", "exechost": "exechost", "hostgroup": "hostgroup", "pe": "pe",
              "ckpt": "ckpt", "project": "project", "userset": "userset"}  # fmt: skip
"""qconf's object names for the attribute verbs and the kinds they edit."""
PAIR_LISTS = frozenset(
    {"complex_values", "load_thresholds", "suspend_thresholds", "load_scaling", "usage_scaling",
     "load_values"}  # load_values: a simulated host's static load report (a minige addition)
)  # fmt: skip
NAME_LISTS = frozenset(
    {"hostlist", "pe_list", "ckpt_list", "user_lists", "xuser_lists", "projects", "xprojects",
     "owner_list", "report_variables", "acl", "xacl", "entries", "qtype", "subordinate_list"}
)  # fmt: skip

BAD_ARGS = 'The attribute name ("{}") and/or value ("{}") is invalid'
NOT_FOUND = 'Attribute name ("{}") and/or value ("{}") not found'
CANT_MODIFY_NONE = (
    '"NONE" is not a valid list attribute value for -mattr.  Try using -rattr instead.'
)
INCOMPLETE = 'Given object_instance "{}" is incomplete'
NOT_SUPPORTED = 'Modification of object "{}" not supported'
HOST_NOT_SUPPORTED = 'Modification of host "{}" not supported'


class AttrRefused(Exception):
    """An attribute verb refused with Grid Engine's message."""


def _join(items: list[str]) -> str:
    if not items:
        return "NONE"
    return ",".join(items)  # lists of names are re-spaced when the object is read (Format.spaced)


def _pairs(text: str) -> dict[str, str]:
    try:
        return f.split_pairs(text)
    except ValueError as exc:
        raise AttrRefused(str(exc)) from None


def edit_value(mode: str, attr: str, old: str, value: str) -> str:
    """The new text of ``attr`` after one attribute verb (``AttrRefused`` when refused)."""
    if mode == "set" or (attr not in PAIR_LISTS and attr not in NAME_LISTS):
        if mode == "remove":
            raise AttrRefused(NOT_FOUND.format(attr, value))
        return value
    if attr in PAIR_LISTS:
        current = _pairs(old)
        given = _pairs(value) if mode != "remove" else {}
        if mode == "change" and f.is_none(value):
            raise AttrRefused(CANT_MODIFY_NONE)
        if mode == "remove":  # by name: -dattr exechost complex_values h_vmem host1
            given = {i.partition("=")[0]: "" for i in f.split_list(value)}
            missing = [k for k in given if k not in current]
            if missing or not given:
                raise AttrRefused(NOT_FOUND.format(attr, value))
            return _join([f"{k}={v}" for k, v in current.items() if k not in given])
        current.update(given)
        return _join([f"{k}={v}" for k, v in current.items()])
    items, given_items = f.split_list(old), f.split_list(value)
    if mode == "change":
        if f.is_none(value):
            raise AttrRefused(CANT_MODIFY_NONE)
        return _join(given_items)
    if mode == "remove":
        if not given_items or any(i not in items for i in given_items):
            raise AttrRefused(NOT_FOUND.format(attr, value))
        return _join([i for i in items if i not in given_items])
    return _join(items + [i for i in given_items if i not in items])


def _edited(obj: ConfObject, attr: str, where: str | None, mode: str, value: str) -> dict[str, str]:
    """The object's attributes with ``attr`` edited (for host or ``@group`` ``where``)."""
    if attr == obj.FORMAT.name_key:
        raise AttrRefused(f"qconf: cannot change {attr}")
    if obj.FORMAT.attr(attr) is None:
        raise AttrRefused(BAD_ARGS.format(attr, value))
    if attr not in obj.FORMAT.host_overrides:
        if where is not None:
            raise AttrRefused(BAD_ARGS.format(attr, value))
        return {**obj.attrs, attr: edit_value(mode, attr, obj.attrs[attr], value)}
    values = obj.host_values(attr)
    overrides = dict(values.overrides)
    if where is None:
        default = edit_value(mode, attr, values.default, value)
        return {**obj.attrs, attr: HostValues(default, overrides).render()}
    overrides[where] = edit_value(mode, attr, overrides.get(where, values.default), value)
    return {**obj.attrs, attr: HostValues(values.default, overrides).render()}


def _split_target(kind: str, name: str) -> tuple[str, str | None]:
    """``all.q@host1`` -> ``("all.q", "host1")``; ``all.q@@grp`` -> ``("all.q", "@grp")``."""
    if kind != "cqueue" or "@" not in name:
        return name, None
    cqueue, _, where = name.partition("@")
    if not cqueue or not where or where == "@":
        raise AttrRefused(INCOMPLETE.format(name))
    return cqueue, where


def _given_pairs(args: dict[str, Any]) -> list[tuple[str, str]]:
    if args.get("text") is not None:
        pairs = [(p.key, p.value) for p in read_pairs(args["text"], args.get("source") or "-")]
        if not pairs:
            raise AttrRefused("No attribute given")
        return pairs
    pairs = [(str(a), str(v)) for a, v in args.get("pairs") or []]
    if not pairs:
        raise AttrRefused("No attribute given")
    return pairs


def _current(state: ConfState, kind: str, name: str) -> ConfObject | None:
    return objects_of(state, kind).get(name)


def plan_attr(state: ConfState, args: dict[str, Any], who: str) -> Change:
    """Plan one attribute verb on one object (``conf_attr``)."""
    kind, mode = args["kind"], args["mode"]
    if kind not in ATTR_KINDS.values():
        return Change([error(NOT_SUPPORTED.format(kind), Status.ESYNTAX)])
    try:
        name, where = _split_target(kind, args["name"])
        obj = _current(state, kind, name)
        if obj is None:
            # the missing object is reported as -M* reports it
            text = objects_template(kind, name)
            return _modify_object(state, {"kind": kind, "text": text}, "-", who)
        if where is not None and mode != "purge":
            _check_where(state, obj, where)
        attrs = dict(obj.attrs)
        for attr, value in _given_pairs(args):
            current = type(obj)(attrs=attrs)
            if mode == "purge":
                attrs = _purged(current, attr, where, args["name"])
            else:
                attrs = _edited(current, attr, where, mode, value)
    except AttrRefused as exc:
        return Change([error(str(exc), Status.ESYNTAX)])
    except ConfigError as exc:
        return Change([error(exc.answer, Status.ESYNTAX)])
    text = type(obj)(attrs=attrs).render()
    try:
        return _modify_object(state, {"kind": kind, "text": text}, "-", who)
    except ConfigError as exc:
        if args.get("text") is not None:
            raise
        if exc.verbatim:  # the qmaster's verifier answers, as for -M*
            return Change([error(exc.answer, Status.ESYNTAX)])
        # a value given on the command line that does not parse (qconf's own wording)
        attr, value = _given_pairs(args)[0]
        return Change([error(BAD_ARGS.format(attr, value), Status.ESYNTAX)])


def _check_where(state: ConfState, obj: ConfObject, where: str) -> None:
    """A host value is for a host of the queue, or for a host group that exists."""
    assert isinstance(obj, QueueConf)
    if where.startswith("@"):
        if where not in state.hostgroups:
            raise AttrRefused(HOST_NOT_SUPPORTED.format(where))
    elif where not in state.queue_hosts(obj):
        raise AttrRefused(HOST_NOT_SUPPORTED.format(where))


def objects_template(kind: str, name: str) -> str:
    """A minimal file naming ``name`` (used to report a missing object in -M*'s words)."""
    cls = OBJECT_KINDS[kind]
    return f"{cls.FORMAT.name_key} {name}\n"


def _purged(obj: ConfObject, attr: str, where: str | None, target: str) -> dict[str, str]:
    """``-purge``: drop the value for one host or host group (``*``: every attribute)."""
    if where is None:
        raise AttrRefused(INCOMPLETE.format(target))
    names = sorted(obj.FORMAT.host_overrides) if attr == "*" else [attr]
    attrs = dict(obj.attrs)
    found = False
    for key in names:
        if key not in obj.FORMAT.host_overrides:
            raise AttrRefused(NOT_FOUND.format(attr, where))
        values = obj.host_values(key)
        if where in values.overrides:
            found = True
            rest = {k: v for k, v in values.overrides.items() if k != where}
            attrs[key] = HostValues(values.default, rest).render()
    if not found:
        raise AttrRefused(NOT_FOUND.format(attr, where))
    return attrs
