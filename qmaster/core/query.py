"""Read-only requests: the rows qstat shows, the details of ``qstat -j``, ping."""

from __future__ import annotations

import itertools
from typing import Any

from qmaster.complexes.load import running_slots_by_host, simulated_load
from qmaster.conf.state import QueueInstanceConf
from qmaster.core.activetasks import active_tasks
from qmaster.core.arlife import booking_key
from qmaster.core.control import select_jobs
from qmaster.core.errors import InvalidRequest
from qmaster.core.holds import derived_letters, pending_groups
from qmaster.core.job_detail import detail, task_state
from qmaster.core.job_filter import LETTERS, finished_record
from qmaster.core.jobs import Job, format_id_runs
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.qinstances import letters
from qmaster.core.qstat_joblist import JobListing
from qmaster.core.qstat_listing import (
    Shown,
    check,
    cq_summary,
    decorate_queues,
    filter_queue_rows,
    narrows,
    selected_instances,
    selects,
    shown_instances,
    wants_queues,
)
from qmaster.core.qstat_rows import ChunkedListing, cut, in_order, running_first
from qmaster.core.qstates import shown
from qmaster.core.registry import handler
from qmaster.core.sched_info import job_info_setting, summary
from qmaster.core.states import ACTIVE, TaskState, held_state
from qmaster.core.stimuli import JobDetail, JobList, Ping
from qmaster.core.taskholds import task_bits
from qmaster.core.view import queue_alarms
from qmaster.digits import atol_u32, is_digits
from qmaster.state_filter import DEFAULT, parse_state_filter
from qmaster.version import VERSION


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
    """qstat's rows of one job: one per active task, one per run of pending tasks of the
    same holds (see :func:`qmaster.core.holds.pending_groups`); a started task with a hold
    (or a ``-hold_jid`` predecessor in the system) shows the ``h`` too (``hr``, ``Ehqw``), as
    Grid Engine's sge_handle_job() sets JHELD from ``JAT_hold``; a task in error state shows
    its submission time, as its start time was reset when it failed. Each row carries the
    hold letters ``qstat -s`` selects it by (``LETTERS``, taken off by the filter)."""
    rows: list[dict[str, Any]] = []
    derived: set[str] | None = None
    for task in sorted(job.tasks.values(), key=lambda t: t.task_id):
        if task.state is TaskState.FINISHED:
            continue
        if derived is None:
            derived = derived_letters(core, job)
        bits = task_bits(job, task.task_id) if job.holds else frozenset()
        shown = task_state(task)
        failed = shown == TaskState.ERROR.value  # its start time is reset (JAT_start_time 0)
        row = _row(
            job,
            prior,
            held_state(shown) if bits or "j" in derived else shown,
            start_time=None if failed else task.start_time or task.dispatch_time,
            queue=task.queue,
            slots=task.slots or job.slots,
            tasks=str(task.task_id) if job.array else None,
        )
        row[LETTERS] = bits | derived
        rows.append(row)
    if job.pending:
        for ids, state, letters in pending_groups(core, job):
            row = _row(job, prior, state, tasks=format_id_runs(ids) if job.array else None)
            row[LETTERS] = letters
            rows.append(row)
    return rows


def state_bits(states: str | None) -> frozenset[str]:
    """The ``-s`` selection; Grid Engine's error for a malformed one."""
    if states is None:
        return DEFAULT
    try:
        return parse_state_filter(states)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None


@handler(JobList)
def handle_job_list(core: Core, args: JobList, now: float, out: Outcome) -> None:
    """qstat: job rows (and with ``-f`` queue instance rows)."""
    bits = state_bits(args.states)
    check(args)
    data: dict[str, Any] = {"now": now}
    shown: Shown | None = None
    if wants_queues(args) or selects(args):
        instances, emptied = selected_instances(core, args) if narrows(args) else (None, None)
        if emptied:
            data["no_queues_after"] = emptied
        queues, levels = decorate_queues(
            core, args, instances or core.config.queue_instances(), queue_rows(core, instances)
        )
        queues = filter_queue_rows(args, queues)
        if "c" in args.group:
            data["cluster_queues"] = cq_summary(queues, levels)
        if selects(args):
            names = {str(q["name"]) for q in queues}
            shown = shown_instances(core, names)
        if wants_queues(args):
            data["queues"] = queues
    if args.compact and "c" in args.group:  # -g c shows the cluster queues only
        out.data = data | {"job_rows": []}
        return
    listing = JobListing(core, args, bits, shown, now, job_rows)
    if not args.compact:
        data["jobs"] = listing.all_rows()
        out.data = data
        return
    rows_of = listing.compact_rows
    if args.running_first:
        data["job_rows"], others = running_first(core, listing.ids, rows_of)
        rest = itertools.chain(others(), listing.zombie_compact())
    else:
        data["job_rows"] = []
        rest = itertools.chain(in_order(core, listing.ids, rows_of), listing.zombie_compact())
    if args.chunk is None:
        data["job_rows"].extend(rest)
        out.data = data
    else:
        out.data = ChunkedListing(data, cut(rest, args.chunk))


