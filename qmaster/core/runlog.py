"""``qconf -tsm``: the next scheduling pass tells what it decided, as Grid Engine's
scheduler writes ``$SGE_ROOT/$SGE_CELL/common/schedd_runlog`` after a trigger.

The request (managers only) marks the core; the next pass (at the next
``schedule_interval`` boundary, run even when nothing else changed) hands the
driver a :class:`~qmaster.core.effects.RunLog` with the lines Grid Engine's
``schedd_log()`` writes in that run, and the mark is gone. The daemon appends
them to the file, each after the run's time as ``ctime()`` prints it and a
``|``; the simulator drops them. Lines, in the order of Grid Engine's run:
``-------------START-SCHEDULER-RUN-------------``; the jobs split_jobs() drops
(``jobs dropped because of hold: 1 5``, ten ids a line, for the error, hold,
time and dependency lists); each queue instance dropped for every job
(disabled, full, overloaded) and the lists of disabled and full ones; then,
per job the pass looked at, ``Job <id> <reason>``; and
``--------------STOP-SCHEDULER-RUN-------------``. A pass without a trigger
does nothing more than before.
"""

from __future__ import annotations

from collections.abc import Iterable

from qmaster.core import lifecycle
from qmaster.core.effects import RunLog
from qmaster.core.errors import NotManager
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import HOOKS, handler
from qmaster.core.sched_info import DEPEND, ERROR, EXECTIME, HOLD, split_lists
from qmaster.core.stimuli import SchedMonitor
from qmaster.model import ok
from schedd.reasons import Reason

START = "-------------START-SCHEDULER-RUN-------------"
STOP = "--------------STOP-SCHEDULER-RUN-------------"
DROPPED = {  # trash_splitted_jobs()'s order, msg_schedd.h's MSG_LOG_JOBSDROPPED*
    ERROR: "jobs dropped because of error state: ",
    HOLD: "jobs dropped because of hold: ",
    EXECTIME: "jobs dropped because execution time not reached: ",
    DEPEND: "jobs dropped because of job dependencies: ",
}
QUEUE_LISTS = {
    "disabled": "queues dropped because they are disabled: ",
    "full": "queues dropped because they are full: ",
}
QUEUE_CODES = frozenset({"disabled", "full", "overloaded"})
"""Reasons about a queue instance dropped for every job (global messages in Grid Engine)."""
PER_LINE = 10  # schedd_log_list()'s NUM_ITEMS_ON_LINE


@handler(SchedMonitor)
def handle_sched_monitor(core: Core, args: SchedMonitor, now: float, out: Outcome) -> None:
    """qconf -tsm: managers may have the next scheduling run write its decisions."""
    who = args.identity
    if not core.is_manager(who):
        raise NotManager("starting scheduler monitoring requires manager privileges")
    core.monitor_next_pass = True
    core.mark_changed(now)
    out.answers.append(ok(f"{who.user}@{who.host} triggers scheduler monitoring"))


def run_pass(core: Core, now: float, out: Outcome) -> None:
    """The scheduling pass; after ``qconf -tsm`` it also hands over its run log."""
    if not core.monitor_next_pass:
        lifecycle.run_pass(core, now, out)
        return
    core.monitor_next_pass = False
    lines = [START, *dropped_jobs(core, now)]
    lifecycle.run_pass(core, now, out)
    lines += reason_lines(core.reasons.items())
    lines.append(STOP)
    out.emit(RunLog(now, tuple(lines)))


def dropped_jobs(core: Core, now: float) -> list[str]:
    """split_jobs()'s lists of jobs no pass looks at, as schedd_log_list() writes them."""
    ids: dict[int, list[int]] = {number: [] for number in DROPPED}
    for job in core.jobs.values():
        for number in split_lists(core, job, now):
            ids[number].append(job.job_id)
    return [line for n, text in DROPPED.items() for line in listed(text, map(str, ids[n]))]


def reason_lines(reasons: Iterable[tuple[int, Iterable[Reason]]]) -> list[str]:
    """The queue instances dropped for every job (each once, then the lists of disabled
    and full ones), then ``Job <id> <reason>`` for the jobs' own reasons."""
    queues: dict[str, str] = {}
    dropped: dict[str, list[str]] = {code: [] for code in QUEUE_LISTS}
    own: list[str] = []
    for job_id, found in reasons:
        for reason in found:
            text = reason.text
            if reason.code not in QUEUE_CODES:
                own.append(f"Job {job_id} {text}")
            elif text not in queues:
                queues[text] = reason.target
                dropped.get(reason.code, []).append(reason.target)
    lists = [line for c, text in QUEUE_LISTS.items() for line in listed(text, dropped[c])]
    return [*queues, *lists, *own]


def listed(text: str, items: Iterable[str]) -> list[str]:
    """``text`` and the items, ten a line (nothing for no items)."""
    found = list(items)
    return [text + " ".join(found[i : i + PER_LINE]) for i in range(0, len(found), PER_LINE)]


HOOKS.run_pass = run_pass
