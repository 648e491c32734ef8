"""``qstat -json``: a stable JSON document of the same data as the text layouts.

Times are RFC 3339 in local time with the offset; ids and counts are numbers;
keys are always present (``null`` when a value is absent).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

FORMAT = "minige.qstat.v1"

Row = dict[str, Any]


def rfc3339(epoch: float | None) -> str | None:
    """An epoch as RFC 3339 local time with its offset, or ``None``."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(float(epoch)).astimezone().isoformat(timespec="seconds")


#: What the options add to a job row, passed on when present (times as RFC 3339).
JOB_EXTRAS = (
    "master", "nurg", "npprior", "ntckts", "ppri", "urg", "rrcontr", "wtcontr", "dlcontr",
    "project", "department", "usage", "tickets", "override_tickets", "otickets",
    "ftickets", "stickets", "share", "requirements",
)  # fmt: skip
QUEUE_EXTRAS = ("resources", "explain")


def job_entry(row: Row) -> dict[str, Any]:
    """One job row as a JSON object, with what the options added."""
    entry = _job_base(row)
    entry.update({k: row[k] for k in JOB_EXTRAS if k in row})
    if "deadline" in row:
        entry["deadline"] = rfc3339(row["deadline"])
    return entry


def _job_base(row: Row) -> dict[str, Any]:
    return {
        "job_id": int(row["job_id"]),
        "priority": float(row["prior"]),
        "name": row["name"],
        "owner": row["owner"],
        "state": row["state"],
        "submit_time": rfc3339(row.get("submit_time")),
        "start_time": rfc3339(row.get("start_time")),
        "queue": row.get("queue"),
        "slots": int(row["slots"]),
        "tasks": row.get("tasks"),
    }


def queue_entry(queue: Row) -> dict[str, Any]:
    """One queue instance as a JSON object."""
    keys = ("name", "qtype", "resv", "used", "total", "load_avg", "arch", "states")
    entry = {key: queue.get(key) for key in keys}
    entry.update({k: queue[k] for k in QUEUE_EXTRAS if k in queue})
    return entry


def render_cluster_json(cqueues: Sequence[Row]) -> str:
    """``qstat -g c -json``: one object per cluster queue."""
    doc = {"format": FORMAT, "cluster_queues": list(cqueues)}
    return json.dumps(doc, indent=2) + "\n"


def render_json(rows: Sequence[Row], queues: Sequence[Row] | None = None) -> str:
    """The job listing (and the queues with ``-f``) as one JSON document."""
    doc: dict[str, Any] = {"format": FORMAT, "jobs": [job_entry(r) for r in rows]}
    if queues is not None:
        doc["queues"] = [queue_entry(q) for q in queues]
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def render_details_json(details: Sequence[Row], missing: Sequence[str]) -> str:
    """``qstat -j ... -json``: the job details as the qmaster sent them."""
    doc = {"format": FORMAT, "jobs": list(details), "missing": list(missing)}
    return json.dumps(doc, indent=2) + "\n"


def render_summary_json(summary: dict[str, Any]) -> str:
    """``qstat -j -json``: the scheduler's global messages and, per message, its jobs."""
    doc = {"format": FORMAT, **summary}
    return json.dumps(doc, indent=2) + "\n"
