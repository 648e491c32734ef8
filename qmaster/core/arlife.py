"""What happens to advance reservations over time: start, end, deletion, errors, recovery.

Theory of operation. A granted AR is held in the core's booking calendar for
its window (what later grants see). Two timers drive it: ``ar_start`` moves it
``w -> r`` and books what it reserved into the core's live bookings — minus
what its own running jobs hold, so ordinary jobs cannot use it and its jobs
use it instead ("debited from the AR"); ``ar_end`` moves it to ``x``, deletes
its jobs and removes it. qrdel moves it to ``d``; it goes when its jobs have.
A configuration change re-checks every reserved queue instance: a missing
one (host left the hostlist, host or queue deleted) or one with fewer slots
than reserved puts a waiting AR into ``W`` and a running one into ``E``
(as Grid Engine's qmaster does; ``-he`` decides only whether its jobs are
still scheduled), and it returns to ``w``/``r`` when the resources do. Every move writes an
``ar_log`` reporting record with Grid Engine's event words.
"""

from __future__ import annotations

from typing import Any

from qmaster.complexes.booking import Debit
from qmaster.core import lifecycle
from qmaster.core.armembers import jobs_of
from qmaster.core.ars import LIVE, AdvanceReservation, ArState
from qmaster.core.jobs import Job
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.qinstances import letters
from qmaster.core.qstates import unusable
from qmaster.core.registry import HOOKS, Timer
from qmaster.core.states import TaskState
from qmaster.events.records import ArAcct, ArAttr, ArLog, NewAr

ACTIVE = (TaskState.TRANSFERRING, TaskState.RUNNING, TaskState.DELETING)


def booking_key(ar: AdvanceReservation) -> tuple[int, int]:
    """The key under which an AR's live booking sits among the tasks' bookings."""
    return (-ar.ar_id, 0)


# -- records ------------------------------------------------------------------------


def log(ar: AdvanceReservation, event: str, now: float, message: str, out: Outcome) -> None:
    t = int(now)
    out.reports.append(
        ArLog(t, t, int(ar.submission_time), ar.ar_id, ar.state.value, event, message)
    )
    out.log("ar_state_changed", ar_id=ar.ar_id, state=ar.state.value, ar_event=event)


def _resources(ar: AdvanceReservation) -> str:
    items = ar.spec.hard_resources or ()
    return ",".join(f"{k}={v}" for k, v in items) or "NONE"


def _created_records(ar: AdvanceReservation, now: float, out: Outcome) -> None:
    t, sub = int(now), int(ar.submission_time)
    out.reports.append(NewAr(t, sub, ar.ar_id, ar.owner.user))
    out.reports.append(
        ArAttr(
            t,
            t,
            sub,
            ar.ar_id,
            ar.name or "NONE",
            ar.account,
            int(ar.start_time),
            int(ar.end_time),
            ar.granted_pe or "",
            _resources(ar),
        )
    )
    log(ar, "CREATED", now, "advance reservation created", out)


def _acct_records(ar: AdvanceReservation, now: float, out: Outcome) -> None:
    t, sub = int(now), int(ar.submission_time)
    for qi, slots in ar.granted:
        cqueue, _, host = qi.partition("@")
        out.reports.append(ArAcct(t, t, sub, ar.ar_id, cqueue, host, slots))


# -- the life ------------------------------------------------------------------------


def add(core: Core, ar: AdvanceReservation, now: float, out: Outcome) -> None:
    """Take a just-granted AR into the core: calendar, timers, spool, records."""
    core.ars[ar.ar_id] = ar
    core.ar_calendar.book(ar.ar_id, ar.debits, ar.start_time, ar.end_time)
    core.set_timer(ar.start_time, "ar_start", ar.ar_id, 0)
    core.set_timer(ar.end_time, "ar_end", ar.ar_id, 0)
    _created_records(ar, now, out)
    if core.qi_states or core.qi_calendar:  # granted on a disabled or suspended instance
        check_resources(core, now, out)
    spool(core, ar, out)
    core.request_pass(now)


def spool(core: Core, ar: AdvanceReservation, out: Outcome) -> None:
    out.spool.ars[ar.ar_id] = ar.to_row()


