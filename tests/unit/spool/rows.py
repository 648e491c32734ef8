"""A small spool of padded job rows, for the tests that damage one."""

from __future__ import annotations

from pathlib import Path

from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool


def spool_with_rows(path: Path, jobs: int = 400) -> None:
    """A spool at ``path`` holding ``jobs`` job rows of about 500 bytes, closed cleanly."""
    spool = Spool(path)
    spool.commit(
        SpoolDelta(
            config={("global", "global"): "x" * 100},
            jobs={i: {"job_id": i, "pad": "p" * 500} for i in range(1, jobs + 1)},
            counters={"job": jobs + 1},
        )
    )
    spool.close()
