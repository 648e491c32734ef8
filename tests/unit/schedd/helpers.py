"""Factories for scheduler tests: complex tables, levels, queues, jobs and views."""

from __future__ import annotations

from typing import Any

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.levels import GLOBAL, HOST, QUEUE, Level, build_level
from qmaster.complexes.table import ComplexTable
from schedd import HostState, JobRequest, PeState, QueueState, View

BUILTINS = (DEFAULT_CONF_DIR / "complexes").read_text()


def table(*lines: str) -> ComplexTable:
    """Grid Engine's default attributes plus ``lines`` (``name sc TYPE relop req cons def urg``).

    A line naming a built-in replaces its definition.
    """
    names = {line.split()[0] for line in lines}
    kept = [row for row in BUILTINS.splitlines() if not row or row.split()[0] not in names]
    return ComplexTable.parse("\n".join(kept) + "\n" + "".join(line + "\n" for line in lines))


def queue(
    tbl: ComplexTable, cqueue: str, host: str, slots: int, seq_no: int = 0, **values: str
) -> QueueState:
    """A queue instance ``cqueue@host`` with ``complex_values`` (and optional extras)."""
    pe_list = tuple(values.pop("pe_list", "").split()) if "pe_list" in values else ()
    users = tuple(values.pop("user_lists", "").split()) if "user_lists" in values else ()
    name = f"{cqueue}@{host}"
    level = build_level(
        QUEUE,
        name,
        tbl,
        fixed={"qname": cqueue, "slots": str(slots), "h_rt": "INFINITY"},
        complex_values=values,
    )
    return QueueState(
        name, cqueue, host, slots, 0, seq_no=seq_no, pe_list=pe_list, user_lists=users, level=level
    )


def host(
    tbl: ComplexTable, name: str, loads: dict[str, str] | None = None, **values: str
) -> HostState:
    """An execution host with load values and ``complex_values``."""
    level = build_level(
        HOST, name, tbl, loads=loads or {}, fixed={"hostname": name}, complex_values=values
    )
    return HostState(level)


def global_level(tbl: ComplexTable, **values: str) -> Level:
    """The global level with ``complex_values``."""
    return build_level(GLOBAL, GLOBAL, tbl, complex_values=values)


_IDS = iter(range(1, 1_000_000))


def job(job_id: int | None = None, **kw: Any) -> JobRequest:
    """A pending single-task job; keyword arguments are JobRequest fields."""
    jid = job_id if job_id is not None else next(_IDS)
    kw.setdefault("task_ids", [1])
    kw.setdefault("submit_time", float(jid))
    return JobRequest(job_id=jid, priority=kw.pop("priority", 0), owner=kw.pop("owner", "alice"),
                      group=kw.pop("group", "users"), **kw)  # fmt: skip


def view(
    tbl: ComplexTable,
    queues: list[QueueState],
    jobs: list[JobRequest],
    hosts: list[HostState] = (),  # type: ignore[assignment]
    glob: Level | None = None,
    pes: list[PeState] = (),  # type: ignore[assignment]
    **kw: Any,
) -> View:
    """A view; hosts not given are created empty."""
    return View(
        jobs=jobs,
        queues=queues,
        complexes=tbl,
        global_level=glob or global_level(tbl),
        hosts={h.level.name: h for h in hosts},
        pes={p.name: p for p in pes},
        **kw,
    )


def placed(plan: Any) -> dict[int, tuple[tuple[str, int], ...]]:
    """Job id -> assignment of its (first) order."""
    return {o.job_id: o.assignment for o in plan.orders}


def texts(plan: Any, job_id: int) -> list[str]:
    """The scheduling-info lines of a pending job."""
    return [r.text for r in plan.reasons.get(job_id, [])]
