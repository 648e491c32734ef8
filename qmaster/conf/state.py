"""The configuration objects of one cell as plain data, their cross-checks and queue instances.

:class:`ConfState` is rebuilt, never edited in place: a change makes a new state,
checks it whole, and only then replaces the old one. Queue instances are
expanded once per state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from qmaster.complexes.formula import parse_formula
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.values import ValueParseError
from qmaster.conf import fields as f
from qmaster.conf.access import PeConf, UsersetConf
from qmaster.conf.calendar import CalendarConf
from qmaster.conf.cluster import GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.hostvalues import HostValues
from qmaster.conf.model import ConfObject
from qmaster.conf.projects import CkptConf, ProjectConf
from qmaster.conf.queue import LIMITS, ExecHostConf, HostgroupConf, QueueConf, limit_value
from qmaster.conf.rqsconf import RqsConf
from qmaster.conf.users import UserConf


@dataclass(frozen=True, slots=True)
class QueueInstanceConf:
    """The configuration of one queue instance (``all.q@host1``), per-host values resolved."""

    name: str
    cqueue: str
    host: str
    slots: int
    qtype: tuple[str, ...]
    seq_no: int
    pe_list: tuple[str, ...]
    user_lists: tuple[str, ...]
    xuser_lists: tuple[str, ...]
    complex_values: dict[str, str]
    h_rt: float | None
    s_rt: float | None
    limits: dict[str, float | None]
    attrs: dict[str, str]


@dataclass(frozen=True)
class ConfState:
    """Every configuration object of a cell, with where each came from (for error lines)."""

    complexes: ComplexTable
    cqueues: dict[str, QueueConf]
    exechosts: dict[str, ExecHostConf]
    hostgroups: dict[str, HostgroupConf]
    pes: dict[str, PeConf]
    usersets: dict[str, UsersetConf]
    global_conf: GlobalConf
    sched_conf: SchedConf
    managers: tuple[str, ...]
    projects: dict[str, ProjectConf] = field(default_factory=dict)
    ckpts: dict[str, CkptConf] = field(default_factory=dict)
    users: dict[str, UserConf] = field(default_factory=dict)
    operators: tuple[str, ...] = ()
    adminhosts: tuple[str, ...] = ()
    submithosts: tuple[str, ...] = ()
    calendars: dict[str, CalendarConf] = field(default_factory=dict)
    rqs: dict[str, RqsConf] = field(default_factory=dict)
    """Resource quota sets, in the order they were added."""
    sources: dict[tuple[str, str], str] = field(default_factory=dict, compare=False)

    def evolve(self, **changes: object) -> ConfState:
        """A copy with some fields replaced (caches not carried over)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def source(self, kind: str, name: str) -> str:
        """The file (or row) an object came from."""
        return self.sources.get((kind, name), f"{kind}/{name}")

    def hosts_of_group(self, group: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """The hosts of a host group, nested groups resolved, in sorted order."""
        hosts: set[str] = set()
        conf = self.hostgroups.get(group)
        if conf is None or group in seen:
            return []
        for item in conf.hostlist:
            if item.startswith("@"):
                hosts.update(self.hosts_of_group(item, seen | {group}))
            else:
                hosts.add(item)
        return sorted(hosts)

    @cached_property
    def groups_by_host(self) -> dict[str, list[str]]:
        """For each host, the host groups it belongs to (directly or through nesting)."""
        result: dict[str, list[str]] = {}
        for group in sorted(self.hostgroups):
            for host in self.hosts_of_group(group):
                result.setdefault(host, []).append(group)
        return result

    def groups_of(self, host: str) -> list[str]:
        """Host groups holding ``host``."""
        return self.groups_by_host.get(host, [])

    def queue_hosts(self, queue: QueueConf) -> list[str]:
        """The hosts a cluster queue spans, sorted."""
        hosts: set[str] = set()
        for item in queue.hostlist:
            hosts.update(self.hosts_of_group(item) if item.startswith("@") else [item])
        return sorted(hosts)

    @cached_property
    def queue_instances(self) -> list[QueueInstanceConf]:
        """Every queue instance, by cluster queue then host."""
        found: list[QueueInstanceConf] = []
        for _, queue in sorted(self.cqueues.items()):
            hosts = self.queue_hosts(queue)
            per_host = _host_values(queue) if hosts else {}
            found.extend(self._instance(queue, host, per_host) for host in hosts)
        return found

    def _instance(
        self, queue: QueueConf, host: str, per_host: dict[str, HostValues]
    ) -> QueueInstanceConf:
        attrs = {
            key: (per_host[key].for_host(host, self.groups_of) if key in per_host else value)
            for key, value in queue.attrs.items()
        }
        limits = {name: limit_value(name, attrs[name]) for name in LIMITS}
        return QueueInstanceConf(
            name=f"{queue.name}@{host}",
            cqueue=queue.name,
            host=host,
            slots=int(attrs["slots"], 0),
            qtype=tuple(item.upper() for item in f.split_list(attrs["qtype"])),
            seq_no=int(attrs["seq_no"], 0),
            pe_list=tuple(f.split_list(attrs["pe_list"])),
            user_lists=tuple(f.split_list(attrs["user_lists"])),
            xuser_lists=tuple(f.split_list(attrs["xuser_lists"])),
            complex_values=f.split_pairs(attrs["complex_values"]),
            h_rt=limits["h_rt"],
            s_rt=limits["s_rt"],
            limits=limits,
            attrs=attrs,
        )


def _host_values(queue: QueueConf) -> dict[str, HostValues]:
    """The queue's attributes that may differ per host, each parsed once for all its
    instances (a queue on 10,000 hosts parsed each of them 10,000 times)."""
    overrides = queue.FORMAT.host_overrides
    return {key: queue.host_values(key) for key in queue.attrs if key in overrides}


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.split(maxsplit=1)[:1] == [key]:
            return number
    return 1


class _Checker:
    """Cross-checks between objects; the first problem raises :class:`ConfigError`."""

    def __init__(
        self, state: ConfState, texts: dict[tuple[str, str], str], before: ConfState | None
    ) -> None:
        self.state = state
        self.texts = texts
        self.before = before

    def fail(self, kind: str, obj: ConfObject, key: str, reason: str) -> None:
        text = self.texts.get((kind, obj.name)) or obj.render()
        raise ConfigError(self.state.source(kind, obj.name), _line_of(text, key), reason)

    def values(self, obj: ConfObject, key: str) -> list[str]:
        if key in obj.FORMAT.host_overrides:
            hv = obj.host_values(key)
            return [hv.default, *hv.overrides.values()]
        return [obj.attrs[key]]

    def names(self, kind: str, obj: ConfObject, key: str, known: object, what: str) -> None:
        """Each name of ``key`` exists; ``what`` is a kind (``unknown <what> "name"``)
        or, with ``{}``, the qmaster verifier's own sentence."""
        for text in self.values(obj, key):
            for item in f.split_list(text):
                if item not in known:  # type: ignore[operator]
                    reason = what.format(item) if "{}" in what else f'unknown {what} "{item}"'
                    self.fail(kind, obj, key, reason)

    def complex_values(self, kind: str, obj: ConfObject) -> None:
        for text in self.values(obj, "complex_values"):
            for name, value in f.split_pairs(text).items():
                entry = self.state.complexes.get(name)
                if entry is None:
                    self.fail(kind, obj, "complex_values", f'unknown resource "{name}"')
                    return
                try:
                    entry.parse(value)
                except ValueParseError as exc:
                    self.fail(kind, obj, "complex_values", str(exc))

    def load_names(self, kind: str, obj: ConfObject, key: str, names: list[str]) -> None:
        """Load thresholds, adjustments and formulas name complex attributes."""
        for name in names:
            if name not in self.state.complexes:
                self.fail(kind, obj, key, f'unknown resource "{name}"')

    def load_settings(self) -> None:
        s = self.state
        for q in s.cqueues.values():
            old = self.before.cqueues.get(q.name) if self.before is not None else None
            if old is not None and old.attrs["load_thresholds"] == q.attrs["load_thresholds"]:
                continue  # centry_is_referenced() lets -Mc remove a complex thresholds name
            for text in self.values(q, "load_thresholds"):
                self.load_names("cqueue", q, "load_thresholds", list(f.split_pairs(text)))
        sched = s.sched_conf
        adjustments = list(f.split_pairs(sched.attrs["job_load_adjustments"]))
        self.load_names("sched", sched, "job_load_adjustments", adjustments)
        terms = parse_formula(sched.attrs["load_formula"])
        self.load_names("sched", sched, "load_formula", [n for _, n in terms if n is not None])
        if sched.max_reservation and sched.default_duration == 0:  # sconf_validate_config_()
            reason = "denied: resource reservation requires valid default duration"
            self.fail("sched", sched, "default_duration", reason)

    def hostlist(self, kind: str, obj: QueueConf | HostgroupConf) -> None:
        for item in obj.hostlist:
            known = self.state.hostgroups if item.startswith("@") else self.state.exechosts
            if item not in known:
                what = "host group" if item.startswith("@") else "host"
                self.fail(kind, obj, "hostlist", f'unknown {what} "{item}" in hostlist')

    def run(self) -> None:
        s = self.state
        for q in s.cqueues.values():
            self.hostlist("cqueue", q)
            # cqueue_verify_pe_list(), _ckpt_list(), _calendar()
            self.names("cqueue", q, "pe_list", s.pes, 'Parallel environment "{}" does not exist')
            self.names("cqueue", q, "ckpt_list", s.ckpts, 'Ckpt "{}" does not exist')
            self.names("cqueue", q, "calendar", s.calendars, 'Calendar "{}" does not exist')
            self.names("cqueue", q, "projects", s.projects, "project")
            self.names("cqueue", q, "xprojects", s.projects, "project")
            self.names("cqueue", q, "user_lists", s.usersets, "userset")
            self.names("cqueue", q, "xuser_lists", s.usersets, "userset")
            self.complex_values("cqueue", q)
        for g in s.hostgroups.values():
            self.hostlist("hostgroup", g)
        for h in s.exechosts.values():
            self.names("exechost", h, "user_lists", s.usersets, "userset")
            self.names("exechost", h, "xuser_lists", s.usersets, "userset")
            self.names("exechost", h, "projects", s.projects, "project")
            self.names("exechost", h, "xprojects", s.projects, "project")
            self.complex_values("exechost", h)
        for p in s.pes.values():
            self.names("pe", p, "user_lists", s.usersets, "userset")
            self.names("pe", p, "xuser_lists", s.usersets, "userset")
        self.names("global", s.global_conf, "user_lists", s.usersets, "userset")
        self.names("global", s.global_conf, "xuser_lists", s.usersets, "userset")
        self.names("global", s.global_conf, "projects", s.projects, "project")
        self.names("global", s.global_conf, "xprojects", s.projects, "project")
        for prj in s.projects.values():
            self.names("project", prj, "acl", s.usersets, "userset")
            self.names("project", prj, "xacl", s.usersets, "userset")
        for user in s.users.values():
            self.names("user", user, "default_project", s.projects, "project")
        self.load_settings()


def check_state(
    state: ConfState,
    texts: dict[tuple[str, str], str] | None = None,
    before: ConfState | None = None,
) -> None:
    """Raise :class:`ConfigError` when objects refer to hosts, groups, PEs, lists or
    complexes that do not exist, or give complex values of the wrong type. A queue's
    ``load_thresholds`` are judged only when they differ from ``before`` (the state a
    request changes, or the qmaster's own spool): a complex they alone name may be
    removed, as in Grid Engine, whose queue is then in load alarm."""
    _Checker(state, texts or {}, before).run()
