"""Reserved usage: ``execd_params ACCT_RESERVED_USAGE`` / ``SHARETREE_RESERVED_USAGE``.

With them Grid Engine's execd reports what a task reserved rather than what it used
(build_reserved_usage()): cpu is the wall clock time times the task's slots, mem the
integral of its memory limit (the least of ``h_vmem`` and ``s_vmem``, the job's request
or the queue's limit; INFINITY counts 0) over the wall clock time in GB seconds, maxvmem
that limit times the slots. ACCT_RESERVED_USAGE puts it in the accounting record,
SHARETREE_RESERVED_USAGE in the online usage ``qstat -j`` shows.

The slots are every queue instance's granted slots, one more on the master's for a PE
with ``job_is_first_task FALSE``; a PE with ``control_slaves TRUE`` and
``accounting_summary FALSE`` accounts its master task's slot only (its slave tasks
would report their own, and minige's simulated hosts run none).
"""

from __future__ import annotations

import dataclasses

from qmaster.complexes.values import parse_bool, parse_memory
from qmaster.core.jobs import Job, Task
from qmaster.core.machine import Core
from qmaster.events.records import Acct

GIB = 1024.0**3


@dataclasses.dataclass(frozen=True, slots=True)
class Reserved:
    cpu: float
    mem: float
    maxvmem: float


def reserved(core: Core, job: Job, task: Task, pe_name: str, wallclock: float) -> Reserved:
    """What the task reserved in ``wallclock`` seconds of running."""
    if wallclock <= 0:
        return Reserved(0.0, 0.0, 0.0)
    pe = core.config.pes.get(pe_name) if pe_name and pe_name != "NONE" else None
    granted = list(task.assignment)
    if (
        pe is not None
        and _true(pe.attrs.get("control_slaves", "FALSE"))
        and not _true(pe.attrs.get("accounting_summary", "FALSE"))
    ):
        granted = granted[:1] and [(granted[0][0], 1)]
    elif pe is not None and not _true(pe.attrs.get("job_is_first_task", "TRUE")) and granted:
        granted[0] = (granted[0][0], granted[0][1] + 1)
    slots = sum(n for _, n in granted) if granted else task.slots or job.slots
    vmem = sum(_vmem(core, job, qi) * n for qi, n in granted)
    return Reserved(wallclock * slots, vmem * wallclock / GIB, vmem)


def accounted(core: Core, job: Job, task: Task, record: Acct) -> Acct:
    """The accounting record with the reserved usage when ACCT_RESERVED_USAGE is set."""
    if not core.config.global_conf.execd_flag("acct_reserved_usage"):
        return record
    used = reserved(core, job, task, record.granted_pe, float(record.ru_wallclock))
    return dataclasses.replace(record, cpu=used.cpu, mem=used.mem, maxvmem=used.maxvmem)


def _vmem(core: Core, job: Job, qi_name: str) -> float:
    """The task's memory limit in one queue instance, per slot (0 for none)."""
    qi = core.queue_instance(qi_name)
    least = float("inf")  # calculate_reserved_vmem(): MIN(h_vmem, s_vmem), INFINITY counts 0
    for name in ("h_vmem", "s_vmem"):
        asked = job.spec.resource(name)
        limit = parse_memory(asked) if asked else None
        queue_limit = qi.limits.get(name) if qi is not None else None
        if queue_limit is not None:
            limit = queue_limit if limit is None else min(limit, queue_limit)
        if limit is not None:
            least = min(least, limit)
    return 0.0 if least == float("inf") else least


def _true(value: str) -> bool:
    """A PE's boolean (checked when the PE was stored) as the complexes' BOOL reads it."""
    return bool(parse_bool(value))
