"""qrstat's plain-text layouts, from Grid Engine's printf formats.

Summary: a header (``%-7.7s %-10.10s %-12.12s %-5.5s %-20.20s %-20.20s %8s``)
and 90 dashes, printed only together with a first row; each row is
``%7u %-10.10s %-12.12s %-5.5s %-20.20s %-20.20s HH:MM:SS``, with ``-explain``
adding each message as ``\\n       <msg>``. Detail (``-ar``): 80 dashes per AR,
then ``%-30.30s %s`` lines in Grid Engine's order, optional ones only when set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
from clients.ar.times import ge_time

SUMMARY_RULE = "-" * 90
DETAIL_RULE = "-" * 80
NOT_FOUND = "Following advance reservations do not exist:"


def summary_header() -> str:
    """The header line and the dash line of the summary."""
    head = (
        f"{'ar-id':<7.7} {'name':<10.10} {'owner':<12.12} {'state':<5.5} "
        f"{'start at':<20.20} {'end at':<20.20} {'duration':>8}"
    )
    return f"{head}\n{SUMMARY_RULE}\n"


def summary_row(row: ArRow, *, explain: bool = False) -> str:
    """One AR's summary line (with its messages under ``-explain``)."""
    line = (
        f"{int(row['ar_id']):7d} {text_of(row, 'name'):<10.10} {text_of(row, 'owner'):<12.12} "
        f"{text_of(row, 'state'):<5.5} {ge_time(float(row['start_time'])):<20.20} "
        f"{ge_time(float(row['end_time'])):<20.20} {hms(float(row['duration']))}"
    )
    if explain:
        line += "".join(f"\n       {msg}" for msg in list_of(row, "messages"))
    return line + "\n"


def render_summary(rows: Sequence[ArRow], *, explain: bool = False) -> str:
    """The summary listing; empty when there are no ARs."""
    if not rows:
        return ""
    return summary_header() + "".join(summary_row(r, explain=explain) for r in rows)


def _line(name: str, value: object) -> str:
    return f"{name:<30.30} {value}\n"


def _optional_lines(row: ArRow) -> Iterable[str]:
    resources = row.get("resource_list") or {}
    if resources:
        yield _line("resource_list", ", ".join(f"{k}={v}" for k, v in resources.items()))
    if row.get("error_handling"):
        yield _line("error_handling", "true")
    if slots := slots_of(row):
        yield _line("granted_slots_list", ",".join(f"{q}={n}" for q, n in slots))
    if pe := pe_of(row):
        yield _line("granted_parallel_environment", f"{pe[0]} slots {pe[1]}")
    if masterq := list_of(row, "masterq"):
        yield _line("master hard queue_list", ",".join(map(str, masterq)))
    if row.get("ckpt"):
        yield _line("checkpoint_name", text_of(row, "ckpt"))
    if letters := shown_mail_options(row):
        yield _line("mail_options", letters)
    if mails := list_of(row, "mail_list"):
        yield _line("mail_list", ",".join("@".join(mail_parts(str(m))) for m in mails))
    for key in ("acl_list", "xacl_list"):
        if names := list_of(row, key):
            yield _line(key, ",".join(map(str, names)))


def detail(row: ArRow) -> str:
    """One AR in the ``-ar`` layout."""
    parts = [
        DETAIL_RULE + "\n",
        _line("id", int(row["ar_id"])),
        _line("name", text_of(row, "name")),
        _line("owner", text_of(row, "owner")),
        _line("state", text_of(row, "state")),
        _line("start_time", ge_time(float(row["start_time"]))),
        _line("end_time", ge_time(float(row["end_time"]))),
        _line("duration", hms(float(row["duration"]))),
    ]
    parts += [_line("message", msg) for msg in list_of(row, "messages")]
    parts.append(_line("submission_time", ge_time(float(row["submission_time"]))))
    parts.append(_line("group", text_of(row, "group")))
    parts.append(_line("account", text_of(row, "account")))
    parts.extend(_optional_lines(row))
    return "".join(parts)


def render_details(rows: Sequence[ArRow]) -> str:
    """The ``-ar`` listing of every AR found."""
    return "".join(detail(r) for r in rows)


def render_not_found(ids: Sequence[str]) -> str:
    """What ``-ar`` prints when none of the listed ARs exists."""
    return f"{NOT_FOUND}\n{', '.join(ids)}\n"