def qtype_letters(qtype: tuple[str, ...], pe_list: tuple[str, ...], ckpt_list: str) -> str:
    """qstat's qtype column: B(atch), I(nteractive), P(arallel: a ``pe_list``),
    C(heckpointing: a ``ckpt_list``), as qinstance_print_qtype_to_dstring()."""
    letters = "".join(t[0] for t in ("BATCH", "INTERACTIVE") if t in qtype)  # bit order
    letters += "P" if pe_list else ""
    letters += "C" if ckpt_list.strip().upper() not in ("", "NONE") else ""
    return letters or "N"


def reserved_slots(core: Core) -> tuple[dict[str, int], dict[str, int]]:
    """Per queue instance: slots reserved by ARs in their window, and the part no AR job uses."""
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


def queue_rows(
    core: Core, instances: list[QueueInstanceConf] | None = None
) -> list[dict[str, Any]]:
    """``qstat -f``'s queue instance lines (of ``instances`` when a selection is given)."""
    resv, held = reserved_slots(core)
    running = running_slots_by_host(core.booked)
    alarms = queue_alarms(core)
    rows = []
    for qi in core.config.queue_instances() if instances is None else instances:
        host = core.config.exechost(qi.host)
        load = (
            simulated_load(host.load_values, running.get(qi.host, 0.0), host.load_scaling)
            if host
            else {}
        )
        rows.append(
            {
                "name": qi.name,
                "qtype": qtype_letters(qi.qtype, qi.pe_list, qi.attrs.get("ckpt_list", "NONE")),
                "resv": resv.get(qi.name, 0),
                "used": core.booked.slots(qi.name) - held.get(qi.name, 0),
                "total": qi.slots,
                "load_avg": float(load["load_avg"]) if "load_avg" in load else None,
                "arch": str(load.get("arch", "-")),
                "states": shown(letters(core, qi.name) | ({"a"} if qi.name in alarms else set())),
            }
        )
    if instances is not None:
        return rows
    return rows + orphaned_rows(core, {str(row["name"]) for row in rows})


def orphaned_rows(core: Core, configured: set[str]) -> list[dict[str, Any]]:
    """Queue instances gone from the configuration while jobs still run there (state ``o``).

    Grid Engine keeps such an instance as orphaned until its last job ends, so
    ``qstat -f`` still shows the jobs.
    """
    used: dict[str, int] = {}
    for _, task in active_tasks(core):
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


@handler(JobDetail)
def handle_job_detail(core: Core, args: JobDetail, now: float, out: Outcome) -> None:
    """qstat -j: everything about the named jobs, with why they wait; without a job
    list, the scheduler's messages with the jobs each applies to. A missing job the
    qmaster still keeps as finished (``qstat -s z``) is named under ``finished`` with
    the runs of its tasks that never started (qsub -sync y has no record to wait for)."""
    if args.job_ids is None:
        out.data = {"summary": summary(core, now)}
        return
    jobs: list[Job] = []
    missing: list[str] = []
    for ref in args.job_ids:
        number = atol_u32(ref)  # qstat_show_job(): a word starting with a digit is atol()'s job
        if number is not None:
            found = [core.jobs[number]] if number in core.jobs else []
        else:
            found = [j for j, _ in select_jobs(core, ref)]
        if not found:
            missing.append(ref)
        jobs.extend(j for j in found if j not in jobs)
    setting = job_info_setting(core)
    out.data = {
        "jobs": [_with_story(core, j, detail(core, j, now), args.story) for j in jobs],
        "missing": missing,
        "finished": _finished(core, missing),
        "global_messages": [{"number": n, "text": t} for n, t in setting.global_messages()],
    }


def _finished(core: Core, refs: list[str]) -> list[dict[str, Any]]:
    """The finished jobs among the missing ``refs``: id, runs of tasks never started."""
    found = []
    for ref in refs:
        record = finished_record(core, int(ref)) if is_digits(ref) else None
        if record is not None:
            never = record.never_started
            runs = [[r.start, r[-1], r.step] for r in never.ranges] if never else []
            found.append({"job_id": record.job_id, "never_started": runs})
    return found


def _with_story(core: Core, job: Job, found: dict[str, Any], asked: bool) -> dict[str, Any]:
    """``qstat -j -story``: the detail with the job's story lines."""
    if asked:
        found["story"] = [line.to_row() for line in core.journal.story(job)]
    return found


@handler(Ping)
def handle_ping(core: Core, args: Ping, now: float, out: Outcome) -> None:
    """Answer that the qmaster is alive, and whether the caller is a manager (what Grid
    Engine's clients ask with sge_gdi2_check_permission(MANAGER_CHECK), e.g. qdel -f)."""
    out.data = {"version": VERSION, "now": now, "manager": core.is_manager(args.identity)}
