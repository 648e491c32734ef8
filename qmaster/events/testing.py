"""Factories for event records with plausible defaults, for tests and benchmarks.

Pure and standard library only. Each factory takes the fields a test cares
about and fills in the rest.
"""

from __future__ import annotations

from typing import Any

from qmaster.events.records import Acct, JobLog, NewJob


def new_job(t: int, job: int, **kw: Any) -> NewJob:
    """A ``new_job`` record for job ``job`` at time ``t``."""
    base: dict[str, Any] = {
        "time": t, "submission_time": t, "job_number": job, "task_number": -1,
        "pe_taskid": "NONE", "job_name": "sleep", "owner": "alice", "group": "staff",
        "project": "", "department": "defaultdepartment", "account": "sge", "priority": 0,
    }  # fmt: skip
    return NewJob(**(base | kw))


def job_log(t: int, event: str, job: int, task: int = 0, **kw: Any) -> JobLog:
    """A ``job_log`` record of ``event`` for ``job`` (``task`` 0: not an array job)."""
    base: dict[str, Any] = {
        "time": t, "event_time": t, "event": event, "job_number": job, "task_number": task,
        "pe_taskid": "NONE", "state": "r", "user": "qmaster", "host": "master",
        "state_time": 0, "submission_time": t, "job_name": "sleep", "owner": "alice",
        "group": "staff", "project": "", "department": "defaultdepartment",
        "account": "sge", "priority": 0, "message": "",
    }  # fmt: skip
    return JobLog(**(base | kw))


def acct(t: int, job: int, *, failed: int = 0, exit_status: int = 0, **kw: Any) -> Acct:
    """An ``acct`` record for ``job`` that ended at ``t``."""
    base: dict[str, Any] = {
        "time": t, "qname": "all.q", "hostname": "node001", "group": "staff",
        "owner": "alice", "job_name": "sleep", "job_number": job, "account": "sge",
        "priority": 0, "submission_time": t - 10, "start_time": t - 5, "end_time": t,
        "failed": failed, "exit_status": exit_status, "ru_wallclock": 5,
    }  # fmt: skip
    return Acct(**(base | kw))