def fire(core: Core, timer: Timer, now: float, out: Outcome) -> None:
    """An AR's timer is due; timers of ARs gone or already moved on are ignored."""
    ar = core.ars.get(timer.job_id)
    if ar is None:
        return
    if timer.kind == "ar_start" and ar.state in LIVE and now < ar.end_time:
        begin(core, ar, now, out)
    elif timer.kind == "ar_end" and ar.state is not ArState.EXITED and now >= ar.end_time:
        end(core, ar, now, out)


def begin(core: Core, ar: AdvanceReservation, now: float, out: Outcome) -> None:
    """The start time is reached: the AR runs (``W``, waiting in error, becomes ``E``)."""
    if ar.state is ArState.WAITING:
        ar.move(ArState.RUNNING, "start time reached")
    elif ar.state is ArState.WARNING:
        ar.move(ArState.ERROR, "start time reached with reserved resources unsatisfied")
    # stamped with the AR's own start, also when the timer fires late (after a restart)
    at = min(now, max(ar.start_time, 0.0))
    log(ar, "START TIME REACHED", at, "start time of advance reservation reached", out)
    rebook(core, ar, now)
    spool(core, ar, out)
    core.request_pass(now)


def end(core: Core, ar: AdvanceReservation, now: float, out: Outcome) -> None:
    """The end time is reached: delete its jobs, account it, remove it."""
    ar.move(ArState.EXITED, "end time reached")
    log(
        ar,
        "END TIME REACHED",
        min(now, ar.end_time),
        "end time of advance reservation reached",
        out,
    )
    for job in jobs_of(core, ar.ar_id):
        _delete_job(core, job, now, out, force=True)
    remove(core, ar, now, out)


def delete(
    core: Core, ar: AdvanceReservation, user: str, force: bool, now: float, out: Outcome
) -> bool:
    """qrdel: delete the AR's jobs, then the AR. True when jobs keep it for a while."""
    if ar.state is not ArState.DELETED:
        ar.move(ArState.DELETED, f"qrdel by {user}")
        log(ar, "DELETED", now, "AR deleted", out)
    for job in jobs_of(core, ar.ar_id):
        _delete_job(core, job, now, out, force=force)
    if ar.ar_id not in core.ars:  # its last job went as it was deleted (a second qrdel)
        return False
    if jobs_of(core, ar.ar_id):
        ar.delete_pending = True
        spool(core, ar, out)
        return True
    remove(core, ar, now, out)
    return False


def remove(core: Core, ar: AdvanceReservation, now: float, out: Outcome) -> None:
    """Forget an AR whose jobs have gone."""
    _acct_records(ar, now, out)
    log(ar, "TERMINATED", now, "advance reservation removed", out)
    core.booked.release(booking_key(ar))
    core.ar_calendar.cancel(ar.ar_id)
    del core.ars[ar.ar_id]
    out.spool.ars[ar.ar_id] = None
    core.request_pass(now)


def _delete_job(core: Core, job: Job, now: float, out: Outcome, *, force: bool) -> None:
    """Pending tasks and tasks in error state (``Eqw``) go at once, never having run (Grid
    Engine's ``sge_ar_remove_all_jobs``); active ones are killed, or registered for deletion."""
    for task_id in job.pending.copy():
        if job.job_id in core.jobs:
            lifecycle.finish_pending(core, job, task_id, now, out)
    for task in list(job.tasks.values()):
        if job.job_id not in core.jobs:
            break
        if task.state is TaskState.ERROR:
            lifecycle.finish(
                core, job, task, now, out, exit_status=0, event="deleted", account=False
            )
            continue
        if task.state not in ACTIVE:
            continue
        if force:
            lifecycle.force_deletion(core, job, task, "advance reservation gone", now, out)
        elif task.state is not TaskState.DELETING:
            lifecycle.register_deletion(core, job, task, "advance reservation deleted", now, out)


def job_left(core: Core, job: Job, now: float, out: Outcome) -> None:
    """A task of an AR job ended: give its resources back to the AR, or let the AR go."""
    ar = core.ars.get(job.spec.ar or 0)
    if ar is None or ar.state is ArState.EXITED:
        return
    if ar.delete_pending and not _has_live_jobs(core, ar.ar_id):
        remove(core, ar, now, out)
        return
    rebook(core, ar, now)


