"""Resource quota sets as configuration objects: the qmaster's checks and qconf's requests.

A set is spooled and shown as its own text (:mod:`qmaster.rqs.model`); the checks are
rqs_verify_attributes() with in_master (every limit names a complex attribute, a value
of its type, a dynamic limit only for a per-host rule) and verify_str_key() for a new
name. ``qconf -Arqs`` adds every set of a file, ``-Mrqs FILE NAME,..`` modifies the
named ones, and ``-Mrqs FILE``/``-mrqs`` alone replace all sets (sge_c_gdi_replace():
each old set removed, then each new one added, with the lines for each).
"""

from __future__ import annotations

import re
from typing import Any, Self

from qmaster.complexes.formula import FormulaError
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.values import ValueParseError
from qmaster.conf.errors import ConfigError, ConfNotFound
from qmaster.conf.model import Attr, ConfObject, Format
from qmaster.conf.names import key_problem
from qmaster.rqs.model import RqsRule, RqsSet, default_set, dynamic_terms, parse_sets

RQS_FORMAT = Format(
    kind="rqs",
    attrs=(
        Attr("name", None, lambda _: None),
        Attr("description", "NONE", lambda _: None),
        Attr("enabled", "FALSE", lambda _: None),
    ),
    column=13,
)
WHAT = "resource quota set"


class RqsConf(ConfObject):
    """A resource quota set; :attr:`rqs` holds its rules."""

    FORMAT = RQS_FORMAT
    rqs: RqsSet

    @classmethod
    def of(cls, rqs: RqsSet) -> RqsConf:
        attrs = {"name": rqs.name, "description": rqs.description}
        return cls(attrs={**attrs, "enabled": "TRUE" if rqs.enabled else "FALSE"}, rqs=rqs)

    @classmethod
    def parse(cls, text: str, path: str = "-", *, spooled: bool = False) -> Self:
        sets = parse_sets(text, path)
        if len(sets) != 1:
            raise ConfigError(path, 1, f"{len(sets)} resource quota sets where one was expected")
        return cls.of(sets[0])  # type: ignore[return-value]

    @classmethod
    def with_values(cls, path: str = "-", **values: str) -> Self:
        return cls.of(default_set(values.get("name", "template")))  # type: ignore[return-value]

    def render(self) -> str:
        return self.rqs.render()


def rqs_references(rqs: RqsSet, name: str) -> bool:
    """A limit of the set is on complex attribute ``name`` or a dynamic limit names it."""
    for rule in rqs.rules:
        for attr, value in rule.limits:
            if attr == name:
                return True
            if "$" in value:
                try:
                    if any(term == name for _, term in dynamic_terms(value)):
                        return True
                except FormulaError:
                    continue
    return False


def _is_host_rule(rule: RqsRule) -> bool:
    """RQR_HOST or RQR_QUEUEI: the rule counts per host (its hosts filter expanded)."""
    hosts = rule.filter("hosts")
    return hosts is not None and hosts.expand


def verify(rqs: RqsSet, complexes: ComplexTable) -> tuple[RqsSet, str | None]:
    """rqs_verify_attributes() in the qmaster: the set with each limit's attribute by its
    full name, or the first refusal in the qmaster's words."""
    rules: list[RqsRule] = []
    for rule in rqs.rules:
        limits: list[tuple[str, str]] = []
        for name, value in rule.limits:
            entry = complexes.get(name)
            if entry is None:
                return rqs, f'"resource_quota" references not existing complex attribute "{name}"'
            if "$" in value:
                if not _is_host_rule(rule):
                    return rqs, "dynamic limits are only supported for per host rules"
                try:
                    terms = dynamic_terms(value)
                except FormulaError:
                    return rqs, f'invalid dynamical limit "{value}"'
                for _, term in terms:
                    if term is not None and term not in complexes:
                        return rqs, f'unknown attribute "{term}" in dynamical limit'
            else:
                try:
                    entry.parse(value)
                except ValueParseError as exc:
                    return rqs, str(exc)
            limits.append((entry.name, value))
        rules.append(RqsRule(rule.name, rule.filters, tuple(limits)))
    return RqsSet(rqs.name, rqs.description, rqs.enabled, tuple(rules)), None


def show_rqs(current: dict[str, RqsConf], name: str | None, template: bool) -> dict[str, Any]:
    """``conf_show`` of kind ``rqs``: the names (``name`` None, -srqsl), every set's text
    (``""``, -srqs alone), the named sets found (``a,b``) or, ``template``, the defaults
    of new sets so named (-arqs); raises :class:`ConfNotFound` when no set is found."""
    if name is None and not template:
        return {"names": list(current)}
    names = [n for n in re.split(r"[, ]+", name or "") if n]
    if template:
        return {"text": "".join(default_set(n).render() for n in names or ["template"])}
    found = [current[n] for n in names if n in current] if names else list(current.values())
    if not found:
        raise ConfNotFound("No resource quota set found")
    return {"text": "".join(obj.render() for obj in found)}


def _duplicate(sets: list[RqsSet]) -> str | None:
    seen: set[str] = set()
    for s in sets:
        if s.name in seen:
            return f'rule set "{s.name}" is requested more than once'
        seen.add(s.name)
    return None


def plan_rqs(
    current: dict[str, RqsConf], complexes: ComplexTable, args: dict[str, Any], who: str
) -> tuple[list[tuple[bool, str]], dict[str, RqsConf] | None]:
    """A -Arqs/-Mrqs/-mrqs request: the answers ``(ok, text)`` and the sets after it (None
    when refused: nothing changes). ``args``: ``text``, ``source``, ``add``, ``select``
    (the names -Mrqs FILE NAME gives, comma separated; empty: replace all)."""
    source = args.get("source") or "-"
    sets = parse_sets(args["text"], source)
    add, select = bool(args.get("add")), str(args.get("select") or "")
    if not sets:
        return [(False, "No resource quota set found")], None
    replace = not add and not select
    if select:
        by_name = {s.name: s for s in sets}
        picked: list[RqsSet] = []
        for name in (n for n in re.split(r"[, ]+", select) if n):
            if name not in by_name:
                return [(False, f'resource quota set "{name}" not found in file "{source}"')], None
            picked.append(by_name[name])
        sets = picked
    if (dup := _duplicate(sets)) is not None:
        return [(False, dup)], None
    answers: list[tuple[bool, str]] = []
    result = {} if replace else dict(current)
    if replace:
        answers.extend((True, f'{who} removed "{n}" from {WHAT} list') for n in current)
    for rqs in sets:
        exists = rqs.name in current
        if add and exists:
            return [(False, f'{WHAT} "{rqs.name}" already exists')], None
        if not add and not replace and not exists:
            return [(False, f'denied: {WHAT} "{rqs.name}" does not exist')], None
        if (add or replace or not exists) and (refused := key_problem(rqs.name)):
            return [(False, refused)], None
        checked, problem = verify(rqs, complexes)
        if problem is not None:
            return [(False, problem)], None
        modified = exists and not replace
        verb = f'modified "{rqs.name}" in' if modified else f'added "{rqs.name}" to'
        answers.append((True, f"{who} {verb} {WHAT} list"))
        result[rqs.name] = RqsConf.of(checked)
    return answers, result
