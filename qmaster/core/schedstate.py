"""The scheduler's state kept between passes, and its check against a rebuild."""

from __future__ import annotations

from qmaster.core.machine import Core


def force_full_pass(core: Core) -> None:
    """Make the next due pass run (as if something changed), from scratch."""
    core.sched_dirty = True
