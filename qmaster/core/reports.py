"""Build the reporting and accounting records for a job's state changes.

The core calls these; the driver hands the records to the event files and to
``qevent`` subscribers. Job-log state words follow Grid Engine's reporting(5).
"""

from __future__ import annotations

from qmaster.core.jobs import Job, Task
from qmaster.events.records import Acct, JobLog, NewJob

NONE = "NONE"


def _common(job: Job) -> dict[str, object]:
    return {
        "submission_time": int(job.submit_time),
        "job_name": job.name,
        "owner": job.owner.user,
        "group": job.owner.group,
        "project": str(job.spec.get("P") or NONE),
        "department": "defaultdepartment",
        "account": str(job.spec.get("A") or "sge"),
        # reporting(5) carries the stored priority, which Grid Engine keeps as 1024 + -p
        "priority": job.priority + 1024,
    }


def _sorted_list(option: str, items: list[str]) -> str:
    return f"{option} " + ",".join(sorted(items))


def _resources(option: str, requests: dict[str, str]) -> str:
    return f"{option} " + ",".join(f"{k}={requests[k]}" for k in sorted(requests))


def category(job: Job) -> str:
    """The job category accounting(5) records, built as Grid Engine builds it.

    In Grid Engine's order: hard queues, master queues, hard and soft resource
    requests (each sorted by name), PE and slot range, checkpoint environment,
    ``-I y`` for an immediate job, AR.
    """
    spec = job.spec
    parts = []
    if spec.get("q_hard"):
        parts.append(_sorted_list("-q", spec["q_hard"]))
    if spec.get("masterq"):
        parts.append(_sorted_list("-masterq", spec["masterq"]))
    if spec.get("l_hard"):
        parts.append(_resources("-l", spec["l_hard"]))
    if spec.get("l_soft"):
        parts.append(_resources("-soft -l", spec["l_soft"]))
    if spec.get("pe_name"):
        low, high = spec.get("pe_min", 1), spec.get("pe_max", spec.get("pe_min", 1))
        span = f"{low}-{high}" if high != low else f"{low}"
        parts.append(f"-pe {spec['pe_name']} {span}")
    if spec.get("ckpt"):
        parts.append(f"-ckpt {spec['ckpt']}")
    if spec.get("now"):
        parts.append("-I y")
    if spec.get("ar"):
        parts.append(f"-ar {spec['ar']}")
    return " ".join(parts) or NONE


def new_job(job: Job, now: float) -> NewJob:
    """The ``new_job`` record of a submission."""
    return NewJob(
        time=int(now),
        job_number=job.job_id,
        task_number=-1,  # "no array task yet", for every job
        pe_taskid=NONE,
        **_common(job),  # type: ignore[arg-type]
    )


def job_log(
    job: Job,
    task_id: int,
    event: str,
    state: str,
    now: float,
    *,
    user: str = "",
    host: str = "",
    message: str = "",
) -> JobLog:
    """A ``job_log`` record: one state change of a job or of one array task."""
    return JobLog(
        time=int(now),
        event_time=int(now),
        event=event,
        job_number=job.job_id,
        task_number=task_id,
        pe_taskid=NONE,
        state=state,
        user=user or job.owner.user,
        host=host or job.owner.host,
        state_time=0,
        message=message,
        **_common(job),  # type: ignore[arg-type]
    )


def acct(
    job: Job, task: Task, now: float, *, ar_submission_time: int = 0, granted_pe: str = NONE
) -> Acct:
    """The accounting record of a finished task (``granted_pe``: the PE it ran in)."""
    qi = task.queue or "NONE@NONE"
    qname, _, host = qi.partition("@")
    start = int(task.start_time or 0)
    end = int(task.end_time or now)
    return Acct(
        time=int(now),
        qname=qname,
        hostname=host,
        group=job.owner.group,
        owner=job.owner.user,
        job_name=job.name,
        job_number=job.job_id,
        account=str(job.spec.get("A") or "sge"),
        priority=job.priority,
        submission_time=int(job.submit_time),
        start_time=start,
        end_time=end,
        failed=task.failed,
        exit_status=task.exit_status,
        ru_wallclock=max(0, end - start) if start else 0,
        project=str(job.spec.get("P") or NONE),
        granted_pe=granted_pe,
        slots=task.slots or job.slots,
        task_number=task.task_id,
        arid=int(job.spec.get("ar") or 0),
        category=category(job),
        ar_submission_time=ar_submission_time,
    )
