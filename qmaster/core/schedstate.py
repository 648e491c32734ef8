"""The scheduler's state kept between passes, and its check against a rebuild."""

from __future__ import annotations

from qmaster.core.machine import Core
from qmaster.core.schedjobs import RequestMemo
from qmaster.core.schedlevels import LEVELS_KEY


def force_full_pass(core: Core, *, cold: bool = True) -> None:
    """Make the next due pass run as if something changed; ``cold`` drops what the view
    keeps between passes first (the levels, each job's request with its tasks), so the
    pass builds them again, as every pass did before they were kept."""
    core.sched_dirty = True
    if cold:
        core.derived.pop(LEVELS_KEY, None)
        for job in core.jobs.values():
            memo = job.request_memo[1] if job.request_memo else None
            if isinstance(memo, RequestMemo):
                memo.request = None
