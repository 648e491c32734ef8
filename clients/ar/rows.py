"""Reading ArRow dicts (``qmaster/gdi/ops.py``) the way every renderer needs them."""

from __future__ import annotations

from typing import Any

ArRow = dict[str, Any]


def text_of(row: ArRow, key: str) -> str:
    """A string field; absent or null reads as empty."""
    value = row.get(key)
    return "" if value is None else str(value)


def list_of(row: ArRow, key: str) -> list[Any]:
    """A list field; absent or null reads as empty."""
    return list(row.get(key) or [])


def mail_parts(entry: str) -> tuple[str, str]:
    """``user@host`` split at the last ``@``; a missing host is ``NONE`` as Grid Engine shows."""
    user, at, host = entry.rpartition("@")
    return (user, host) if at else (entry, "NONE")


def slots_of(row: ArRow) -> list[tuple[str, int]]:
    """The granted queue instances and their slots."""
    return [(str(q), int(n)) for q, n in list_of(row, "granted_slots")]


def pe_of(row: ArRow) -> tuple[str, str] | None:
    """The granted parallel environment's name and slot range, if any."""
    pe = row.get("granted_pe")
    if not pe:
        return None
    return str(pe.get("name", "")), str(pe.get("slots", ""))


def shown_mail_options(row: ArRow) -> str:
    """Mail options as Grid Engine's text and XML show them: none (or ``n``) shows nothing."""
    letters = text_of(row, "mail_options")
    return "" if letters == "n" else letters
