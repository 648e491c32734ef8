"""The resource quota limits a scheduling pass checks, with what running tasks use.

Nothing is done while no set is enabled: the pass gets no limits and the bookings keep
no counts. Otherwise the counts (:class:`~qmaster.rqs.usage.Usage`) ride on the core's
bookings, changed as each task is booked or released; they are made afresh from the
booked tasks only when the configuration changes (sets, usersets, host groups).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from qmaster.conf.state import ConfState
from qmaster.core.schedjobs import job_request
from qmaster.rqs.match import Groups
from qmaster.rqs.usage import QuotaBookings, Quotas, Requester, Usage
from schedd.quota import PassQuota
from schedd.view import View

if TYPE_CHECKING:
    from qmaster.core.machine import Core


def quotas_of(state: ConfState) -> Quotas | None:
    """The enabled sets of a configuration (None: none is enabled)."""
    sets = tuple(conf.rqs for conf in state.rqs.values() if conf.rqs.enabled)
    if not sets:
        return None
    members = {name: frozenset(u.entries) for name, u in state.usersets.items()}
    hosts: dict[str, frozenset[str]] = {}

    def hostgroup(name: str) -> frozenset[str]:
        found = hosts.get(name)
        if found is None:
            found = hosts[name] = frozenset(state.hosts_of_group(name))
        return found

    groups = Groups(lambda: members, hostgroup, state.hostgroups.keys)
    return Quotas(sets, groups, state.complexes)


def requester(core: Core, job_id: int) -> Requester | None:
    """A running job as the rules see it (None: gone, or in an advance reservation,
    which resource quotas do not count)."""
    job = core.jobs.get(job_id)
    if job is None or job.spec.ar:
        return None
    request = job_request(job, ())
    table = core.config.complexes
    requests = {}
    for name, value in request.hard_resources.items():
        entry = table.get(name)
        requests[entry.name if entry is not None else name] = value
    return Requester(request.owner, request.group, request.project, requests)


def usage(core: Core) -> Usage | None:
    """The counts of the running tasks under the current enabled sets (None: no set)."""
    booked = core.booked
    if not isinstance(booked, QuotaBookings):
        return None
    state = core.config.state
    if not state.rqs:
        booked.quota = None
        return None
    kept = booked.quota
    if kept is not None and kept.token is state:
        return kept
    quotas = quotas_of(state)
    if quotas is None:
        booked.quota = None
        return None
    kept = Usage(state, quotas, partial(requester, core))
    for task, debits in booked.by_task.items():  # once per configuration change
        kept.booked(task, debits)
    booked.quota = kept
    return kept


def pass_quota(core: Core, view: View) -> PassQuota | None:
    """The limits of one pass over ``view`` (None: no enabled set)."""
    counted = usage(core)
    if counted is None:
        return None
    hosts = view.hosts

    def host_value(host: str, name: str) -> float | None:
        state = hosts.get(host)
        value = state.level.values.get(name) if state is not None else None
        return value if isinstance(value, float) else None

    return PassQuota(counted.quotas, counted.totals, host_value)
