"""The end of a task that ran as a real process (``execution = "local"``).

In local mode the core plans no end for a started task (see
:func:`qmaster.core.lifecycle.end_of_run`): it runs until its driver reports
:class:`~qmaster.core.stimuli.TaskEnded`, which is accounted as Grid Engine's
execd reports a job its shepherd reaped: the real exit status, ``failed``
100 for a job that died through a signal, and the child's resource usage.
A task it could not start goes into error state (``Eqw``) with the reason (and
its attempt is accounted with the shepherd's ``failed`` code: 26 an output file, 27
the shell, 28 the working directory); a job that exits 99 is rescheduled, one
that exits 100 goes into error state, as Grid Engine's shepherd has them.
A report about a task no longer running (killed by qdel or ``h_rt``, which the
core has accounted already) changes nothing; one about a task being deleted
(a ``-notify`` job that ended on its SIGUSR2) is accounted as it ended.
"""

from __future__ import annotations

import dataclasses

from qmaster.core import reports, reserved
from qmaster.core.execsignals import FAILED_AFTER_JOB
from qmaster.core.jobs import Job, Task
from qmaster.core.lifecycle import finish, slots_returned
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import handler
from qmaster.core.reschedule import account_run, requeue
from qmaster.core.states import TaskState
from qmaster.core.stimuli import TaskEnded
from qmaster.events.records import Acct

ENDING = frozenset({TaskState.RUNNING, TaskState.DELETING})
# a job's exit status with a meaning to Grid Engine's shepherd (unless the execd_params
# FORBID_RESCHEDULE/FORBID_APPERROR say otherwise): 99 runs it again (failed 25), 100
# puts it into error state (failed 30, "rescheduling on application error")
RESCHEDULE_EXIT_STATUS = 99
APPERROR_EXIT_STATUS = 100
FAILED_APPERROR = 30
APPERROR_MESSAGE = "exit_status of job start = 100"


@handler(TaskEnded)
def handle_task_ended(core: Core, args: TaskEnded, now: float, out: Outcome) -> None:
    """Account the task's end with what its process really did."""
    job = core.jobs.get(args.job_id)
    task = job.tasks.get(args.task_id) if job else None
    if job is None or task is None or task.state not in ENDING:
        return
    if args.error:  # a task being deleted that could not start ends with its deletion
        if task.state is TaskState.RUNNING:
            if args.failed:  # its shepherd tried: the attempt is accounted
                account_run(core, job, task, now, out, args.failed)
            not_started(core, job, task, args.error, now, out)
        return
    if task.state is TaskState.RUNNING and not args.signalled:
        usage = {"ru_utime": args.ru_utime, "ru_stime": args.ru_stime, "ru_maxrss": args.ru_maxrss}
        if args.exit_status == RESCHEDULE_EXIT_STATUS:
            requeue(core, job, task, "exit 99", now, out, exit_status=99, usage=usage)
            return
        if args.exit_status == APPERROR_EXIT_STATUS:
            account_run(core, job, task, now, out, FAILED_APPERROR, 100, usage)
            not_started(core, job, task, APPERROR_MESSAGE, now, out)
            return
    failed = FAILED_AFTER_JOB if args.signalled else 0
    # a -notify job being deleted may end by itself on its SIGUSR2 before the SIGKILL
    event = "deleted" if task.state is TaskState.DELETING else "finished"
    first = len(out.reports)
    finish(core, job, task, now, out, exit_status=args.exit_status, event=event, failed=failed)
    for i, record in enumerate(out.reports[first:], first):
        if isinstance(record, Acct):
            used = dataclasses.replace(
                record,
                ru_utime=args.ru_utime,
                ru_stime=args.ru_stime,
                ru_maxrss=args.ru_maxrss,
                cpu=args.ru_utime + args.ru_stime,
            )
            out.reports[i] = reserved.accounted(core, job, task, used)


def not_started(core: Core, job: Job, task: Task, why: str, now: float, out: Outcome) -> None:
    """The execution host could not start the task: its job goes into error state, as
    when its working directory is missing (the slots are free again)."""
    core.booked.release((job.job_id, task.task_id))
    core.mark_changed(now)
    task.move(job.job_id, TaskState.ERROR, "the execd could not start it")
    task.message = why
    task.assignment = ()
    task.start_time = None
    task.plan = None
    core.spool_task(out, job, task)
    out.reports.append(
        reports.job_log(job, task.task_id, "error", task.state.value, now, message=why)
    )
    slots_returned(core, job, now, out)
