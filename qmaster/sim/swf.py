"""The Standard Workload Format 2.2 (Parallel Workloads Archive): reading and writing.

A trace is header comments (``; Key: value``) and one line per job of 18
whitespace-separated fields, ``-1`` where a value is unknown. Gzipped files
(``.gz`` or the gzip magic) are read transparently. Fields are kept as the text
the trace had, so writing a record back changes only what the simulation
decided (the wait time, the run time and the allocated processors).
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from qmaster.digits import is_digits

FIELDS = (
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable_number",
    "queue_number",
    "partition_number",
    "preceding_job_number",
    "think_time",
)
"""The 18 fields of a job line, in order (SWF 2.2)."""

UNKNOWN = -1
GZIP_MAGIC = b"\x1f\x8b"

# the indexes of the fields a simulation fills in
WAIT, RUN, ALLOCATED = 2, 3, 4


class SwfError(ValueError):
    """A trace line is not an SWF job line; the message names the line."""


@dataclass(slots=True)
class SwfRecord:
    """One job line: its 18 fields as text, and numeric access to them."""

    fields: list[str]
    line: int = 0

    def number(self, index: int) -> float:
        """Field ``index`` (0-based) as a number; ``-1`` stays ``-1`` (unknown)."""
        return float(self.fields[index])

    def known(self, index: int) -> float | None:
        """Field ``index`` as a number, or ``None`` when it is negative (unknown)."""
        value = float(self.fields[index])
        return None if value < 0 else value


@dataclass(slots=True)
class SwfHeader:
    """The header comments: ``; Key: value`` pairs in order, and every comment line verbatim."""

    values: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def get_int(self, key: str) -> int | None:
        """A header value as an integer (``UnixStartTime``, ``MaxProcs``...), if present."""
        text = self.values.get(key, "").split()
        try:
            return int(text[0]) if text else None
        except ValueError:
            return None

    def queues(self) -> dict[int, str]:
        """Queue numbers to names from ``; Queues:`` when it says ``N=name`` (as gen_swf.py)."""
        found: dict[int, str] = {}
        for word in self.values.get("Queues", "").replace(",", " ").split():
            number, sep, name = word.partition("=")
            if sep and is_digits(number.strip()) and name.strip():
                found[int(number)] = name.strip()
        return found


def open_text(path: Path) -> IO[str]:
    """Open a trace for reading as text, gunzipping it when it is gzip data."""
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == GZIP_MAGIC:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="replace")
    return path.open(encoding="utf-8", errors="replace")


def parse_header_line(text: str, header: SwfHeader) -> None:
    """Take one ``;`` comment into ``header``."""
    header.lines.append(text)
    body = text[1:].strip()
    key, sep, value = body.partition(":")
    if sep and key.strip() and " " not in key.strip():
        header.values.setdefault(key.strip(), value.strip())


def parse_job_line(text: str, line: int) -> SwfRecord:
    """One job line; :class:`SwfError` when it has not 18 numeric fields."""
    words = text.split()
    if len(words) != len(FIELDS):
        raise SwfError(f"line {line}: expected {len(FIELDS)} fields, got {len(words)}")
    for word in words:
        try:
            float(word)
        except ValueError:
            raise SwfError(f"line {line}: field is not a number: {word!r}") from None
    return SwfRecord(words, line)


def read(stream: IO[str], header: SwfHeader) -> Iterator[SwfRecord]:
    """The job lines of a trace, filling ``header`` from its comments as they come."""
    for number, raw in enumerate(stream, 1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith(";"):
            parse_header_line(text, header)
            continue
        yield parse_job_line(text, number)


def read_path(path: Path) -> tuple[SwfHeader, list[SwfRecord]]:
    """A whole trace file (plain or gzipped)."""
    header = SwfHeader()
    with open_text(path) as stream:
        records = list(read(stream, header))
    return header, records


def format_record(fields: list[str]) -> str:
    """A job line as the archive writes them: the fields separated by single spaces."""
    return " ".join(fields)


def whole(value: float) -> str:
    """A number as an SWF field: whole seconds (rounded), ``-1`` for unknown."""
    return str(round(value)) if value >= 0 else str(UNKNOWN)
