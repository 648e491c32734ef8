"""Configuration changes that would break a granted advance reservation are refused.

As Grid Engine's qmaster does, a change is refused, with its words, when an
AR still holding its resources (``w r W E``) could no longer be honoured:

* a queue's ``pe_list`` or ``ckpt_list`` on a reserved queue instance loses
  the AR's parallel environment or checkpoint object;
* a queue's ``slots`` on a reserved queue instance drops below what ARs
  reserve there;
* a queue's or host's ``user_lists``/``xuser_lists``, or a userset's
  ``entries``, lock out a user of an AR's access list;
* a parallel environment's ``slots`` drop below what ARs reserve in it;
* a queue's or host's ``complex_values`` drop (or remove) a consumable
  below what ARs reserve there.

A reserved queue instance that disappears (its host leaves the queue, the
queue or host is deleted) is not refused: the AR goes into error instead
(:func:`qmaster.core.arlife.check_resources`). Only the objects the change
touches are looked at.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from qmaster.conf import fields as f
from qmaster.conf.state import ConfState, QueueInstanceConf
from qmaster.core.argrant import principals
from qmaster.core.ars import LIVE, AdvanceReservation
from schedd import JobRequest
from schedd.matching import may_access

if TYPE_CHECKING:
    from qmaster.core.machine import Core

Usersets = Mapping[str, frozenset[str]]


def conflict(core: Core, new: ConfState) -> str | None:
    """Grid Engine's refusal if ``new`` would break a live AR, else None."""
    live = [ar for _, ar in sorted(core.ars.items()) if ar.state in LIVE]
    if not live:
        return None
    old = core.config.state
    return next(_problems(core, live, old, new), None)


def _problems(
    core: Core, live: list[AdvanceReservation], old: ConfState, new: ConfState
) -> Iterator[str]:
    for name, pe in new.pes.items():
        if pe is not old.pes.get(name):
            reserved = sum(ar.slots for ar in live if ar.granted_pe == name)
            if reserved > pe.slots:
                yield (
                    f"denied: lowering slots amount below {reserved} "
                    "would break advance reservations"
                )
    sets = {name: frozenset(u.entries) for name, u in new.usersets.items()}
    queues = {n for n, q in new.cqueues.items() if q is not old.cqueues.get(n)}
    hosts = {n for n, h in new.exechosts.items() if h is not old.exechosts.get(n)}
    users_changed = any(u is not old.usersets.get(n) for n, u in new.usersets.items())
    if not (queues or hosts or users_changed):
        return
    instances = {qi.name: qi for qi in new.queue_instances}
    yield from _consumable_problems(core, live, new, instances, queues, hosts)
    for ar in live:
        for name, _ in ar.granted:
            qi = instances.get(name)
            if qi is None:
                continue
            if qi.cqueue in queues:
                yield from _queue_problems(core, ar, qi, sets)
            if qi.host in hosts and not _host_admits(new, ar, qi.host, sets):
                yield _access_text("user_lists", ar)
            if users_changed and not _admits(ar, qi, new, sets):
                yield _access_text("entries", ar)


def _queue_problems(
    core: Core, ar: AdvanceReservation, qi: QueueInstanceConf, sets: Usersets
) -> Iterator[str]:
    ckpt = ar.spec.ckpt
    for what, name, names in (
        ("pe_list", ar.granted_pe, qi.pe_list),
        ("ckpt_list", ckpt, f.split_list(qi.attrs.get("ckpt_list", "NONE"))),
    ):
        if name and name not in names:
            yield f'denied: removing "{name}" from {what} would break advance reservation {ar.ar_id}'
    reserved = round(core.ar_calendar.peak(("queue", qi.name, "slots"), -math.inf, math.inf))
    if qi.slots < reserved:
        yield (
            f"denied: {reserved} slots are already reserved in {qi.name} by an advance reservation"
        )
    if not all(may_access(p, qi.user_lists, qi.xuser_lists, sets) for p in _principals(ar, sets)):
        yield _access_text("user_lists", ar)


def _consumable_problems(
    core: Core,
    live: list[AdvanceReservation],
    new: ConfState,
    instances: dict[str, QueueInstanceConf],
    queues: set[str],
    hosts: set[str],
) -> Iterator[str]:
    """``complex_values`` of a changed queue or host below what ARs reserved there."""
    seen: set[tuple[str, str, str]] = set()
    for ar in live:
        for kind, name, attr, _ in ar.debits:
            key = (kind, name, attr)
            if key in seen or attr == "slots":
                continue
            seen.add(key)
            values = _complex_values(new, kind, name, instances, queues, hosts)
            if values is None:
                continue
            if attr not in values:
                yield f'denied: changing "{attr}" in complex_values would break advance reservations'
                continue
            entry = new.complexes.get(attr)
            configured = float(entry.parse(values[attr])) if entry is not None else math.inf
            if core.ar_calendar.peak(key, -math.inf, math.inf) > configured + 1e-9:
                yield f'denied: changing "{attr}" in complex_values would break advance reservation'


def _complex_values(
    new: ConfState,
    kind: str,
    name: str,
    instances: dict[str, QueueInstanceConf],
    queues: set[str],
    hosts: set[str],
) -> dict[str, str] | None:
    """The new ``complex_values`` of a changed queue instance or host, else None."""
    if kind == "queue" and name in instances and instances[name].cqueue in queues:
        return instances[name].complex_values
    if kind == "host" and name in hosts and name in new.exechosts:
        return new.exechosts[name].complex_values
    return None


def _host_admits(new: ConfState, ar: AdvanceReservation, host: str, sets: Usersets) -> bool:
    conf = new.exechosts.get(host)
    if conf is None:
        return True
    users = tuple(f.split_list(conf.attrs.get("user_lists", "NONE")))
    xusers = tuple(f.split_list(conf.attrs.get("xuser_lists", "NONE")))
    return all(may_access(p, users, xusers, sets) for p in _principals(ar, sets))


def _admits(ar: AdvanceReservation, qi: QueueInstanceConf, new: ConfState, sets: Usersets) -> bool:
    people = _principals(ar, sets)
    queue_ok = all(may_access(p, qi.user_lists, qi.xuser_lists, sets) for p in people)
    return queue_ok and _host_admits(new, ar, qi.host, sets)


def _principals(ar: AdvanceReservation, sets: Usersets) -> list[JobRequest]:
    """Everybody the AR's access list names, as the matching's access check takes them."""
    return [JobRequest(0, 0, 0.0, u, g, [0]) for u, g in principals(sets, ar.acl)]


def _access_text(attribute: str, ar: AdvanceReservation) -> str:
    return f'denied: the change in "{attribute}" would break advance reservation {ar.ar_id}'