def job_in_error(core: Core, job: Job, now: float, out: Outcome) -> None:
    """A task of an AR job went into error state: its slots are the AR's again; the job of an
    AR being deleted goes at once (its other tasks are already registered for deletion)."""
    ar = core.ars.get(job.spec.ar or 0)
    if ar is None or ar.state is ArState.EXITED:
        return
    if ar.delete_pending:
        _delete_job(core, job, now, out, force=False)
        return
    rebook(core, ar, now)


def _has_live_jobs(core: Core, ar_id: int) -> bool:
    for j in jobs_of(core, ar_id):
        if j.pending or any(t.state is not TaskState.FINISHED for t in j.tasks.values()):
            return True
    return False


def rebook(core: Core, ar: AdvanceReservation, now: float) -> None:
    """Book, while the window is open, what the AR reserved minus what its jobs hold."""
    key = booking_key(ar)
    if ar.state not in LIVE or not ar.in_window(now):
        core.booked.release(key)
        return
    left: dict[tuple[str, str, str], float] = {}
    for kind, name, attr, amount in ar.debits:
        left[(kind, name, attr)] = left.get((kind, name, attr), 0.0) + amount
    for job in jobs_of(core, ar.ar_id):
        for task in job.tasks.values():
            for kind, name, attr, amount in core.booked.by_task.get((job.job_id, task.task_id), ()):
                if (kind, name, attr) in left:
                    left[(kind, name, attr)] -= amount
    remaining: list[Debit] = [(k, n, a, v) for (k, n, a), v in left.items() if v > 1e-9]
    core.booked.book(key, remaining)


# -- errors --------------------------------------------------------------------------


def problems(core: Core, ar: AdvanceReservation) -> list[str]:
    """Why an AR's reserved queue instances are no longer all there (qrstat -explain)."""
    out: list[str] = []
    for name, slots in ar.granted:
        qi = core.queue_instance(name)
        if qi is None:
            out.append(f"reserved queue {name} is unknown")
        elif qi.slots < slots:
            out.append(f"reserved queue {name} offers only {qi.slots} of {slots} reserved slots")
        else:
            out.extend(f"reserved queue {name} is {s}" for s in unusable(letters(core, name)))
    return out


def check_resources(core: Core, now: float, out: Outcome) -> None:
    """After a configuration change: put ARs into error, or take them out of it."""
    for ar in list(core.ars.values()):
        if ar.state not in LIVE:
            continue
        found = problems(core, ar)
        if found and ar.state in (ArState.WAITING, ArState.RUNNING):
            bad = ArState.ERROR if ar.state is ArState.RUNNING else ArState.WARNING
            ar.move(bad, "reserved resources unsatisfied")
            ar.messages = found
            log(ar, "RESOURCES UNSATISFIED", now, "; ".join(found), out)
        elif not found and ar.state in (ArState.ERROR, ArState.WARNING):
            good = ArState.RUNNING if ar.start_time <= now else ArState.WAITING
            ar.move(good, "reserved resources satisfied")
            ar.messages = []
            log(ar, "RESOURCES SATISFIED", now, "reserved resources are available again", out)
        elif found == ar.messages:
            continue
        else:
            ar.messages = found
        spool(core, ar, out)


# -- recovery ------------------------------------------------------------------------


def restore(core: Core, rows: list[dict[str, Any]], counters: dict[str, int], now: float) -> None:
    """After a restart: the ARs, their calendar, live bookings and timers.

    A start or end that passed while the daemon was down fires once, at the
    first tick: the timers are due, and the states were spooled.
    """
    for row in rows:
        ar = AdvanceReservation.from_row(row)
        core.ars[ar.ar_id] = ar
        core.ar_calendar.book(ar.ar_id, ar.debits, ar.start_time, ar.end_time)
        if ar.state is ArState.WAITING or (ar.state in LIVE and ar.start_time > now):
            core.set_timer(ar.start_time, "ar_start", ar.ar_id, 0)
        core.set_timer(ar.end_time, "ar_end", ar.ar_id, 0)
        if ar.start_time <= now:
            rebook(core, ar, now)
    highest = max(core.ars, default=0)
    core.next_ar_id = counters.get("ar") or highest % 9_999_999 + 1


HOOKS.timers["ar_*"] = fire
HOOKS.restore_ars = restore
HOOKS.job_left = job_left
HOOKS.job_in_error = job_in_error
