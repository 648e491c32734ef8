"""``qacct -l attr=val,...``: keep the jobs whose queue instance offers the requested values.

As in Grid Engine, the test is made against the cell as it is configured
now, fetched from the qmaster: a record's queue instance (``qname@hostname``)
must still exist (else the record is counted among the ignored ones), and
each requested attribute must be offered, and satisfy the request under the
attribute's relational operator, at every level that defines it: the global
host, the execution host (``complex_values``, then its ``load_values``) and
the queue (its own attribute of that name, e.g. ``h_rt``, then its
``complex_values``; per-host overrides apply). ``qname`` and ``hostname``
are the record's own. A consumable is compared with its configured
capacity, not with what is free at the moment of the query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients.acct import record as r
from clients.acct.options import Usage
from clients.common.errors import ClientError
from qmaster.complexes.compare import satisfies
from qmaster.complexes.table import ComplexEntry, ComplexTable
from qmaster.complexes.types import Requestable
from qmaster.complexes.values import ValueParseError
from qmaster.conf.errors import ConfigError
from qmaster.conf.flatfile import read_pairs
from qmaster.conf.hostvalues import HostValues

Value = float | str
Request = tuple[ComplexEntry, Value]
Offers = dict[str, str]


def _call(op: str, args: dict[str, Any]) -> dict[str, Any] | None:
    from qmaster.gdi.client import GdiError, call

    try:
        reply = call(op, args)
    except GdiError as exc:
        raise ClientError(f"error: {exc}") from None
    if any(a.is_error for a in reply.answers):
        return None
    return dict(reply.data or {})


def _pairs(text: str) -> dict[str, str]:
    try:
        return {p.key: p.value for p in read_pairs(text, "qmaster")}
    except ConfigError:
        return {}


def _value_list(text: str) -> Offers:
    """``name=value,name=value`` (``NONE``: nothing)."""
    offers: Offers = {}
    for item in text.replace(" ", ",").split(","):
        name, eq, value = item.partition("=")
        if eq and name:
            offers[name] = value
    return offers


class CellView:
    """The configuration ``-l`` needs, fetched from the qmaster once per object."""

    def __init__(self) -> None:
        data = _call("conf_show", {"kind": "complex", "name": None}) or {}
        try:
            self.complexes = ComplexTable.parse(str(data.get("text", "")), "qmaster")
        except (ConfigError, ValueError) as exc:
            raise ClientError(f"error: {exc}") from None
        self._objects: dict[tuple[str, str], dict[str, str] | None] = {}
        self._members: dict[str, set[str]] = {}
        self._groups: list[str] | None = None

    def object(self, kind: str, name: str) -> dict[str, str] | None:
        """A configuration object's attributes, ``None`` when it does not exist."""
        key = (kind, name)
        if key not in self._objects:
            data = _call("conf_show", {"kind": kind, "name": name})
            self._objects[key] = None if data is None else _pairs(str(data.get("text", "")))
        return self._objects[key]

    def members(self, group: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """The hosts of a host group, nested groups included."""
        if group not in self._members:
            hosts: set[str] = set()
            for item in (self.object("hostgroup", group) or {}).get("hostlist", "").split():
                if item.startswith("@") and item not in seen:
                    hosts |= self.members(item, seen | {group})
                elif item != "NONE":
                    hosts.add(item)
            self._members[group] = hosts
        return self._members[group]

    def groups_of(self, host: str) -> list[str]:
        """The host groups ``host`` belongs to."""
        if self._groups is None:
            data = _call("conf_show", {"kind": "hostgroup", "name": None}) or {}
            self._groups = [str(n) for n in data.get("names", [])]
        return [g for g in self._groups if host in self.members(g)]

    def has_instance(self, queue: dict[str, str], host: str) -> bool:
        """Whether the cluster queue has an instance on ``host``."""
        for item in queue.get("hostlist", "").split():
            if item == host or (item.startswith("@") and host in self.members(item)):
                return True
        return False


def parse_requests(text: str, table: ComplexTable) -> list[Request]:
    """The ``-l`` list: ``attr=value`` items (``attr`` alone asks for ``true``)."""
    requests: list[Request] = []
    for item in text.split(","):
        name, eq, value = item.partition("=")
        if not name.strip() or (eq and not value.strip()):
            raise Usage()
        entry = table.get(name.strip())
        if entry is None:
            raise ClientError(f'error: unknown resource "{name.strip()}"')
        if entry.requestable is Requestable.NO:
            raise ClientError(f'error: denied: "{entry.name}" configured as non requestable')
        try:
            requests.append((entry, entry.parse(value.strip() if eq else "true")))
        except ValueParseError as exc:
            raise ClientError(f"error: {exc}") from None
    return requests


def _offered(entry: ComplexEntry, offers: Offers) -> Value | None:
    for key in (entry.name, entry.shortcut):
        if key in offers:
            try:
                return entry.parse(offers[key])
            except ValueParseError:
                return None
    return None


class Selector:
    """Decides per record: ``True`` keep, ``False`` drop, ``None`` queue instance gone."""

    def __init__(self, cell: CellView, requests: list[Request]) -> None:
        self.cell = cell
        self.requests = requests
        self._cache: dict[bytes, bool | None] = {}

    def __call__(self, f: list[bytes]) -> bool | None:
        key = f[r.QNAME] + b"@" + f[r.HOSTNAME]
        if key not in self._cache:
            queue = f[r.QNAME].decode("utf-8", "replace")
            host = f[r.HOSTNAME].decode("utf-8", "replace")
            self._cache[key] = self._decide(queue, host)
        return self._cache[key]

    def _levels(self, queue: dict[str, str], qname: str, host: str) -> list[Offers]:
        groups = self.cell.groups_of(host)

        def for_host(text: str) -> str:
            try:
                return HostValues.parse(text).for_host(host, lambda _h: groups)
            except ValueError:
                return text

        glob = self.cell.object("exechost", "global") or {}
        exechost = self.cell.object("exechost", host) or {}
        own = {k: for_host(v) for k, v in queue.items() if k not in ("complex_values",)}
        own |= _value_list(for_host(queue.get("complex_values", "NONE")))
        own |= {"qname": qname, "hostname": host}
        return [
            _value_list(glob.get("complex_values", "NONE"))
            | _value_list(glob.get("load_values", "NONE")),
            _value_list(exechost.get("load_values", "NONE"))
            | _value_list(exechost.get("complex_values", "NONE")),
            own,
        ]

    def _decide(self, qname: str, host: str) -> bool | None:
        queue = self.cell.object("cqueue", qname)
        if queue is None or not self.cell.has_instance(queue, host):
            return None
        levels = self._levels(queue, qname, host)
        for entry, wanted in self.requests:
            offered = [v for v in (_offered(entry, lv) for lv in levels) if v is not None]
            if not offered:
                return False
            if not all(satisfies(entry.type, entry.relop, wanted, v) for v in offered):
                return False
        return True


def resource_selector(text: str) -> Callable[[list[bytes]], bool | None]:
    """The record selector for ``-l text`` (asks the qmaster for the cell's configuration)."""
    cell = CellView()
    return Selector(cell, parse_requests(text, cell.complexes))
