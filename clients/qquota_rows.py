"""qquota's lines: which rules and limits it shows, and how (sge_qquota.c).

For each enabled set and each of its rules that matches the selection (by default the
calling user, any queue and host, no project and no PE: a rule asking for a project or
PE shows only with ``-P``/``-pe``), each limit (``-l`` names some): a consumable limit
once per usage entry the selection admits, ``attr=used/limit``, with the expanded
filters spelt with the entry's values; any other limit once, ``attr=value``. A line
already shown for the same rule, limit and filter values is not repeated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from clients.acct.render import memory
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Consumable, ValueType
from qmaster.rqs.match import Groups, Who, rule_matches
from qmaster.rqs.model import FILTERS, RqsRule, RqsSet

HEAD = "%-18s %-20.20s %s"


@dataclass(frozen=True, slots=True)
class Selection:
    """qquota's -u, -P, -pe, -q, -h and -l (None: not given)."""

    users: Sequence[str]
    projects: Sequence[str | None] = (None,)
    pes: Sequence[str | None] = (None,)
    queues: Sequence[str] = ("*",)
    hosts: Sequence[str] = ("*",)
    resources: Sequence[str] | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """One line (or XML rule) of qquota: the rule, its filters, the limit and its use."""

    rule: str
    filters: tuple[tuple[str, str, bool], ...]
    """(filter, value, excluded) as the XML lists them."""
    text_filter: str
    resource: str
    limit: str
    used: str | None

    @property
    def text(self) -> str:
        shown = (
            f"{self.resource}={self.limit}"
            if self.used is None
            else (f"{self.resource}={self.used}/{self.limit}")
        )
        return HEAD % (self.rule, shown, self.text_filter or "-")


def dominant(entry: ComplexEntry, value: float) -> str:
    """sge_get_dominant_stringval(): a number as its attribute's type prints it."""
    if entry.type is ValueType.MEMORY:
        return memory(value)
    if entry.type is ValueType.TIME:  # double_print_time_to_dstring()
        secs = int(value)
        return f"{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    if entry.type in (ValueType.INT, ValueType.BOOL):
        return str(int(value))
    return f"{value:f}"


def _filters(
    rule: RqsRule, values: Sequence[str | None]
) -> tuple[tuple[tuple[str, str, bool], ...], str]:
    """qquota_print_out_filter() for the five filters: XML items and the text."""
    items: list[tuple[str, str, bool]] = []
    words: list[str] = []
    for kind, flt, value in zip(FILTERS, rule.filters, values, strict=True):
        if flt is None:
            continue
        if not flt.expand or value is None:
            items.extend((kind, n, False) for n in flt.scope)
            items.extend((kind, n, True) for n in flt.xscope)
            words.append(f"{kind} {flt.render()}")
        else:
            items.append((kind, value, False))
            words.append(f"{kind} {value}")
    return tuple(items), " ".join(words)


def _admits(wanted: str | None, part: str) -> bool:
    return wanted is None or part == "-" or wanted == "*" or fnmatchcase(part, wanted)


def _entry_admitted(parts: list[str], who: Who, groups: Groups) -> bool:
    """The selection admits a usage entry (user, project, pe, queue, host parts)."""
    user, project, pe, queue, host = parts
    if who.user.startswith("@"):
        members = groups.usersets().get(who.user[1:])
        if members is not None and user not in members:
            return False
    elif not _admits(who.user, user):
        return False
    if not (_admits(who.project, project) and _admits(who.pe, pe) and _admits(who.queue, queue)):
        return False
    if who.host.startswith("@"):
        return host in groups.hostgroups(who.host) or who.host not in groups.hostgroup_names()
    return _admits(who.host, host)


def quota_lines(
    sets: Iterable[RqsSet],
    usage: Sequence[Sequence[Any]],
    table: ComplexTable,
    groups: Groups,
    sel: Selection,
) -> list[Line]:
    """Every line qquota prints for the selection, in its order."""
    lines: list[Line] = []
    seen: set[tuple[str, ...]] = set()
    for rqs in (s for s in sets if s.enabled):
        for index, rule in enumerate(rqs.rules):
            rule_name = rqs.rule_name(index)
            for who in _selections(sel):
                if not rule_matches(rule, who, groups):
                    continue
                for attr, value in rule.limits:
                    entry = table.get(attr)
                    if entry is None or (
                        sel.resources is not None
                        and attr not in sel.resources
                        and entry.shortcut not in sel.resources
                    ):
                        continue
                    if attr != "slots" and entry.consumable is Consumable.NO:
                        _add(lines, seen, rule, rule_name, attr, value, None, [None] * 5)
                        continue
                    for name, at, used_attr, rue, used, limit in usage:
                        if (name, at, used_attr) != (rqs.name, index, attr):
                            continue
                        parts = [p or "-" for p in str(rue).split("/")[:5]]
                        if not _entry_admitted(parts, who, groups):
                            continue
                        shown = (
                            str(limit) if "$" in value else dominant(entry, _number(entry, value))
                        )
                        _add(
                            lines,
                            seen,
                            rule,
                            rule_name,
                            attr,
                            shown,
                            dominant(entry, float(used)),
                            parts,
                        )
    return lines


def _number(entry: ComplexEntry, text: str) -> float:
    parsed = entry.parse(text)
    return parsed if isinstance(parsed, float) else 0.0


def _selections(sel: Selection) -> Iterable[Who]:
    for user in sel.users:
        for project in sel.projects:
            for pe in sel.pes:
                for queue in sel.queues:
                    for host in sel.hosts:
                        yield Who(user, "", project, pe, queue, host)


def _add(
    lines: list[Line],
    seen: set[tuple[str, ...]],
    rule: RqsRule,
    rule_name: str,
    attr: str,
    limit: str,
    used: str | None,
    parts: Sequence[str | None],
) -> None:
    token = (rule_name, attr, *(p or "" for p in parts))
    if token in seen:
        return
    seen.add(token)
    items, text = _filters(rule, parts)
    lines.append(Line(rule_name, items, text, attr, limit, used))


def render_text(lines: Sequence[Line]) -> str:
    """The table: its header once, when there is a line."""
    if not lines:
        return ""
    head = [HEAD % ("resource quota rule", "limit", "filter"), "-" * 80]
    return "\n".join([*head, *(line.text for line in lines)]) + "\n"


def _esc(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&apos;")
        .replace('"', "&quot;")
    )


def render_xml(lines: Sequence[Line]) -> str:
    """qquota -xml (xml_report_*())."""
    out = [
        "<?xml version='1.0'?>",
        '<qquota_result xmlns="http://gridengine.sunsource.net/61/qquota">',
    ]
    for line in lines:
        out.append(f" <qquota_rule name='{_esc(line.rule)}'>")
        for kind, value, excluded in line.filters:
            tag = f"x{kind}" if excluded else kind
            out.append(f"   <{tag}>{_esc(value)}</{tag}>")
        used = "" if line.used is None else f" value='{_esc(line.used)}'"
        out.append(f"   <limit resource='{_esc(line.resource)}' limit='{_esc(line.limit)}'{used}/>")
        out.append(" </qquota_rule>")
    out.append("</qquota_result>")
    return "\n".join(out) + "\n"


def usersets_of(data: Mapping[str, Any]) -> Groups:
    """The userset and host group members a qquota reply holds, to match ``@`` names."""
    sets = {n: frozenset(m) for n, m in (data.get("usersets") or {}).items()}
    hosts = {n: frozenset(m) for n, m in (data.get("hostgroups") or {}).items()}
    return Groups(lambda: sets, lambda n: hosts.get(n, frozenset()), hosts.keys)
