"""qstat's job lines with the optional columns of ``-ext``, ``-pri``, ``-urg``, ``-g t`` and ``-t``.

As Grid Engine's ``job_stdout_job`` prints them: after ``prior`` come
``nurg`` (``-pri``/``-urg``), ``npprior`` (``-pri``), ``ntckts``
(``-pri``/``-ext``), ``urg rrcontr wtcontr dlcontr`` (``-urg``, ``%8.0f``),
``ppri`` (``-pri``); after the user ``project department`` (``-ext``); the
submit/start time unless ``-ext`` alone; ``deadline`` (``-urg``); ``cpu mem
io tckts ovrts otckt ftckt stckt share`` (``-ext``); the queue (not in
``-f``); ``master`` instead of ``slots`` with ``-g t``/``-t``; and with ``-t``
the sub-task columns. The dash line grows by a fixed run for each option.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clients.qstat_render.times import ge_time

Row = dict[str, Any]

_BASE = 93
_EXT, _TASKS, _URG, _PRI = 79, 53, 64, 35


@dataclass(frozen=True, slots=True)
class Layout:
    """Which optional columns a listing shows."""

    ext: bool = False
    pri: bool = False
    urg: bool = False
    tasks: bool = False
    master: bool = False
    full: bool = False
    width: int = 30

    @property
    def time(self) -> bool:
        """The submit/start column: hidden by ``-ext`` unless another option brings it."""
        return not self.ext or self.tasks or self.urg or self.pri


def header(lay: Layout) -> str:
    """The header line and the dash line of a listing with these columns."""
    w = lay.width
    head = (
        f"{'job-ID':<7.7} prior  "
        + (" nurg   " if lay.pri or lay.urg else "")
        + (" npprior" if lay.pri else "")
        + (" ntckts " if lay.pri or lay.ext else "")
        + (" urg      rrcontr  wtcontr  dlcontr " if lay.urg else "")
        + ("  ppri" if lay.pri else "")
        + f" {'name':<10.10} {'user':<12.12} "
        + ("project          department " if lay.ext else "")
        + f"{'state':<5.5} "
        + ("submit/start at     " if lay.time else "")
        + (" deadline           " if lay.urg else "")
        + ("cpu        mem     io      " if lay.ext else "")
        + ("tckts ovrts otckt ftckt stckt share " if lay.ext else "")
        + f"{'queue':<{w}.{w}} {'master' if lay.master else 'slots'} ja-task-ID "
        + ("task-ID state cpu        mem     io      stat failed " if lay.tasks else "")
    )
    dashes = _BASE + (w - 10) + (1 if lay.master else 0)
    dashes += (_EXT if lay.ext else 0) + (_TASKS if lay.tasks else 0)
    dashes += (_URG if lay.urg else 0) + (_PRI if lay.pri else 0)
    return head + "\n" + "-" * dashes + "\n"


def _opti8(value: float) -> str:
    return f"{value:8.3g} " if value > 99999999 else f"{value:8.0f} "


def _cpu(seconds: float) -> str:
    secs = int(seconds)
    days, secs = divmod(secs, 86400)
    hours, secs = divmod(secs, 3600)
    minutes, secs = divmod(secs, 60)
    return f"{days}:{hours:02d}:{minutes:02d}:{secs:02d} "


def _ext_usage(row: Row) -> str:
    usage = row.get("usage")
    running = bool(row.get("queue"))
    if not usage:
        na = "NA" if running else ""
        return f"{na:<10.10} {na:<7.7} {na:<7.7} "
    return f"{_cpu(float(usage['cpu']))}{float(usage['mem']):<5.5f} {float(usage['io']):<5.5f} "


def _tickets(row: Row) -> str:
    if row.get("state") == "z":
        return "   NA " * 6
    counts = (row.get(k, 0) for k in ("tickets", "override_tickets", "otickets"))
    text = "".join(f"{int(c):5d} " for c in counts)
    text += f"{int(row.get('ftickets', 0)):5d} {int(row.get('stickets', 0)):5d} "
    return text + f"{float(row.get('share', 0.0)):<5.2f} "


def _numbers(row: Row, lay: Layout, shown: bool) -> str:
    text = f"{float(row['prior']):7.5f} " if shown else " " * 8
    if lay.pri or lay.urg:
        text += f"{float(row.get('nurg', 0.0)):7.5f} " if shown else " " * 8
    if lay.pri:
        text += f"{float(row.get('npprior', 0.0)):7.5f} " if shown else " " * 8
    if lay.pri or lay.ext:
        text += f"{float(row.get('ntckts', 0.0)):7.5f} " if shown else " " * 8
    if lay.urg:
        keys = ("urg", "rrcontr", "wtcontr", "dlcontr")
        text += "".join(_opti8(float(row.get(k, 0.0))) for k in keys) if shown else " " * 36
    if lay.pri:
        text += f"{int(row.get('ppri', 0)):5d} " if shown else " " * 18
    return text


def _time(row: Row) -> str:
    start = row.get("start_time")
    return ge_time(float(start if start is not None else row["submit_time"]))


def job_lines(rows: Sequence[Row], lay: Layout) -> str:
    """Consecutive job lines (see :func:`job_line_list`)."""
    return "".join(job_line_list(rows, lay))


def job_line_list(rows: Sequence[Row], lay: Layout) -> list[str]:
    """Consecutive job lines, one string each. With ``-f`` or ``-g t``/``-t`` a line for the same job
    (and task) in the same queue as the line before leaves the job's fields blank
    (and is a ``SLAVE`` line), as ``sge_print_jobs_queue`` prints a queue's lines."""
    out: list[str] = []
    before: tuple[object, ...] | None = None
    for given in rows:
        row = given
        key = (row.get("job_id"), row.get("tasks"), row.get("queue"))
        if (lay.master or lay.full) and row.get("queue"):
            different = key != before
            row = {**row, "print_job_id": different}
            if not different and row.get("master") == "MASTER":
                row["master"] = "SLAVE"
        before = key
        out.append(job_line(row, lay))
    return out


def job_line(row: Row, lay: Layout) -> str:
    """One job line with the layout's columns."""
    shown = bool(row.get("print_job_id", True))
    line = f"{int(row['job_id']):7d} " if shown else " " * 8
    line += _numbers(row, lay, shown)
    line += f"{row['name']:<10.10} {row['owner']:<12.12} " if shown else " " * 24
    if lay.ext:
        project, dept = row.get("project") or "NA", row.get("department") or "NA"
        line += f"{project:<16.16} {dept:<10.10} " if shown else " " * 28
    line += f"{row['state']:<5.5} " if shown else " " * 6
    if lay.time:
        line += f"{_time(row)} " if shown else " " * 20
    if lay.urg:
        deadline = row.get("deadline")
        line += f"{ge_time(float(deadline))} " if shown and deadline else " " * 20
    if lay.ext:
        line += _ext_usage(row) + _tickets(row)
    if not lay.full:
        line += f"{row.get('queue') or '':<{lay.width}.{lay.width}} "
    if lay.master:
        line += f"{row.get('master') or ''!s:<7.6}"
    else:
        line += f"{int(row['slots']):5d} "
    tasks = row.get("tasks")
    line += str(tasks) if tasks else " " * 7
    return line + "\n"
