"""The complex table: parsed from and rendered to the ``qconf -sc`` format.

Columns are ``name shortcut type relop requestable consumable default urgency``.
Rendering follows Grid Engine's flat-file writer: each column is as wide as its
header or its widest value plus three, whichever is more; the last column of a
data row is not padded; a footer line closes the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from qmaster.complexes.pattern import ExpressionError, check_expression
from qmaster.complexes.rules import check_builtins, check_definition
from qmaster.complexes.types import Consumable, Relop, Requestable, ValueType
from qmaster.complexes.values import ValueParseError, parse_double, parse_value
from qmaster.conf.errors import ConfigError, Refused

COLUMNS = ("name", "shortcut", "type", "relop", "requestable", "consumable", "default", "urgency")
FOOTER = "# >#< starts a comment but comments are not saved across edits --------"


@dataclass(frozen=True, slots=True)
class ComplexEntry:
    """One complex attribute; ``default`` and ``urgency`` keep the text they were given."""

    name: str
    shortcut: str
    type: ValueType
    relop: Relop
    requestable: Requestable
    consumable: Consumable
    default: str
    urgency: str

    def fields(self) -> tuple[str, ...]:
        """The eight column texts, in order."""
        return (
            self.name,
            self.shortcut,
            self.type.value,
            self.relop.value,
            self.requestable.value,
            self.consumable.value,
            self.default,
            self.urgency,
        )

    def parse(self, text: str) -> float | str:
        """A value of this attribute's type (raises ``ValueParseError`` naming it)."""
        try:
            return parse_value(self.type, text)
        except ValueParseError as exc:
            raise ValueParseError(self.type, text, self.name) from exc

    def parse_request(self, text: str) -> float | str:
        """A requested value: as :meth:`parse`, and a string type's expression must compile."""
        value = self.parse(text)
        if isinstance(value, str):
            try:
                check_expression(value)
            except ExpressionError as exc:
                raise ExpressionError(f'{exc} for attribute "{self.name}"') from None
        return value


def _word(enum: type[ValueType | Relop | Requestable | Consumable], text: str, what: str) -> str:
    if text not in {member.value for member in enum}:
        raise ValueError(f'unknown {what} "{text}"')
    return text


def entry_from_fields(fields: list[str]) -> ComplexEntry:
    """A :class:`ComplexEntry` from its eight column texts; ``ValueError`` with the reason."""
    if len(fields) < 3:  # no type: the qmaster's centry check sees type 0 (issue 1161)
        raise Refused("unknown complex attribute type 0")
    if len(fields) != len(COLUMNS):
        raise ValueError(f"expected {len(COLUMNS)} fields, got {len(fields)}")
    name, shortcut, vtype, relop, req, cons, default, urgency = fields
    entry = ComplexEntry(
        name=name,
        shortcut=shortcut,
        type=ValueType(_word(ValueType, vtype.upper(), "complex attribute type")),
        relop=Relop(_word(Relop, relop, "relational operator")),
        requestable=Requestable(_word(Requestable, req.upper(), "requestable value")),
        consumable=Consumable(_word(Consumable, cons.upper(), "consumable value")),
        default=default,
        urgency=urgency,
    )
    entry.parse(default)
    check_entry(entry)
    try:
        parse_double(urgency)
    except ValueParseError:
        raise ValueError(f'invalid urgency "{urgency}" for complex "{name}"') from None
    return entry


def check_entry(entry: ComplexEntry) -> None:
    """Raise :class:`RuleError` when the entry breaks a restriction rule (see ``rules``)."""
    check_definition(
        entry.name, entry.type, entry.relop, entry.requestable, entry.consumable, entry.default
    )
    check_builtins([(entry.name, entry.type)], ())


def _rows(text: str) -> list[tuple[int, str]]:
    """The rows of a complex file with the line each starts on: blank and ``#`` lines left
    out, a line ending in a backslash continued on the next (the flat-file scanner skips a
    backslash before a newline, so a row may span lines as in any qconf file)."""
    rows: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if pending is None and (not stripped or stripped.startswith("#")):
            continue
        continued = stripped.endswith("\\")
        part = stripped[:-1] if continued else stripped
        pending = (number, part) if pending is None else (pending[0], f"{pending[1]} {part}")
        if not continued:
            rows.append(pending)
            pending = None
    if pending is not None:
        rows.append(pending)
    return rows


class ComplexTable:
    """The ordered complex attributes of a cell, found by name or shortcut."""

    __slots__ = ("_by_key", "_entries")

    def __init__(self, entries: Iterable[ComplexEntry] = ()) -> None:
        self._entries: dict[str, ComplexEntry] = {}
        self._by_key: dict[str, ComplexEntry] = {}
        for entry in entries:
            self._add(entry)

    def _add(self, entry: ComplexEntry) -> None:
        if entry.name in self._by_key or entry.shortcut in self._by_key:
            raise ValueError(
                f'complex with name "{entry.name}" or shortcut "{entry.shortcut}" already exists'
            )
        self._entries[entry.name] = entry
        self._by_key[entry.name] = entry
        self._by_key[entry.shortcut] = entry

    @classmethod
    def parse(cls, text: str, path: str = "complexes") -> ComplexTable:
        """Read the ``qconf -sc`` format; a bad line raises :class:`ConfigError`."""
        table = cls()
        for number, row in _rows(text):
            try:
                table._add(entry_from_fields(row.split()))
            except Refused as exc:
                raise ConfigError(path, number, str(exc), verbatim=True) from None
            except ValueError as exc:
                raise ConfigError(path, number, str(exc)) from None
        table.validate()
        return table

    def validate(self) -> None:
        """Check every entry against the restriction rules (``RuleError`` names the first)."""
        for entry in self:
            check_entry(entry)

    def check_change(self, new: ComplexTable) -> None:
        """Refuse a new table that deletes or retypes a built-in attribute."""
        removed = [name for name in self.names if name not in new]
        check_builtins(((e.name, e.type) for e in new), removed)

    def get(self, key: str) -> ComplexEntry | None:
        """The entry with this name or shortcut, or None."""
        return self._by_key.get(key)

    def __getitem__(self, key: str) -> ComplexEntry:
        entry = self._by_key.get(key)
        if entry is None:
            raise KeyError(key)
        return entry

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def __iter__(self) -> Iterator[ComplexEntry]:
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComplexTable) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def names(self) -> list[str]:
        """Attribute names in table order."""
        return list(self._entries)

    def render(self) -> str:
        """The table exactly as ``qconf -sc`` prints it (ends with a newline)."""
        rows = [entry.fields() for entry in self]
        widths = [
            max([len(header), *(len(row[i]) + 3 for row in rows)])
            for i, header in enumerate(COLUMNS)
        ]
        header = "#" + COLUMNS[0].ljust(widths[0])
        header += "".join(h.ljust(w + 1) for h, w in zip(COLUMNS[1:], widths[1:], strict=True))
        dashes = "#" + "-" * (widths[0] + sum(w + 1 for w in widths[1:]))
        lines = [header, dashes]
        for row in rows:
            padded = [text.ljust(w) for text, w in zip(row[:-1], widths[:-1], strict=True)]
            lines.append(" ".join([*padded, row[-1]]))
        lines.append(FOOTER)
        return "\n".join(lines) + "\n"
