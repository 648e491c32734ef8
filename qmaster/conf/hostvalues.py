"""Attribute values with per-host overrides: ``1,[host1=4],[@grp=2]`` (queue_conf(5))."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from qmaster.conf.errors import Refused


@dataclass(frozen=True, slots=True)
class HostValues:
    """A default value and overrides keyed by host name or ``@hostgroup``."""

    default: str
    overrides: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> HostValues:
        """Split ``default,[key=value],...``; ``ValueError`` names what is malformed."""
        head, _, rest = text.partition("[")
        default = head.strip().rstrip(",").strip()
        overrides: dict[str, str] = {}
        rest = "[" + rest if rest else ""
        while rest:
            rest = rest.lstrip(", ")
            if not rest:
                break
            end = rest.find("]")
            if not rest.startswith("[") or end < 0:
                raise ValueError(f'malformed host override in "{text}"')
            key, eq, value = rest[1:end].partition("=")
            if eq and not key.strip():  # the qmaster resolves the host first (issue 1715)
                raise Refused(f'invalid hostname "{key.strip()}"')
            if not eq or not key.strip() or not value.strip():
                raise ValueError(f'malformed host override "{rest[: end + 1]}"')
            if key.strip() in overrides:
                raise ValueError(f'host "{key.strip()}" is overridden twice')
            overrides[key.strip()] = value.strip()
            rest = rest[end + 1 :]
        if not default:
            raise ValueError(f'missing default value in "{text}"')
        return cls(default, overrides)

    def render(self) -> str:
        """The text form, overrides in the order given."""
        parts = [self.default, *(f"[{k}={v}]" for k, v in self.overrides.items())]
        return ",".join(parts)

    def for_host(self, host: str, groups_of: Callable[[str], list[str]]) -> str:
        """The value for ``host``: its own override, then a hostgroup's, then the default."""
        if host in self.overrides:
            return self.overrides[host]
        for group in groups_of(host):
            if group in self.overrides:
                return self.overrides[group]
        return self.default
