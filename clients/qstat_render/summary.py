"""``qstat -j`` without a job list: the scheduler's messages, as ``qstat_show_job_info`` prints.

First the global messages (``scheduling info:`` then one per line, indented
to column 29) and an empty line; then, in the order of their numbers, each
message's summary text and the ids of the jobs it applies to: tab before
each id, ``,`` between them, a new line after 8 ids or 70 characters, and an
empty line between two messages.
"""

from __future__ import annotations

from typing import Any

MAX_IDS_PER_LINE = 8
MAX_LINE_LEN = 70
_INDENT = " " * 28


def _global(messages: list[dict[str, Any]]) -> str:
    lines = [
        ("scheduling info:            " if i == 0 else _INDENT) + str(m["text"]) + "\n"
        for i, m in enumerate(messages)
    ]
    return "".join(lines) + ("\n" if lines else "")


def render_summary(summary: dict[str, Any]) -> str:
    """The whole text."""
    parts = [_global(list(summary.get("global_messages") or []))]
    text, per_line, first_row, first_message = "", 0, True, True
    for message in sorted(summary.get("messages") or [], key=lambda m: int(m["number"])):
        header = True
        for job_id in sorted(int(j) for j in message["job_ids"]):
            if header or len(text) >= MAX_LINE_LEN or per_line >= MAX_IDS_PER_LINE:
                parts.append(text)
                text, per_line, first_row = "", 0, False
            if header:
                parts.append("" if first_message else "\n\n")
                parts.append(str(message["text"]) + "\n")
                first_message, first_row, header = False, True, False
            if per_line == 0:
                text += "\t" if first_row else ",\n\t"
            else:
                text += ",\t"
            text += str(job_id)
            per_line += 1
    if text:
        parts.append(text + "\n")
    return "".join(parts)
