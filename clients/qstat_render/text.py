"""qstat's plain-text layouts, built from Grid Engine's printf formats.

Default listing: a header, 113 dashes, then one row per job (or task) with
``%7d %7.5f %-10.10s %-12.12s %-5.5s <time> %-30.30s %5d <task ids>``.
``-f``: a ``queuename qtype resv/used/tot. load_avg arch states`` header,
each queue instance after a line of 81 dashes with its jobs under it (no queue
column), then the pending jobs after the ``PENDING JOBS`` banner; the ``-f``
listing itself is :func:`clients.qstat_render.listing.render_full`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from clients.qstat_render.times import ge_time

QUEUE_WIDTH = 30
_RULE_BASE = "-" * 93
_QUEUE_RULE = "-" * 81
_HASHES = "#" * 76
PENDING_BANNER = " - PENDING JOBS - PENDING JOBS - PENDING JOBS - PENDING JOBS - PENDING JOBS"
FINISHED_BANNER = " --  FINISHED JOBS  -  FINISHED JOBS  -  FINISHED JOBS  -  FINISHED JOBS  --  "

Row = dict[str, Any]


def job_header(width: int = QUEUE_WIDTH) -> str:
    """The header line and the dash line of the default listing."""
    head = (
        f"{'job-ID':<7.7} prior   {'name':<10.10} {'user':<12.12} {'state':<5.5} "
        f"submit/start at     {'queue':<{width}.{width}} slots ja-task-ID "
    )
    return head + "\n" + _RULE_BASE + "-" * (width - 10) + "\n"


def _row_time(row: Row) -> str:
    start = row.get("start_time")
    return ge_time(start if start is not None else row["submit_time"])


def job_row(row: Row, *, queue_column: bool = True, width: int = QUEUE_WIDTH) -> str:
    """One job line; ``queue_column`` is off in ``-f`` listings."""
    line = (
        f"{int(row['job_id']):7d} {float(row['prior']):7.5f} "
        f"{row['name']:<10.10} {row['owner']:<12.12} {row['state']:<5.5} {_row_time(row)} "
    )
    if queue_column:
        queue = row.get("queue") or ""
        line += f"{queue:<{width}.{width}} "
    line += f"{int(row['slots']):5d} "
    tasks = row.get("tasks")
    line += str(tasks) if tasks else " " * 7
    return line + "\n"


def job_rows_compact(rows: Iterable[list[Any]]) -> str:
    """The lines :func:`job_row` prints, from compact rows (:mod:`qmaster.qstat_wire`).

    What follows the job id is formatted once per distinct rest of the row: in a big
    listing many jobs of one kind were submitted in the same second."""
    lines = []
    tails: dict[tuple[Any, ...], str] = {}
    for row in rows:
        key = tuple(row[1:10])
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = _tail(*key)
        lines.append(f"{int(row[0]):7d} {tail}")
    return "".join(lines)


def _tail(
    prior: float, name: str, owner: str, state: str, submit: float, start: float | None,
    queue: str | None, slots: int, tasks: str | None,
) -> str:  # fmt: skip
    when = ge_time(start if start is not None else submit)
    return (
        f"{float(prior):7.5f} {name:<10.10} {owner:<12.12} {state:<5.5} {when} "
        f"{queue or '':<30.30} {int(slots):5d} {str(tasks) if tasks else '       '}\n"
    )


def running_first(rows: Iterable[Row]) -> list[Row]:
    """Rows in a queue before pending ones, each group in the order given."""
    rows = list(rows)
    return [r for r in rows if r.get("queue")] + [r for r in rows if not r.get("queue")]


def render_jobs(rows: Sequence[Row]) -> str:
    """The default listing; empty when there are no jobs."""
    if not rows:
        return ""
    return job_header() + "".join(job_row(r) for r in running_first(rows))


def queue_header(width: int = QUEUE_WIDTH) -> str:
    """The header line of ``qstat -f``."""
    return f"{'queuename':<{width}.{width}} {'qtype':<5.5} {'resv/used/tot.':<14.14} " + (
        f"{'load_avg':<8.8} {'arch':<13.13} states\n"
    )


def queue_line(queue: Row, width: int = QUEUE_WIDTH) -> str:
    """A queue instance's summary line under its dash line."""
    counts = f"{int(queue['resv'])}/{int(queue['used'])}/{int(queue['total'])} "
    load = queue.get("load_avg")
    load_text = f"{float(load):2.2f} " if load is not None else "-NA- "
    arch = f"{queue['arch']} " if queue.get("arch") else "-NA- "
    return (
        f"{_QUEUE_RULE}{'-' * (width - 30)}\n"
        f"{queue['name']:<{width}.{width}} {queue['qtype']:<5.5} {counts:<14.14} "
        f"{load_text:<8.8} {arch:<13.13} {queue.get('states') or ''}\n"
    )


def pending_banner(ext: bool = False) -> str:
    """The block that opens the pending jobs of ``qstat -f`` (110 more ``#`` with ``-ext``)."""
    hashes = _HASHES + ("#" * 110 if ext else "")
    return f"\n{hashes}\n{PENDING_BANNER}\n{hashes}\n"


def finished_banner(ext: bool = False) -> str:
    """The block that opens the finished jobs (``-s z``) of ``qstat -f``."""
    hashes = _HASHES + ("#" * 110 if ext else "")
    return f"\n{hashes}\n{FINISHED_BANNER}\n{hashes}\n"
