"""``qconf -mattr/-aattr/-rattr/-dattr resource_quota ATTR VALUE SET[/RULE]``.

As rqs_xattr_pre_gdi() and rqs_mod() without SGE_GDI_SET_ALL: ``enabled`` and
``description`` change the set; ``limit`` changes the limits of one rule, named
``set/rule`` by the rule's name or number (rqs_rule_locate()); without a rule Grid
Engine answers ``no resource quota rule specified for modification``. ``-mattr`` changes
(or adds) the named limits, ``-aattr`` adds, ``-dattr`` removes them by name, ``-rattr``
replaces the rule's limits. The changed set then goes through the checks of ``-Mrqs``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from qmaster.complexes.values import ValueParseError, parse_bool
from qmaster.conf.changes import Change
from qmaster.conf.flatfile import read_pairs
from qmaster.conf.rqsconf import WHAT, RqsConf, verify
from qmaster.conf.state import ConfState
from qmaster.gdi.answers import Status, error, ok
from qmaster.rqs.model import RqsRule, RqsSet

NO_RULE = "no resource quota rule specified for modification"


def _rule_index(rqs: RqsSet, name: str) -> int | None:
    """rqs_rule_locate(): a number counts from 1, else a rule's name (any case)."""
    if name.isdigit() and 1 <= int(name) <= len(rqs.rules):
        return int(name) - 1
    for index, rule in enumerate(rqs.rules):
        if rule.name is not None and rule.name.lower() == name.lower():
            return index
    return None


def _limits(rule: RqsRule, mode: str, value: str) -> tuple[tuple[str, str], ...] | str:
    given = [item.partition("=") for item in value.split(",") if item]
    if mode != "remove" and any(not eq or not n or not v for n, eq, v in given):
        return f'The attribute name ("limit") and/or value ("{value}") is invalid'
    pairs = [(n, v) for n, _, v in given]
    current = dict(rule.limits)
    if mode == "set":
        return tuple(pairs)
    if mode == "remove":
        names = {n for n, _ in pairs}
        if not names & current.keys():
            return f'Attribute name ("limit") and/or value ("{value}") not found'
        return tuple((n, v) for n, v in rule.limits if n not in names)
    if mode == "append" and any(n in current for n, _ in pairs):
        return f'"{pairs[0][0]}" already exists'
    current.update(pairs)
    return tuple(current.items())


def plan_rqs_attr(state: ConfState, args: dict[str, Any], who: str) -> Change:
    """One attribute verb on one resource quota set (``conf_attr`` of kind ``rqs``)."""
    target = str(args.get("name") or "")
    set_name, _, rule_name = target.partition("/")
    conf = state.rqs.get(set_name)
    if conf is None:
        return Change([error(f'denied: {WHAT} "{set_name}" does not exist', Status.EEXIST)])
    rqs = conf.rqs
    given = [(str(a), str(v)) for a, v in args.get("pairs") or []]
    if args.get("text") is not None:  # -Mattr and friends: the attribute lines of a file
        given = [(p.key, p.value) for p in read_pairs(args["text"], args.get("source") or "-")]
    for attr, value in given:
        if attr == "enabled":
            try:
                rqs = replace(rqs, enabled=bool(parse_bool(value)))
            except ValueParseError:
                text = f'The attribute name ("{attr}") and/or value ("{value}") is invalid'
                return Change([error(text, Status.ESYNTAX)])
        elif attr == "description":
            rqs = replace(rqs, description=value)
        elif attr == "limit":
            index = _rule_index(rqs, rule_name) if rule_name else None
            if index is None:
                return Change([error(NO_RULE, Status.ESEMANTIC)])
            limits = _limits(rqs.rules[index], str(args["mode"]), value)
            if isinstance(limits, str):
                return Change([error(limits, Status.ESYNTAX)])
            rules = list(rqs.rules)
            rules[index] = replace(rules[index], limits=limits)
            rqs = replace(rqs, rules=tuple(rules))
        else:
            return Change([error(f'unknown attribute name "{attr}"', Status.ESYNTAX)])
    checked, problem = verify(rqs, state.complexes)
    if problem is not None:
        return Change([error(problem, Status.ESYNTAX)])
    sets = {**state.rqs, set_name: RqsConf.of(checked)}
    answer = ok(f'{who} modified "{set_name}" in {WHAT} list')
    return Change([answer], state.evolve(rqs=sets), [("rqs", set_name)])
