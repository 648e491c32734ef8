"""qevent's Grid Engine modes over minige's event stream: ``-ts`` and ``-trigger``.

The events are the ``subscribe`` stream's dicts: ``new_job``, ``job_log``,
``acct`` (the reporting records) and ``job_del``/``jatask_del`` (a job, or
an array task other than its last, left the qmaster: Grid Engine's
``sgeE_JOB_DEL``/``sgeE_JATASK_DEL``, both keyed by job and task id).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

Event = dict[str, Any]

TRIGGER_EVENTS = {"JB_END": "job_del", "JB_TASK_END": "jatask_del"}
"""``-trigger`` event names -> the stream's event kind that fires them."""


class SuiteMode:
    """``-ts``: the lines qevent.c's ``print_jatask_event`` and its event loop print."""

    KINDS = ("new_job", "job_log", "acct", "job_del")

    def __init__(self, write: Callable[[int, str], bool], fd: int = 1) -> None:
        self.write = write
        self.fd = fd
        self.running = 0
        self.registered = 0

    def handle(self, event: Event) -> bool:
        """Print the lines for one event; False once standard output is gone."""
        line = self.line(event)
        if line is None:
            return True
        state = (
            f"ECL_STATE (jobs_running={self.running}:jobs_registered={self.registered}"
            f":ECL_TIME={int(time.time())})"
        )
        return self.write(self.fd, f"{line}\n{state}\n")

    def line(self, event: Event) -> str | None:
        """The event's line (counting jobs as qevent.c does), or None for one it skips."""
        kind = event.get("type")
        # the events' ja_task_id: 1 for a job without array tasks (its records say 0)
        key = f"{event.get('job_number', 0)}.{event.get('task_number') or 1}"
        stamp = f"ECL_TIME={event.get('time', 0)}"
        if kind == "new_job":
            self.registered += 1
            project = event.get("project") or "NONE"
            return f"JOB_ADD ({event.get('job_number', 0)}.0:{stamp}:project={project})"
        if kind == "job_log" and event.get("event") == "running":
            self.running += 1
            return f"JOB_START ({key}:{stamp})"
        if kind == "acct":
            self.running -= 1
            return f"JOB_FINISH ({key}:{stamp})"
        if kind == "job_del":
            self.registered -= 1
            return f"JOB_DEL ({key}:{stamp})"
        return None


class Triggers:
    """``-trigger EVENT SCRIPT``: each script of an arriving event runs, one after the other."""

    def __init__(self, triggers: Sequence[tuple[str, str]]) -> None:
        self.triggers = list(triggers)

    def handle(self, event: Event) -> bool:
        """Run the scripts registered for ``event``'s trigger event; always go on."""
        for name, script in self.triggers:
            if TRIGGER_EVENTS[name] == event.get("type"):
                run_script(script, name, int(event["job_number"]), int(event["task_number"]))
        return True


def run_script(script: str, name: str, job_id: int, task_id: int) -> int | None:
    """Run ``script`` (argv[0] its base name) with ``name job_id task_id``; wait for it.

    As qevent.c's ``qevent_start_trigger_script``: a script gone or no longer
    executable, or one ending with a non-zero status, is logged as an error.
    """
    if not os.path.isfile(script):
        print(f'error: no script file: "{script}"', file=sys.stderr)
        return None
    if not os.access(script, os.X_OK):
        print(f'error: file not executable: "{script}"', file=sys.stderr)
        return None
    argv = [os.path.basename(script), name, str(job_id), str(task_id)]
    try:
        status = subprocess.call(argv, executable=os.path.abspath(script))
    except OSError:
        print("error: fork() error", file=sys.stderr)
        return None
    if status != 0:
        print(f"error: exit status of script: {status & 0xFF}", file=sys.stderr)
    return status
