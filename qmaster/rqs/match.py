"""Which rule of a resource quota set counts for a request, and under which name.

As sge_resource_quota.c: a set's first rule whose five filters all match is the one
that counts (rqs_get_matching_rule()). A ``users`` or ``hosts`` entry may be a pattern
or name a userset (``@name``, its users and ``@unixgroup`` entries) or host group;
``projects``, ``pes`` and ``queues`` entries are names or patterns, where a job
without a project (or PE) matches no ``*`` but every ``!*`` (rqs_filter_match()).
Usage is counted per rule and per "rue" name, ``user/project/pe/queue/host/`` with
only the expanded (``{}``) filters filled in (rqs_get_rue_string()).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase

from qmaster.rqs.model import RqsFilter, RqsRule, RqsSet

_PATTERN = frozenset("*?[")


def is_pattern(text: str) -> bool:
    """sge_is_pattern(): the text holds a wildcard."""
    return any(c in _PATTERN for c in text)


@dataclass(frozen=True, slots=True)
class Who:
    """The request a rule is matched against (None: no project, no PE)."""

    user: str
    group: str
    project: str | None
    pe: str | None
    queue: str
    host: str


@dataclass(frozen=True, slots=True)
class Groups:
    """Usersets (name: entries) and host groups (name: resolved hosts) to match ``@`` names."""

    usersets: Callable[[], Mapping[str, Collection[str]]]
    hostgroups: Callable[[str], Collection[str]]
    hostgroup_names: Callable[[], Iterable[str]]


def _in_group(entry: str, value: str, users: bool, group: str, groups: Groups) -> bool:
    """``value`` is a member of the userset or host group(s) ``entry`` (``@name``) names."""
    name = entry[1:] if users else entry
    if users:
        sets = groups.usersets()
        names = [n for n in sets if fnmatchcase(n, name)] if is_pattern(name) else [name]
        return any(
            value in sets.get(n, ()) or f"@{group}" in sets.get(n, ()) for n in names if n in sets
        )
    found = groups.hostgroup_names()
    names = [n for n in found if fnmatchcase(n, name)] if is_pattern(name) else [name]
    for n in names:
        hosts = groups.hostgroups(n)
        if value in hosts or (is_pattern(value) and any(fnmatchcase(h, value) for h in hosts)):
            return True
    return False


def _user_host_scope(
    scope: tuple[str, ...], value: str, users: bool, group: str, groups: Groups
) -> bool:
    """rqs_match_user_host_scope(): ``value`` is named, matched or a group member."""
    if value in scope:
        return True
    for entry in scope:
        if fnmatchcase(value, entry) or (is_pattern(value) and fnmatchcase(entry, value)):
            return True
        grouped = entry.startswith("@") and not value.startswith("@")
        if grouped and _in_group(entry, value, users, group, groups):
            return True
    return False


def _named_scope(scope: tuple[str, ...], value: str | None, excluded: bool) -> bool:
    """The projects/pes/queues test of one list (rqs_filter_match())."""
    if value is not None and value in scope:
        return True
    for entry in scope:
        if value is None or (excluded and value == "*"):
            return False
        if entry == "*" or fnmatchcase(value, entry) or fnmatchcase(entry, value):
            return True
    return False


def filter_match(
    flt: RqsFilter | None, kind: str, value: str | None, group: str, groups: Groups
) -> bool:
    """One filter of a rule admits ``value`` (no filter admits everything)."""
    if flt is None:
        return True
    if kind in ("users", "hosts"):
        assert value is not None
        users = kind == "users"
        if _user_host_scope(flt.xscope, value, users, group, groups):
            return False
        return not flt.scope or _user_host_scope(flt.scope, value, users, group, groups)
    if _named_scope(flt.xscope, value, excluded=True):
        return False
    return not flt.scope or _named_scope(flt.scope, value, excluded=False)


def rule_matches(rule: RqsRule, who: Who, groups: Groups) -> bool:
    """rqs_is_matching_rule(): every filter admits the request."""
    g = who.group
    return (
        filter_match(rule.filters[0], "users", who.user, g, groups)
        and filter_match(rule.filters[1], "projects", who.project, g, groups)
        and filter_match(rule.filters[2], "pes", who.pe, g, groups)
        and filter_match(rule.filters[3], "queues", who.queue, g, groups)
        and filter_match(rule.filters[4], "hosts", who.host, g, groups)
    )


def matching_rule(rqs: RqsSet, who: Who, groups: Groups) -> int | None:
    """The index of the set's first rule that matches, or None."""
    for index, rule in enumerate(rqs.rules):
        if rule_matches(rule, who, groups):
            return index
    return None


def rue_name(rule: RqsRule, who: Who) -> str:
    """rqs_get_rue_string(): ``user/project/pe/queue/host/``, expanded filters filled in."""
    parts = (who.user, who.project, who.pe, who.queue, who.host)
    order = (0, 1, 2, 3, 4)
    out: list[str] = []
    for at in order:
        flt = rule.filters[at]
        value = parts[at]
        out.append(value if flt is not None and flt.expand and value is not None else "")
    return "/".join(out) + "/"
