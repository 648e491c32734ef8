"""The daemon's recovery: the core rebuilt from the spool, in time and memory that follow
the number of jobs.

Job rows are decoded one at a time (:meth:`Spool.load_lazily`); each distinct
specification text is decoded once and its JobSpec shared by the jobs that spooled it
(:func:`~qmaster.core.jobspec.from_spooled`: at a million jobs recovery costs about
10 µs of CPU a job, see ``python -m bench.job_memory``); the cyclic garbage collector
is off while the rows become objects (it
would walk every object made so far, again and again) and the recovered objects are
then frozen out of its walks, since they live as long as their jobs. One log line,
``state_recovered``, says how many jobs, tasks and advance reservations came back and
in how long.
"""

from __future__ import annotations

import gc

from qmaster import logs
from qmaster.clock import Clock
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings
from qmaster.core.machine import recovered_tasks
from qmaster.spool import damage
from qmaster.spool.database import Spool, SpoolError
from qmaster.workdirs import workdir_error

log = logs.get("qmaster")


class RecoveryFailed(Exception):
    """The spooled state cannot be read back; the message says why."""


def recover_core(
    spool: Spool,
    settings: CoreSettings,
    clock: Clock,
    *,
    ignore_errors: bool,
    freeze: bool = True,
) -> Core:
    """The core as ``spool`` holds it (damaged rows skipped with ``ignore_errors``); with
    ``freeze``, the recovered state is frozen out of the collector's walks
    (:mod:`qmaster.gcpolicy`: a daemon process's, not a test process's)."""
    started = clock.monotonic()
    collecting = gc.isenabled()
    rows = damage.TrackedRows(())
    gc.disable()
    try:
        snap = spool.load_lazily(ignore_errors=ignore_errors)
        if ignore_errors:  # rows that decode but are not jobs, tasks or ARs are left out
            snap.jobs = damage.loadable_jobs(snap.jobs)
            snap.tasks, snap.ars = damage.loadable_tasks(snap.tasks), damage.loadable_ars(snap.ars)
        rows = damage.TrackedRows(snap.jobs)
        core = Core.recover(
            ClusterConfig.from_rows(snap.config),
            settings,
            rows,
            snap.tasks,
            snap.counters,
            clock.now(),
            ars=snap.ars,
            story=snap.story,
            workdir_error=workdir_error,
        )
    except SpoolError as exc:
        raise RecoveryFailed(f"cannot recover the spooled state: {exc}") from exc
    except damage.ROW_ERRORS as exc:
        raise RecoveryFailed(damage.refusal(spool.path, rows, exc)) from exc
    finally:
        if collecting:
            gc.enable()
    if freeze:
        gc.freeze()
    log.info(
        "state_recovered",
        jobs=len(core.jobs),
        tasks=recovered_tasks(core),
        ars=len(core.ars),
        seconds=round(clock.monotonic() - started, 3),
    )
    return core
