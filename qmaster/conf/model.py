"""The common shape of a flat-file configuration object: its format and its pydantic model.

A :class:`Format` lists a file's attributes in Grid Engine's order, each with its
default (``None`` for required) and a check. A :class:`ConfObject` holds the
attribute texts; subclasses add typed accessors. Parsing reports the path,
line and reason of the first problem as a :class:`ConfigError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar, Self

from pydantic import BaseModel, ConfigDict

from qmaster.conf.errors import ConfigError, Refused
from qmaster.conf.fields import Check, split_list
from qmaster.conf.flatfile import Pair, read_pairs, render_pairs
from qmaster.conf.hostvalues import HostValues


@dataclass(frozen=True, slots=True)
class Attr:
    """One attribute of a format: name, default text (None = required) and check."""

    name: str
    default: str | None
    check: Check


@dataclass(frozen=True, slots=True)
class Format:
    """A flat-file format: attributes in order, the name attribute, the value column."""

    kind: str
    attrs: tuple[Attr, ...]
    column: int
    header: str = ""
    host_overrides: frozenset[str] = field(default_factory=frozenset)
    spaced: frozenset[str] = field(default_factory=frozenset)
    """Lists of names Grid Engine keeps as lists and prints one blank apart, whatever the
    file used (userset_list_append_to_dstring(), the flatfile writer's sublists)."""

    @property
    def name_key(self) -> str:
        return self.attrs[0].name

    def attr(self, key: str) -> Attr | None:
        """The attribute called ``key``, or None."""
        for attr in self.attrs:
            if attr.name == key:
                return attr
        return None


def _check_value(fmt: Format, attr: Attr, value: str) -> None:
    if attr.name not in fmt.host_overrides:
        attr.check(value)
        return
    values = HostValues.parse(value)
    for text in (values.default, *values.overrides.values()):
        attr.check(text)


QUEUE_TYPES = ("BATCH", "INTERACTIVE")
"""A queue's ``qtype`` is a bit mask in Grid Engine, printed in this order, upper case."""


def _spaced(text: str, key: str) -> str:
    names = split_list(text)
    if key == "qtype":
        given = {name.upper() for name in names}
        names = [kind for kind in QUEUE_TYPES if kind in given]
    return " ".join(names) if names else "NONE"


def stored_value(fmt: Format, key: str, value: str) -> str:
    """The text kept for a checked value: a list of names one blank apart (``a,b`` is
    ``a b``, per host override too; ``qtype`` as Grid Engine prints its mask), any other
    value as given."""
    if key not in fmt.spaced:
        return value
    if key not in fmt.host_overrides:
        return _spaced(value, key)
    values = HostValues.parse(value)
    spaced = {host: _spaced(v, key) for host, v in values.overrides.items()}
    return HostValues(_spaced(values.default, key), spaced).render()


def parse_attrs(
    fmt: Format, pairs: Iterable[Pair], path: str, *, spooled: bool = False
) -> dict[str, str]:
    """Check ``pairs`` against ``fmt`` and fill defaults; raises :class:`ConfigError`.

    ``spooled``: the text is the qmaster's own spool, whose values an earlier version
    accepted. A value only the qmaster's verifiers refuse (:class:`Refused`, run on add and
    modify as Grid Engine runs them, not when it reads its spool) is then kept."""
    found: dict[str, str] = {}
    last = 1
    for pair in pairs:
        last = pair.line
        attr = fmt.attr(pair.key)
        if attr is None:
            raise ConfigError(path, pair.line, f'unknown attribute name "{pair.key}"')
        if pair.key in found:
            raise ConfigError(path, pair.line, f'Attribute "{pair.key}" appears more than once')
        try:
            _check_value(fmt, attr, pair.value)
        except Refused as exc:
            if not spooled:
                text = exc.for_object(found.get(fmt.name_key, ""))
                raise ConfigError(path, pair.line, text, verbatim=True) from None
        except ValueError as exc:
            reason = f'invalid value for attribute "{pair.key}": {exc}'
            raise ConfigError(path, pair.line, reason) from None
        found[pair.key] = stored_value(fmt, pair.key, pair.value)
    values: dict[str, str] = {}
    for attr in fmt.attrs:
        if attr.name in found:
            values[attr.name] = found[attr.name]
        elif attr.default is None:
            raise ConfigError(path, last, f'Required attribute "{attr.name}" is missing')
        else:
            values[attr.name] = attr.default
    return values


class ConfObject(BaseModel):
    """A configuration object read from a flat file; ``attrs`` holds each value's text."""

    model_config = ConfigDict(frozen=True)
    FORMAT: ClassVar[Format]

    attrs: dict[str, str]

    @classmethod
    def parse(cls, text: str, path: str = "-", *, spooled: bool = False) -> Self:
        """Read the object from its file text (``spooled``: see :func:`parse_attrs`)."""
        return cls(attrs=parse_attrs(cls.FORMAT, read_pairs(text, path), path, spooled=spooled))

    @classmethod
    def with_values(cls, path: str = "-", **values: str) -> Self:
        """An object from attribute values (the rest defaulted), checked like a file."""
        pairs = [Pair(k, v, 1) for k, v in values.items()]
        return cls(attrs=parse_attrs(cls.FORMAT, pairs, path))

    @property
    def name(self) -> str:
        """The object's name (its first attribute)."""
        return self.attrs[self.FORMAT.name_key]

    def get(self, key: str) -> str:
        """The text of attribute ``key``."""
        return self.attrs[key]

    def host_values(self, key: str) -> HostValues:
        """Attribute ``key`` with its per-host overrides."""
        return HostValues.parse(self.attrs[key])

    def render(self) -> str:
        """The object in Grid Engine's file format (as ``qconf -s...`` prints it)."""
        body = render_pairs(
            [(a.name, self.attrs[a.name]) for a in self.FORMAT.attrs], self.FORMAT.column
        )
        return self.FORMAT.header + body
