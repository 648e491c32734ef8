"""Read-only requests: the rows qstat shows, the details of ``qstat -j``, ping."""

from __future__ import annotations

from typing import Any

from qmaster.complexes.load import running_slots_by_host, simulated_load
from qmaster.core.jobs import Job, format_id_runs
from qmaster.core.machine import Core, Request, handler
from qmaster.core.outcome import Outcome
from qmaster.core.states import ACTIVE, TaskState, display_state
from qmaster.core.view import is_held
from qmaster.gdi.messages import JobDetailArgs, JobListArgs
from qmaster.version import VERSION

# The default weights of sched_conf(5): priority 1.0, urgency 0.1, tickets 0.01.
# With nothing else to tell jobs apart, urgency and tickets normalise to 0.5.
_URGENCY_AND_TICKETS = 0.1 * 0.5 + 0.01 * 0.5


def normalised_priorities(core: Core) -> dict[int, float]:
    """qstat's ``prior`` column: the posix priority normalised over all jobs."""
    if not core.jobs:
        return {}
    prios = {j.job_id: j.priority for j in core.jobs.values()}
    lo, hi = min(prios.values()), max(prios.values())
    span = hi - lo
    return {
        jid: (0.5 if span == 0 else (p - lo) / span) + _URGENCY_AND_TICKETS
        for jid, p in prios.items()
    }


def pending_state(core: Core, job: Job) -> str:
    """``qw``, ``hqw``, or ``vqw`` while the job waits for the server JSV (beyond Grid Engine)."""
    if job.verify_wait is not None:
        return "vqw"
    return display_state(TaskState.PENDING, held=is_held(core, job))


def _row(job: Job, prior: float, state: str, **kw: Any) -> dict[str, Any]:
    return {
        "job_id": job.job_id,
        "prior": round(prior, 5),
        "name": job.name,
        "owner": job.owner.user,
        "state": state,
        "submit_time": job.submit_time,
        "start_time": kw.get("start_time"),
        "queue": kw.get("queue"),
        "slots": kw.get("slots", job.slots),
        "tasks": kw.get("tasks"),
    }


def job_rows(core: Core, job: Job, prior: float) -> list[dict[str, Any]]:
    """qstat's rows of one job: one per active task, one per run of pending tasks."""
    rows: list[dict[str, Any]] = []
    for task in sorted(job.tasks.values(), key=lambda t: t.task_id):
        if task.state is TaskState.FINISHED:
            continue
        rows.append(
            _row(
                job,
                prior,
                display_state(task.state, held=False),
                start_time=task.start_time or task.dispatch_time,
                queue=task.queue,
                slots=task.slots or job.slots,
                tasks=str(task.task_id) if job.array else None,
            )
        )
    if job.pending:
        state = pending_state(core, job)
        tasks = format_id_runs(job.pending) if job.array else None
        rows.append(_row(job, prior, state, tasks=tasks))
    return rows


_FILTERS = {"p": ("qw", "hqw", "Eqw", "vqw"), "r": ("r", "t", "dr", "dt"), "h": ("hqw",)}


@handler("job_list")
def handle_job_list(core: Core, req: Request, now: float, out: Outcome) -> None:
    """qstat: job rows (and with ``-f`` queue instance rows)."""
    args = req.args
    assert isinstance(args, JobListArgs)
    users = None if args.users is None or "*" in args.users else set(args.users)
    wanted: set[str] | None = None
    if args.states:
        wanted = {s for c in args.states for s in _FILTERS.get(c, ())}
    prior = normalised_priorities(core)
    rows: list[dict[str, Any]] = []
    for job in sorted(core.jobs.values(), key=lambda j: j.job_id):
        if users is not None and job.owner.user not in users:
            continue
        rows.extend(
            r
            for r in job_rows(core, job, prior[job.job_id])
            if wanted is None or r["state"] in wanted
        )
    data: dict[str, Any] = {"jobs": rows, "now": now}
    if args.full:
        data["queues"] = queue_rows(core)
    out.data = data


def qtype_letters(qtype: tuple[str, ...], pe_list: tuple[str, ...]) -> str:
    """qstat's qtype column: B(atch), I(nteractive), P(arallel)."""
    letters = "".join(t[0] for t in qtype if t in ("BATCH", "INTERACTIVE"))
    return letters + ("P" if pe_list else "") or "-"


