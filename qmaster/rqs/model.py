"""A resource quota set as data, read from and written in Grid Engine's rqs file format.

The format (sge_resource_quota(5), the flatfile writer's ``qconf_rqs_sfi``): each set
between a ``{`` and a ``}`` line, its ``name``, ``description``, ``enabled`` and one
``limit`` line per rule; a rule is an optional ``name``, the filters ``users``,
``projects``, ``pes``, ``queues`` and ``hosts``, and ``to`` with ``attr=value`` limits.
A filter in ``{`` ``}`` counts per element (an "expanded list"); ``!name`` excludes.
Several sets may share one file (``qconf -Arqs``, ``-Mrqs``, ``-srqs``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qmaster.complexes.formula import Term, parse_formula
from qmaster.complexes.values import ValueParseError, parse_bool
from qmaster.conf.errors import ConfigError

FILTERS = ("users", "projects", "pes", "queues", "hosts")
"""The filters of a rule, in the order Grid Engine writes them (RQR_sub_fields)."""
_SCOPE_SPLIT = re.compile(r"[\t \v\r,{}]+")
COLUMN = 12
_WEIGHT_FIRST = re.compile(r"(\d+(?:\.\d*)?)\*\$?([A-Za-z_][A-Za-z0-9_.]*)")


@dataclass(frozen=True, slots=True)
class RqsFilter:
    """One filter of a rule: names that match, names excluded (``!``), expanded or not."""

    expand: bool
    scope: tuple[str, ...]
    xscope: tuple[str, ...]

    def render(self) -> str:
        """As rqs_append_filter_to_dstring() writes it: the names, then the ``!`` ones."""
        body = ",".join((*self.scope, *(f"!{n}" for n in self.xscope)))
        return f"{{{body}}}" if self.expand else body


@dataclass(frozen=True, slots=True)
class RqsRule:
    """One ``limit`` line: its name (None: known by its number), filters and limits."""

    name: str | None
    filters: tuple[RqsFilter | None, ...]
    """One per :data:`FILTERS` entry; None where the line gives none (matches all)."""
    limits: tuple[tuple[str, str], ...]

    def filter(self, kind: str) -> RqsFilter | None:
        """The ``users``/``projects``/``pes``/``queues``/``hosts`` filter, or None."""
        return self.filters[FILTERS.index(kind)]

    def render(self) -> str:
        words = [f"name {self.name}"] if self.name is not None else []
        for kind, flt in zip(FILTERS, self.filters, strict=True):
            if flt is not None:
                words.append(f"{kind} {flt.render()}")
        words.append("to " + ",".join(f"{n}={v}" for n, v in self.limits))
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class RqsSet:
    """A resource quota set: name, description, enabled and its rules in order."""

    name: str
    description: str
    enabled: bool
    rules: tuple[RqsRule, ...]

    def render(self) -> str:
        """The set as ``qconf -srqs`` prints it."""
        lines = [
            "{",
            f"   {'name':<{COLUMN}} {self.name}",
            f"   {'description':<{COLUMN}} {self.description}",
            f"   {'enabled':<{COLUMN}} {'TRUE' if self.enabled else 'FALSE'}",
        ]
        lines.extend(f"   {'limit':<{COLUMN}} {rule.render()}" for rule in self.rules)
        lines.append("}")
        return "\n".join(lines) + "\n"

    def rule_name(self, index: int) -> str:
        """``set/rule`` as the scheduler names the rule (its number from 1 when unnamed)."""
        rule = self.rules[index]
        return f"{self.name}/{rule.name if rule.name is not None else index + 1}"


def dynamic_terms(text: str) -> tuple[Term, ...]:
    """The weighted sum of a dynamic limit (``$num_proc*2``, ``2*$num_proc``); raises
    :class:`~qmaster.complexes.formula.FormulaError`."""
    return parse_formula(_WEIGHT_FIRST.sub(r"\2*\1", text).replace("$", ""))


def default_set(name: str) -> RqsSet:
    """rqs_set_defaults(): what ``qconf -arqs NAME`` opens in the editor."""
    return RqsSet(name, "NONE", False, (RqsRule(None, (None,) * 5, (("slots", "0"),)),))


def parse_filter(text: str, path: str, line: int) -> RqsFilter:
    """rqs_parse_filter_from_string(): ``{a,!b}`` expanded, ``a,!b`` summed."""
    expand = text.startswith("{")
    if expand and not text.endswith("}"):
        raise ConfigError(path, line, "no valid expanded list", verbatim=True)
    names = [n for n in _SCOPE_SPLIT.split(text) if n]
    scope = tuple(n for n in names if not n.startswith("!"))
    xscope = tuple(n[1:] for n in names if n.startswith("!"))
    return RqsFilter(expand, scope, xscope)


def _parse_limits(text: str, path: str, line: int) -> tuple[tuple[str, str], ...]:
    limits: list[tuple[str, str]] = []
    for item in (i for i in text.split(",") if i):
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise ConfigError(path, line, f'invalid limit "{item}"')
        limits.append((name, value))
    if not limits:
        raise ConfigError(path, line, 'missing value for attribute "to"')
    return tuple(limits)


def parse_rule(text: str, path: str = "-", line: int = 1) -> RqsRule:
    """One ``limit`` value: ``[name N] [users ..] [projects ..] .. to a=1,b=2``."""
    words = text.split()
    name: str | None = None
    filters: dict[str, RqsFilter] = {}
    limits: tuple[tuple[str, str], ...] | None = None
    at = 0
    while at < len(words):
        key = words[at]
        if at + 1 >= len(words):
            raise ConfigError(path, line, f'missing value for attribute "{key}"')
        value = words[at + 1]
        if key == "name":
            name = value
        elif key in FILTERS:
            filters[key] = parse_filter(value, path, line)
        elif key == "to":
            limits = _parse_limits(value, path, line)
        else:
            raise ConfigError(path, line, f'unknown attribute name "{key}"')
        at += 2
    if limits is None:
        raise ConfigError(path, line, 'Required attribute "to" is missing')
    return RqsRule(name, tuple(filters.get(k) for k in FILTERS), limits)


def _one_set(lines: list[tuple[int, str]], path: str, start: int) -> RqsSet:
    values: dict[str, str] = {}
    rules: list[RqsRule] = []
    for number, line in lines:
        key, _, rest = line.partition(" ")
        key, rest = key.strip(), rest.strip()
        if not rest:
            raise ConfigError(path, number, f'missing value for attribute "{key}"')
        if key == "limit":
            rules.append(parse_rule(rest, path, number))
        elif key in ("name", "description", "enabled"):
            if key in values:
                raise ConfigError(path, number, f'Attribute "{key}" appears more than once')
            values[key] = rest
        else:
            raise ConfigError(path, number, f'unknown attribute name "{key}"')
    if "name" not in values:
        raise ConfigError(path, start, "resource quota set has no name", verbatim=True)
    if not rules:
        raise ConfigError(path, start, "resource quota set has no rules", verbatim=True)
    try:
        enabled = bool(parse_bool(values.get("enabled", "FALSE")))
    except ValueParseError:
        text = values["enabled"]
        raise ConfigError(path, start, f'"{text}" is not a boolean (TRUE or FALSE)') from None
    return RqsSet(values["name"], values.get("description", "NONE"), enabled, tuple(rules))


def _lines(text: str) -> list[tuple[int, str]]:
    """Logical lines: comments and blanks dropped, a trailing backslash continues."""
    found: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if pending is None and (not line or line.startswith("#")):
            continue
        part = line[:-1].rstrip() if line.endswith("\\") else line
        pending = (number, part) if pending is None else (pending[0], f"{pending[1]} {part}")
        if not line.endswith("\\"):
            found.append((pending[0], " ".join(pending[1].split())))
            pending = None
    if pending is not None:
        found.append(pending)
    return found


def parse_sets(text: str, path: str = "-") -> list[RqsSet]:
    """Every set of an rqs file, in order; the first problem raises :class:`ConfigError`."""
    sets: list[RqsSet] = []
    body: list[tuple[int, str]] | None = None
    start = 1
    for number, line in _lines(text):
        if line == "{":
            if body is not None:
                raise ConfigError(path, number, 'unexpected "{"')
            body, start = [], number
        elif line == "}":
            if body is None:
                raise ConfigError(path, number, 'unexpected "}"')
            sets.append(_one_set(body, path, start))
            body = None
        elif body is None:
            raise ConfigError(path, number, 'a resource quota set starts with "{"')
        else:
            body.append((number, line))
    if body is not None:
        raise ConfigError(path, start, 'missing "}"')
    return sets


def render_sets(sets: list[RqsSet]) -> str:
    """Sets one after the other, as ``qconf -srqs`` without names prints them."""
    return "".join(s.render() for s in sets)
