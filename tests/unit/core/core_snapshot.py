"""A core's state as plain values, to tell whether a request changed anything."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core
from qmaster.core.spool_image import config_rows


def snapshot(core: Core) -> dict[str, Any]:
    """Everything a request could change, caches and the time left out."""
    return {
        "jobs": {i: (j.to_row(), j.pending and list(j.pending)) for i, j in core.jobs.items()},
        "tasks": {
            (i, t): task.to_row() for i, j in core.jobs.items() for t, task in j.tasks.items()
        },
        "ars": {i: ar.to_row() for i, ar in core.ars.items()},
        "config": core.config.state,
        "config_rows": config_rows(core),
        "counters": (core.next_job_id, core.next_ar_id),
        "user_jobs": dict(+core.user_jobs),
        "qi_states": dict(core.qi_states),
        "qi_calendar": dict(core.qi_calendar),
        "down_hosts": set(core.down_hosts),
        "booked": (dict(core.booked.by_task), {k: dict(v) for k, v in core.booked.used.items()}),
        "timers": sorted((t.at, t.kind, t.job_id, t.task_id) for t in core.timer_list()),
        "schedule_at": core.schedule_at,
        "verify_waiting": set(core.verify_waiting),
        "ar_calendar": sorted(map(str, core.ar_calendar.owners)),
        "zombies": [j.job_id for j in core.zombies],
    }
