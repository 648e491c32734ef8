"""Calendars over time: which queue instances their calendar disables (``D``) or suspends (``C``).

The core is told the time: :func:`refresh` works out each queue instance's
calendar state at ``now``, applies what changed (jobs in a queue instance
suspended by its calendar are suspended, ``S``; advance reservations on it
go into error), and sets one ``qcal`` timer for the next change of any
calendar in use. A configuration change and the timer call it again.
"""

from __future__ import annotations

from datetime import datetime

from qmaster.conf import fields as f
from qmaster.conf.calendar import CalendarConf, next_change, state_at
from qmaster.core import arlife, suspension
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS, Timer

TIMER = "qcal"
LETTER = {"off": "D", "suspended": "C"}


def _evaluate(cal: CalendarConf, now: float) -> tuple[str | None, float | None]:
    moment = datetime.fromtimestamp(now)
    letter = LETTER.get(state_at(cal, moment))
    nxt = next_change(cal, moment)
    return letter, nxt.timestamp() if nxt else None


def calendar_letters(core: Core, now: float) -> tuple[dict[str, str], float | None]:
    """Each queue instance's calendar state letter at ``now``, and the next change."""
    per_calendar: dict[str, tuple[str | None, float | None]] = {}
    letters: dict[str, str] = {}
    for qi in core.config.queue_instances():
        name = qi.attrs.get("calendar", "NONE")
        cal = None if f.is_none(name) else core.config.calendars.get(name)
        if cal is None:
            continue
        if name not in per_calendar:
            per_calendar[name] = _evaluate(cal, now)
        letter = per_calendar[name][0]
        if letter:
            letters[qi.name] = letter
    changes = [at for _, at in per_calendar.values() if at is not None]
    return letters, min(changes, default=None)


def refresh(core: Core, now: float, out: Outcome, *, recheck: bool = False) -> None:
    """Take the calendars' states at ``now`` into use and plan the next look.

    ``recheck`` also looks at every queue instance holding a task suspended by its
    queue (after a restart, a calendar may have moved on while the qmaster was down).
    """
    old = core.qi_calendar
    new, next_at = calendar_letters(core, now)
    core.qi_calendar = new
    changed = {n for n in set(old) | set(new) if old.get(n) != new.get(n)}
    if recheck:
        changed |= _queue_suspended(core)
    for name in sorted(changed):
        suspension.follow_queue(core, name, now, out)
        out.log("queue_calendar_state", queue=name, state=new.get(name, ""))
    if changed:
        if core.ars:
            arlife.check_resources(core, now, out)
        core.request_pass(now)
    if next_at is not None and next_at != core.qcal_at:
        core.qcal_at = next_at
        core.set_timer(next_at, TIMER, 0, 0)


def _queue_suspended(core: Core) -> set[str]:
    """The queue instances holding a task suspended by its queue. A suspended task runs, and
    a running task books its slots: the bookings name them (not every job of the cell)."""
    found: set[str] = set()
    jobs = core.jobs
    for job_id, task_id in core.booked.by_task:
        job = jobs.get(job_id)  # None for an AR's booking (ids <= 0)
        task = job.tasks.get(task_id) if job is not None else None
        if task is not None and task.queue and suspension.BY_QUEUE in task.suspended:
            found.add(task.queue)
    return found


def fire(core: Core, now: float, out: Outcome) -> None:
    """The ``qcal`` timer: a calendar may have changed its state."""
    core.qcal_at = None
    refresh(core, now, out, recheck=True)


def _fire_timer(core: Core, _timer: Timer, now: float, out: Outcome) -> None:
    fire(core, now, out)


HOOKS.timers[TIMER] = _fire_timer
