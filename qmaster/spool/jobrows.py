"""How a job row is written to the spool and read back, cheaply enough for a million.

A job row is spooled as two JSON texts on one line each: the row without its
specification, then the specification (``{"job_id": 7, ...}\\n{"CMDNAME": ...}``);
:func:`json.dumps` never writes a newline of its own. Recovery decodes the first
and hands the second over as it is, so that each distinct specification is decoded
once (:func:`qmaster.core.jobspec.from_spooled`) and its text never unescaped.
Rows spooled before hold the specification inside the row, as an object; they
load alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Final

_scan: Final[Callable[[str, int], tuple[Any, int]]] = vars(json.JSONDecoder())["scan_once"]


def decode_row(text: str) -> Any:
    """``json.loads(text)`` without its Python-level wrapper for a row as :func:`json.dumps`
    wrote it (anything else, and every error, goes through ``json.loads``)."""
    try:
        value, end = _scan(text, 0)
    except (StopIteration, ValueError):
        end = -1
    return value if end == len(text) else json.loads(text)


def job_text(row: dict[str, Any]) -> str:
    """A job row as spooled: the row, and on a line of its own its ``spec`` object's text
    (a row without a ``spec`` object is one JSON text)."""
    spec = row.get("spec")
    if not isinstance(spec, dict):
        return json.dumps(row)
    rest = {key: value for key, value in row.items() if key != "spec"}
    return f"{json.dumps(rest)}\n{json.dumps(spec)}"


def decode_job_row(text: str) -> Any:
    """A spooled job row with its ``spec`` left as spooled: the specification's JSON text,
    or an object in a row spooled before."""
    head, newline, spec = text.partition("\n")
    row = decode_row(head)
    if newline and isinstance(row, dict):
        row["spec"] = spec
    return row


def spec_as_dict(row: Any) -> Any:
    """A job row as it was committed: a ``spec`` read as text decoded to its object."""
    spec = row.get("spec") if isinstance(row, dict) else None
    if isinstance(spec, str):
        with suppress(ValueError):  # else left as it is: recovery names the row holding it
            row["spec"] = json.loads(spec)
    return row
