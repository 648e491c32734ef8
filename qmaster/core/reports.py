"""Build the reporting and accounting records for a job's state changes.

The core calls these; the driver hands the records to the event files and to
``qevent`` subscribers. Job-log state words follow Grid Engine's reporting(5).
"""

from __future__ import annotations

from collections.abc import Iterable

from qmaster.core.jobs import Job, Task
from qmaster.core.jobspec import Pairs
from qmaster.events.records import Acct, JobLog, NewJob

NONE = "NONE"
DEPARTMENT = "defaultdepartment"


def _sorted_list(option: str, items: Iterable[str]) -> str:
    return f"{option} " + ",".join(sorted(items))


def _resources(option: str, requests: Pairs) -> str:
    return f"{option} " + ",".join(f"{k}={v}" for k, v in sorted(requests))


def category(job: Job) -> str:
    """The job category accounting(5) records, built as Grid Engine builds it.

    In Grid Engine's order: hard queues, master queues, hard and soft resource
    requests (each sorted by name), PE and slot range, checkpoint environment,
    ``-I y`` for an immediate job, AR.
    """
    spec = job.spec
    parts = []
    if spec.hard_queues:
        parts.append(_sorted_list("-q", spec.hard_queues))
    if spec.master_queues:
        parts.append(_sorted_list("-masterq", spec.master_queues))
    if spec.hard_resources:
        parts.append(_resources("-l", spec.hard_resources))
    if spec.soft_resources:
        parts.append(_resources("-soft -l", spec.soft_resources))
    if spec.pe_name:
        low = spec.pe_min or 1
        high = spec.pe_max or low
        span = f"{low}-{high}" if high != low else f"{low}"
        parts.append(f"-pe {spec.pe_name} {span}")
    if spec.ckpt:
        parts.append(f"-ckpt {spec.ckpt}")
    if spec.immediate:
        parts.append("-I y")
    if spec.ar:
        parts.append(f"-ar {spec.ar}")
    return " ".join(parts) or NONE


# the job's fields of new_job and job_log records: reporting(5) carries the stored priority,
# which Grid Engine keeps as 1024 + -p


def new_job(job: Job, now: float) -> NewJob:
    """The ``new_job`` record of a submission."""
    spec, owner = job.spec, job.owner
    return NewJob(
        time=int(now),
        submission_time=int(job.submit_time),
        job_number=job.job_id,
        task_number=-1,  # "no array task yet", for every job
        pe_taskid=NONE,
        job_name=spec.name or "",
        owner=owner.user,
        group=owner.group,
        project=str(spec.project or NONE),
        department=DEPARTMENT,
        account=str(spec.account or "sge"),
        priority=(spec.priority or 0) + 1024,
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
    spec, owner = job.spec, job.owner
    return JobLog(
        time=int(now),
        event_time=int(now),
        event=event,
        job_number=job.job_id,
        task_number=task_id,
        pe_taskid=NONE,
        state=state,
        user=user or owner.user,
        host=host or owner.host,
        state_time=0,
        submission_time=int(job.submit_time),
        job_name=spec.name or "",
        owner=owner.user,
        group=owner.group,
        project=str(spec.project or NONE),
        department=DEPARTMENT,
        account=str(spec.account or "sge"),
        priority=(spec.priority or 0) + 1024,
        message=message,
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
        account=str(job.spec.account or "sge"),
        priority=job.priority,
        submission_time=int(job.submit_time),
        start_time=start,
        end_time=end,
        failed=task.failed,
        exit_status=task.exit_status,
        ru_wallclock=max(0, end - start) if start else 0,
        project=str(job.spec.project or NONE),
        granted_pe=granted_pe,
        slots=task.slots or job.slots,
        task_number=task.task_id,
        arid=(job.spec.ar or 0),
        category=category(job),
        ar_submission_time=ar_submission_time,
    )
