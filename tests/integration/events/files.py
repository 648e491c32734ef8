"""Helpers shared by the seg and JSM process tests: a reporting file and the real seg."""

from __future__ import annotations

import sys
from pathlib import Path

from qmaster.events.records import Record
from qmaster.events.writer import EventFiles


def write(common: Path, *records: Record) -> None:
    """Append records to the cell's reporting file the way the daemon does."""
    files = EventFiles(common, 0, accounting=False)
    for record in records:
        files.add(record)
    assert files.flush()
    files.close()


def seg_command(reporting: Path, *extra: str) -> list[str]:
    """The real seg on a reporting file, polling fast."""
    return [
        sys.executable,
        "-m",
        "clients.seg",
        "-s",
        "minige",
        "-r",
        str(reporting),
        "-p",
        "0.05",
        *extra,
    ]
