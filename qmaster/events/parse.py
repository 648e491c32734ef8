"""Reading ``reporting`` and ``accounting`` lines back into records.

Pure and standard library only. Comment lines (``#``) and lines of at most one
character are skipped, as ``accounting(5)`` says readers must. The ``category``
field of accounting data may itself hold colons (Grid Engine writes it
verbatim); it is found by counting the fixed fields before and after it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from qmaster.events.records import RECORD_TYPES, Acct, JobLog, Record


class ParseError(ValueError):
    """A line is not a record minige can read."""


_ACCT_ORDER = tuple(f.name for f in fields(Acct) if f.name != "time")
_ACCT_BEFORE_CATEGORY = _ACCT_ORDER.index("category")
_ACCT_AFTER_CATEGORY = len(_ACCT_ORDER) - _ACCT_BEFORE_CATEGORY - 1

# Field order on the line when it differs from the dataclass order.
_LINE_ORDER: dict[str, tuple[str, ...]] = {
    JobLog.KIND: (
        "event_time",
        "event",
        "job_number",
        "task_number",
        "pe_taskid",
        "state",
        "user",
        "host",
        "state_time",
        "priority",
        "submission_time",
        "job_name",
        "owner",
        "group",
        "project",
        "department",
        "account",
        "message",
    ),
}


def _line_order(cls: type[Record]) -> tuple[str, ...]:
    return _LINE_ORDER.get(cls.KIND) or tuple(f.name for f in fields(cls) if f.name != "time")


_TYPES: dict[str, dict[str, str]] = {
    kind: {f.name: str(f.type) for f in fields(cls)} for kind, cls in RECORD_TYPES.items()
}


def _convert(kind: str, name: str, text: str) -> Any:
    typ = _TYPES[kind][name]
    try:
        if typ == "int":
            return int(text)
        if typ == "float":
            return float(text)
    except ValueError:
        raise ParseError(f"{kind}: field {name} is not a number: {text!r}") from None
    return text


def _split_acct(text: str) -> list[str]:
    parts = text.split(":")
    fixed = _ACCT_BEFORE_CATEGORY + _ACCT_AFTER_CATEGORY
    if len(parts) < fixed + 1:
        raise ParseError(f"acct: expected {len(_ACCT_ORDER)} fields, got {len(parts)}")
    head = parts[:_ACCT_BEFORE_CATEGORY]
    tail = parts[len(parts) - _ACCT_AFTER_CATEGORY :]
    category = ":".join(parts[_ACCT_BEFORE_CATEGORY : len(parts) - _ACCT_AFTER_CATEGORY])
    return [*head, category, *tail]


def _build(kind: str, time: int, values: list[str]) -> Record:
    cls = RECORD_TYPES[kind]
    order = _line_order(cls)
    if len(values) != len(order):
        raise ParseError(f"{kind}: expected {len(order)} fields, got {len(values)}")
    kwargs = {name: _convert(kind, name, v) for name, v in zip(order, values, strict=True)}
    try:
        return cls(time=time, **kwargs)
    except ValueError as exc:
        raise ParseError(str(exc)) from None


def parse_accounting_line(line: str, *, time: int = 0) -> Acct | None:
    """The :class:`Acct` of an ``accounting`` line; ``None`` for comments and blank lines."""
    text = line.rstrip("\n")
    if len(text) <= 1 or text.startswith("#"):
        return None
    record = _build(Acct.KIND, time, _split_acct(text))
    assert isinstance(record, Acct)
    return record


def parse_reporting_line(line: str) -> Record | None:
    """The record of a ``reporting`` line; ``None`` for comments, blank lines and kinds minige
    does not model (``host``, ``queue``, ``sharelog``...)."""
    text = line.rstrip("\n")
    if len(text) <= 1 or text.startswith("#"):
        return None
    head, sep, rest = text.partition(":")
    kind, sep2, body = rest.partition(":")
    if not sep or not sep2:
        raise ParseError(f"not a reporting record: {text[:60]!r}")
    try:
        time = int(head)
    except ValueError:
        raise ParseError(f"record time is not a number: {head!r}") from None
    if kind not in RECORD_TYPES:
        return None
    if kind == Acct.KIND:
        return _build(kind, time, _split_acct(body))
    maxsplit = len(_line_order(RECORD_TYPES[kind])) - 1
    return _build(kind, time, body.split(":", maxsplit))
