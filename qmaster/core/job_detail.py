"""The payload of ``qstat -j``: a job's specification with what the qmaster adds to it.

Besides the spec (keyed by JSV parameter names) a detail carries what Grid
Engine's job object holds and qstat prints: ``exec_file`` (the spooled script
of a script job), the account (``sge`` when none was given), the mail list
(the owner at the submit host when none was given), each task's state and
simulated usage, and the scheduler's messages with their numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qmaster.core.holds import is_held, predecessors_of
from qmaster.core.jobs import Job, Task, format_id_runs
from qmaster.core.jobspec import Pairs, as_map
from qmaster.core.lifecycle import granted_pe
from qmaster.core.reserved import reserved
from qmaster.core.sched_info import scheduling_info
from qmaster.core.states import ACTIVE, TaskState, display_state
from qmaster.core.suspension import shown_state

if TYPE_CHECKING:
    from qmaster.core.machine import Core

DEFAULT_ACCOUNT = "sge"
EXEC_DIR = "job_scripts"


def pending_state(core: Core, job: Job) -> str:
    """``qw``, ``hqw``, or ``vqw`` while the job waits for the server JSV (beyond Grid Engine)."""
    if job.verify_wait is not None:
        return "vqw"
    return display_state(TaskState.PENDING, held=is_held(core, job))


def task_state(task: Task) -> str:
    """A started task's state column; ``dt`` for one deleted before its execd started it."""
    if task.state is TaskState.DELETING and task.start_time is None:
        return display_state(TaskState.TRANSFERRING, held=False, deleting=True)
    shown = shown_state(task) or display_state(task.state, held=False)
    return f"R{shown}" if task.restarted and shown in ("r", "t") else shown


def usage(core: Core, job: Job, task: Task, now: float) -> dict[str, float]:
    """A running task's online usage: one CPU busy since it started, no memory or I/O;
    with ``execd_params SHARETREE_RESERVED_USAGE`` what it reserved (:mod:`reserved`)."""
    began = task.start_time or task.dispatch_time or now
    wallclock = max(0.0, now - began)
    if core.config.global_conf.execd_flag("sharetree_reserved_usage"):
        used = reserved(core, job, task, granted_pe(core, job, task), wallclock)
        return {"cpu": used.cpu, "mem": used.mem, "io": 0.0, "vmem": 0.0, "maxvmem": used.maxvmem}
    return {"cpu": wallclock, "mem": 0.0, "io": 0.0, "vmem": 0.0, "maxvmem": 0.0}


def _tasks(core: Core, job: Job, now: float) -> list[dict[str, Any]]:
    tasks = [
        {
            "task_id": t.task_id if job.array else None,
            "task_number": t.task_id if job.array else 1,
            "state": task_state(t),
            "queue": t.queue,
            "start_time": t.start_time,
            "exit_status": t.exit_status,
            "message": t.message,
            "usage": usage(core, job, t, now) if t.state in ACTIVE else None,
        }
        for t in sorted(job.tasks.values(), key=lambda t: t.task_id)
        if t.state is not TaskState.FINISHED
    ]
    if job.pending:
        tasks.append(
            {
                "task_id": format_id_runs(job.pending) if job.array else None,
                "task_number": job.pending[0] if job.array else 1,
                "state": pending_state(core, job),
                "queue": None,
                "start_time": None,
                "usage": None,
            }
        )
    return tasks


# complex(5) types and operators as Grid Engine numbers them (TYPE_*, CMPLX*_OP)
_TYPE = {"INT": 1, "STRING": 2, "TIME": 3, "MEMORY": 4, "BOOL": 5, "CSTRING": 6, "HOST": 7}
_TYPE |= {"DOUBLE": 8, "RESTRING": 9}
_RELOP = {"==": 1, ">=": 2, ">": 3, "<": 4, "<=": 5, "!=": 6, "EXCL": 7}


def requests(core: Core, pairs: Pairs | None) -> list[dict[str, Any]]:
    """A job's ``-l`` requests with the complex's type, operator and parsed value."""
    table = core.config.complexes
    out: list[dict[str, Any]] = []
    for name, text in pairs or ():
        entry = table.get(str(name))
        value: float | str = 0.0
        if entry is not None:
            try:
                value = entry.parse(str(text))
            except ValueError:
                value = 0.0
        out.append(
            {
                "name": entry.name if entry else str(name),
                "valtype": _TYPE.get(entry.type.value, 0) if entry else 0,
                "stringval": str(text),
                "doubleval": float(value) if isinstance(value, int | float) else 0.0,
                "relop": _RELOP.get(entry.relop.value, 0) if entry else 0,
                "consumable": bool(entry and entry.consumable.value != "NO"),
            }
        )
    return out


def _mail_list(job: Job) -> list[str]:
    given = [str(m) for m in job.spec.mail_list or ()]
    if given:
        return given
    env = as_map(job.spec.env)
    host = str(env.get("SGE_O_HOST") or job.owner.host)
    return [f"{job.owner.user}@{host}"]


def predecessors(core: Core, job: Job) -> list[int]:
    """The jobs named by ``-hold_jid`` that still exist."""
    return sorted({o.job_id for o in predecessors_of(core, job, job.hold_jids)})


def successors(core: Core, job: Job) -> list[int]:
    """The jobs whose ``-hold_jid`` names this one."""
    return sorted(core.jobs.waiting_for(job))


def detail(core: Core, job: Job, now: float) -> dict[str, Any]:
    """Everything ``qstat -j`` shows of one job."""
    tasks = _tasks(core, job, now)
    o = job.owner
    messages = scheduling_info(core, job, now)
    own = {text for _, text in messages}
    return {
        "job_id": job.job_id,
        "owner": o.user,
        "uid": o.uid,
        "group": o.group,
        "gid": o.gid,
        "submission_time": job.submit_time,
        "state": tasks[0]["state"] if tasks else "z",
        "job": job.spec.to_dict(),
        "exec_file": None if job.spec.binary else f"{EXEC_DIR}/{job.job_id}",
        "account": str(job.spec.account or DEFAULT_ACCOUNT),
        "mail_list": _mail_list(job),
        "l_hard": requests(core, job.spec.hard_resources),
        "l_soft": requests(core, job.spec.soft_resources),
        "predecessors": predecessors(core, job),
        "successors": successors(core, job),
        "tasks": tasks,
        "scheduling_info": [text for _, text in messages],
        "messages": [{"number": n, "text": t} for n, t in messages],
        "reasons": [r.as_dict() for r in core.reasons.get(job.job_id, []) if r.text in own],
    }
