"""``qrstat -json`` / ``-fmt json``: Open Cluster Scheduler's qrstat JSON shape.

``{"ars": [{id, name, owner, state, start_time, end_time, duration, ...}]}``;
times are RFC 3339 with the local offset, the duration is whole seconds. The
summary carries the required fields; ``-ar`` adds group, submission_time,
account, resource_list, exec_queue_list, granted_parallel_environment,
mail_options, mail_list, acl_list and xacl_list. ``messages`` (an addition the
schema allows) appears with ``-explain`` or ``-ar`` when there are any.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from clients.ar.rows import ArRow, list_of, mail_parts, pe_of, slots_of, text_of
from clients.ar.times import rfc3339


def _summary(row: ArRow) -> dict[str, Any]:
    return {
        "id": int(row["ar_id"]),
        "name": text_of(row, "name"),
        "owner": text_of(row, "owner"),
        "state": text_of(row, "state"),
        "start_time": rfc3339(float(row["start_time"])),
        "end_time": rfc3339(float(row["end_time"])),
        "duration": int(row["duration"]),
    }


def _detail(row: ArRow) -> dict[str, Any]:
    resources = row.get("resource_list") or {}
    pe = pe_of(row)
    found: dict[str, Any] = {
        "group": text_of(row, "group"),
        "submission_time": rfc3339(float(row["submission_time"])),
        "account": text_of(row, "account"),
        "resource_list": [{"name": k, "value": v} for k, v in resources.items()],
        "exec_queue_list": [{"name": q, "slots": n} for q, n in slots_of(row)],
        "granted_parallel_environment": [{"name": pe[0], "range": pe[1]}] if pe else [],
        "mail_list": [
            {"user": u, "host": h} for u, h in map(mail_parts, map(str, list_of(row, "mail_list")))
        ],
        "acl_list": [str(n) for n in list_of(row, "acl_list")],
        "xacl_list": [str(n) for n in list_of(row, "xacl_list")],
    }
    if row.get("mail_options"):
        found["mail_options"] = text_of(row, "mail_options")
    return found


def ar_object(row: ArRow, *, detail: bool, explain: bool) -> dict[str, Any]:
    """One AR as a JSON object."""
    found = _summary(row)
    if detail:
        found.update(_detail(row))
    messages = list_of(row, "messages")
    if messages and (detail or explain):
        found["messages"] = [str(m) for m in messages]
    return found


def render_json(rows: Sequence[ArRow], *, detail: bool = False, explain: bool = False) -> str:
    """The whole document, one line of JSON and a newline."""
    ars = [ar_object(r, detail=detail, explain=explain) for r in rows]
    return json.dumps({"ars": ars}, separators=(",", ":")) + "\n"