def reserved_slots(core: Core) -> tuple[dict[str, int], dict[str, int]]:
    """Per queue instance: slots reserved by ARs in their window, and the part no AR job uses."""
    from qmaster.core.arlife import booking_key

    resv: dict[str, int] = {}
    for ar in core.ars.values():
        if core.booked.by_task.get(booking_key(ar)) is not None:
            for name, n in ar.granted:
                resv[name] = resv.get(name, 0) + n
    held: dict[str, int] = {}
    for key, debits in core.booked.by_task.items():
        if key[0] < 0:
            for kind, name, attr, amount in debits:
                if kind == "queue" and attr == "slots":
                    held[name] = held.get(name, 0) + round(amount)
    return resv, held


def queue_rows(core: Core) -> list[dict[str, Any]]:
    """``qstat -f``'s queue instance lines."""
    resv, held = reserved_slots(core)
    running = running_slots_by_host(core.booked)
    rows = []
    for qi in core.config.queue_instances():
        host = core.config.exechost(qi.host)
        load = (
            simulated_load(host.load_values, running.get(qi.host, 0.0), host.load_scaling)
            if host
            else {}
        )
        rows.append(
            {
                "name": qi.name,
                "qtype": qtype_letters(qi.qtype, qi.pe_list),
                "resv": resv.get(qi.name, 0),
                "used": core.booked.slots(qi.name) - held.get(qi.name, 0),
                "total": qi.slots,
                "load_avg": float(load["load_avg"]) if "load_avg" in load else None,
                "arch": str(load.get("arch", "-")),
                "states": "",
            }
        )
    return rows + orphaned_rows(core, {str(row["name"]) for row in rows})


def orphaned_rows(core: Core, configured: set[str]) -> list[dict[str, Any]]:
    """Queue instances gone from the configuration while jobs still run there (state ``o``).

    Grid Engine keeps such an instance as orphaned until its last job ends, so
    ``qstat -f`` still shows the jobs.
    """
    used: dict[str, int] = {}
    for job in core.jobs.values():
        for task in job.tasks.values():
            if task.state in ACTIVE:
                for qi, n in task.assignment:
                    if qi not in configured:
                        used[qi] = used.get(qi, 0) + n
    return [
        {
            "name": name,
            "qtype": "-",
            "resv": 0,
            "used": n,
            "total": 0,
            "load_avg": None,
            "arch": "-",
            "states": "o",
        }
        for name, n in sorted(used.items())
    ]


@handler("job_detail")
def handle_job_detail(core: Core, req: Request, now: float, out: Outcome) -> None:
    """qstat -j: everything about the named jobs, with why they wait."""
    args = req.args
    assert isinstance(args, JobDetailArgs)
    from qmaster.core.control import select_jobs

    jobs: list[Job] = []
    missing: list[str] = []
    refs = args.job_ids if args.job_ids is not None else [str(j) for j in sorted(core.jobs)]
    for ref in refs:
        found = [j for j, _ in select_jobs(core, ref)]
        if not found:
            missing.append(ref)
        jobs.extend(j for j in found if j not in jobs)
    out.data = {"jobs": [detail(core, j) for j in jobs], "missing": missing}


def _verification_info(job: Job) -> list[str]:
    wait = job.verify_wait
    if wait is None:
        return []
    return [f"job waits for verification by the server JSV (try {wait.tries}): {wait.message}"]


def detail(core: Core, job: Job) -> dict[str, Any]:
    tasks = [
        {
            "task_id": t.task_id if job.array else None,
            "state": display_state(t.state, held=False),
            "queue": t.queue,
            "start_time": t.start_time,
            "exit_status": t.exit_status,
            "message": t.message,
        }
        for t in sorted(job.tasks.values(), key=lambda t: t.task_id)
        if t.state is not TaskState.FINISHED
    ]
    if job.pending:
        tasks.append(
            {
                "task_id": format_id_runs(job.pending) if job.array else None,
                "state": pending_state(core, job),
                "queue": None,
                "start_time": None,
            }
        )
    o = job.owner
    return {
        "job_id": job.job_id,
        "owner": o.user,
        "uid": o.uid,
        "group": o.group,
        "gid": o.gid,
        "submission_time": job.submit_time,
        "state": tasks[0]["state"] if tasks else "z",
        "job": job.spec,
        "tasks": tasks,
        "scheduling_info": _verification_info(job)
        + [r.text for r in core.reasons.get(job.job_id, [])],
        "reasons": [r.as_dict() for r in core.reasons.get(job.job_id, [])],
    }


@handler("ping")
def handle_ping(core: Core, req: Request, now: float, out: Outcome) -> None:
    """Answer that the qmaster is alive."""
    out.data = {"version": VERSION, "now": now}
