"""``qrstat -xml``: Grid Engine's ``qrstat`` document, with text escaped properly.

Shape as Grid Engine writes it: ``<?xml version='1.0'?>``, a ``<qrstat>``
root, one ``<ar_summary>`` per AR (``<ar_unknown>`` per missing id when
``-ar`` found none) indented 3 spaces, fields 6, list items 9; durations are
``HH:MM:SS``; a resource's value sits in its ``type`` attribute. Two fixes:
text and attributes are escaped, and the element Grid Engine names
``master hard queue_list`` (not well-formed XML) is ``master_hard_queue_list``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from clients.ar.dates import hms
from clients.ar.rows import (
    ArRow,
    list_of,
    mail_parts,
    pe_of,
    shown_mail_options,
    slots_of,
    text_of,
)
from clients.ar.times import xml_time

SCHEMA = (
    "https://github.com/gridengine/gridengine/raw/master/source/dist/util/resources/"
    "schemas/qrstat/qrstat.xsd"
)
_FIELD = " " * 6
_ITEM = " " * 9


def _field(name: str, value: object) -> str:
    text = str(value)
    if not text:
        return f"{_FIELD}<{name}/>\n"
    return f"{_FIELD}<{name}>{escape(text)}</{name}>\n"


def _block(name: str, items: Iterable[str]) -> str:
    return f"{_FIELD}<{name}>\n{''.join(items)}{_FIELD}</{name}>\n"


def _core(row: ArRow, messages: bool) -> list[str]:
    parts = [
        _field("id", int(row["ar_id"])),
        _field("name", text_of(row, "name")),
        _field("owner", text_of(row, "owner")),
        _field("state", text_of(row, "state")),
        _field("start_time", xml_time(float(row["start_time"]))),
        _field("end_time", xml_time(float(row["end_time"]))),
        _field("duration", hms(float(row["duration"]))),
    ]
    if messages:
        parts += [_field("message", msg) for msg in list_of(row, "messages")]
    return parts


def _lists(row: ArRow) -> Iterable[str]:
    resources = row.get("resource_list") or {}
    if resources:
        yield _block(
            "resource_list",
            (
                f"{_ITEM}<resource name={quoteattr(str(k))} type={quoteattr(str(v))}/>\n"
                for k, v in resources.items()
            ),
        )
    if row.get("error_handling"):
        yield _field("error_handling", "true")
    if slots := slots_of(row):
        yield _block(
            "granted_slots_list",
            (
                f'{_ITEM}<granted_slots  queue_instance={quoteattr(q)} slots="{n}"/>\n'
                for q, n in slots
            ),
        )
    if pe := pe_of(row):
        yield _block(
            "granted_parallel_environment",
            [
                f"{_ITEM}<parallel_environment>{escape(pe[0])}</parallel_environment>\n",
                f"{_ITEM}<slots>{escape(pe[1])}</slots>\n",
            ],
        )
    yield from _tail(row)


def _tail(row: ArRow) -> Iterable[str]:
    if masterq := list_of(row, "masterq"):
        yield _field("master_hard_queue_list", ",".join(map(str, masterq)))
    if row.get("ckpt"):
        yield _field("checkpoint_name", text_of(row, "ckpt"))
    if letters := shown_mail_options(row):
        yield _field("mail_options", letters)
    if mails := list_of(row, "mail_list"):
        yield _block(
            "mail_list",
            (
                f"{_ITEM}<mail  user={quoteattr(u)} host={quoteattr(h)}/>\n"
                for u, h in map(mail_parts, map(str, mails))
            ),
        )
    for key in ("acl_list", "xacl_list"):
        if names := list_of(row, key):
            yield _block(key, (f"{_ITEM}<acl  user={quoteattr(str(n))}/>\n" for n in names))


def ar_element(row: ArRow, *, detail: bool, explain: bool) -> str:
    """One ``<ar_summary>``; ``detail`` adds everything ``-ar`` shows."""
    parts = ["   <ar_summary>\n", *_core(row, messages=detail or explain)]
    if detail:
        parts.append(_field("submission_time", xml_time(float(row["submission_time"]))))
        parts.append(_field("group", text_of(row, "group")))
        parts.append(_field("account", text_of(row, "account")))
        parts.extend(_lists(row))
    parts.append("   </ar_summary>\n")
    return "".join(parts)


def unknown_element(ar_id: str) -> str:
    """One ``<ar_unknown>`` for an ``-ar`` id that does not exist."""
    return f"   <ar_unknown>\n{_field('id', ar_id)}   </ar_unknown>\n"


def render_xml(
    rows: Sequence[ArRow],
    *,
    detail: bool = False,
    explain: bool = False,
    missing: Sequence[str] = (),
) -> str:
    """The whole document; ``missing`` ids are listed only when no AR was found."""
    if rows:
        body = "".join(ar_element(r, detail=detail, explain=explain) for r in rows)
    else:
        body = "".join(unknown_element(i) for i in missing)
    return f"<?xml version='1.0'?>\n<qrstat xmlns:xsd={quoteattr(SCHEMA)}>\n{body}</qrstat>\n"
