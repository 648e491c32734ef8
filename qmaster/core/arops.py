"""Advance reservation requests: qrsub (``ar_submit``), qrstat (``ar_list``), qrdel (``ar_delete``).

Who may: managers, operators and members of the
``arusers`` userset create ARs; the owner, operators and managers delete them.
"""

from __future__ import annotations

import fnmatch
from dataclasses import replace
from typing import Any

from qmaster.core import arlife, arspec
from qmaster.core.argrant import grant, local_time, window
from qmaster.core.ars import AdvanceReservation
from qmaster.core.arspec import ArSpec
from qmaster.core.errors import LimitReached, PermissionDenied
from qmaster.core.jobs import Identity
from qmaster.core.jobspec import JobSpec
from qmaster.core.machine import Core
from qmaster.core.outcome import Outcome
from qmaster.core.registry import handler
from qmaster.core.stimuli import ArDelete, ArList, ArSubmit
from qmaster.core.submit import check_name, validate_spec
from qmaster.digits import is_digits, strtol_u32
from qmaster.model import Status, error, ok

ARUSERS = "arusers"


def may_create(core: Core, who: Identity) -> bool:
    return core.is_operator(who) or core.config.user_in_lists(who.user, who.group, [ARUSERS])


def check_limit(core: Core) -> None:
    """``max_advance_reservations`` (0: no limit, as Grid Engine's qmaster reads it)."""
    limit = core.config.global_conf.max_advance_reservations
    if limit > 0 and len(core.ars) >= limit:
        raise LimitReached(f"rejected: only {limit} advance reservations are allowed per cluster")


def _validated(core: Core, spec: ArSpec) -> ArSpec:
    """The AR's requests checked as a job's same switches are; its ``-l`` list normalised."""
    as_job = JobSpec(
        name=spec.name, account=spec.account, hard_resources=spec.hard_resources,
        hard_queues=spec.hard_queues, pe_name=spec.pe_name, pe_min=spec.pe_min,
        pe_max=spec.pe_max, master_queues=spec.master_queues, ckpt=spec.ckpt,
    )  # fmt: skip
    if as_job.name:
        check_name(as_job.name)
    checked = validate_spec(core, as_job)
    return replace(spec, hard_resources=checked.hard_resources)


@handler(ArSubmit)
def handle_ar_submit(core: Core, args: ArSubmit, now: float, out: Outcome) -> None:
    """qrsub: grant an advance reservation, or (``-w v``) say whether one could be."""
    who = args.identity
    spec = args.ar
    if not may_create(core, who):
        raise PermissionDenied(
            f'denied: "{who.user}" must be manager, operator or member of the "{ARUSERS}" '
            "userset to submit advance reservations"
        )
    span = window(spec, now)
    spec = arspec.normalise(_validated(core, spec), core.config.complexes)
    acl = arspec.acl_list(spec) or [who.user]
    if args.verify == "e":
        check_limit(core)
    placed, earliest = grant(core, who, spec, acl, span, now)
    if args.verify == "v":
        _verified(out, placed, earliest)
        return
    if placed is None:
        out.answers.append(error("advance_reservation: no suitable queues"))
        _earliest(out, earliest)
        return
    ar = AdvanceReservation(
        ar_id=core.allocate_ar_id(),
        owner=who,
        submission_time=now,
        start_time=span[0],
        end_time=span[1],
        spec=spec,
        granted=placed.assignment,
        debits=placed.debits,
        granted_pe=placed.pe_name,
    )
    arlife.add(core, ar, now, out)
    out.spool.counters["ar"] = core.next_ar_id
    out.answers.append(ok(f"Your advance reservation {ar.ar_id} has been granted"))
    out.data = {"ar_id": ar.ar_id}


def _verified(out: Outcome, placed: Any, earliest: float | None) -> None:
    if placed is None:
        out.answers.append(ok("verification: no suitable queues"))
        _earliest(out, earliest)
    elif placed.pe_name is not None:
        slots = sum(n for _, n in placed.assignment)
        out.answers.append(ok(f"verification: found possible assignment with {slots} slots"))
    else:
        out.answers.append(ok("verification: found suitable queue(s)"))


def _earliest(out: Outcome, earliest: float | None) -> None:
    """Beyond Grid Engine: when the earliest window of the same length that fits begins."""
    out.data = {"ar_id": None, "earliest_start": earliest}
    if earliest is not None:
        out.answers.append(
            ok(f"the earliest window that would fit begins at {local_time(earliest)}")
        )


def select(core: Core, ref: str) -> list[AdvanceReservation]:
    """ARs by id, name or wildcard pattern of names."""
    if is_digits(ref):
        found = core.ars.get(int(ref))
        return [found] if found else []
    return [ar for ar in core.ars.values() if fnmatch.fnmatchcase(ar.name, ref)]


@handler(ArList)
def handle_ar_list(core: Core, args: ArList, now: float, out: Outcome) -> None:
    """qrstat: rows of the selected ARs, and which ids named nothing."""
    users = None if args.users is None or "*" in args.users else set(args.users)
    missing: list[str] = []
    if args.ar_ids is None:
        chosen = sorted(core.ars.values(), key=lambda a: a.ar_id)
    else:
        chosen = []
        for ref in args.ar_ids:
            found = select(core, ref)
            if not found:
                missing.append(ref)
            chosen.extend(a for a in found if a not in chosen)
    rows = [a.to_ar_row() for a in chosen if users is None or a.owner.user in users]
    out.data = {"ars": rows, "missing": missing}


@handler(ArDelete)
def handle_ar_delete(core: Core, args: ArDelete, now: float, out: Outcome) -> None:
    """qrdel: delete ARs (and their jobs); one answer per AR."""
    who = args.identity
    for ar in _targets(core, who, args, out):
        if not (ar.owner.user == who.user or core.is_operator(who)):
            out.answers.append(
                error(
                    f"{who.user} - you do not have the necessary privileges to delete "
                    f'the advance_reservation "{ar.ar_id}"',
                    Status.ENOTOWNER,
                )
            )
            continue
        if ar.ar_id not in core.ars:
            continue
        kept = arlife.delete(core, ar, who.user, args.force, now, out)
        if kept:
            text = f"{who.user} has registered the advance_reservation {ar.ar_id} for deletion"
        else:
            text = f"{who.user} has deleted advance_reservation {ar.ar_id}"
        out.answers.append(ok(text))


MUST_BE_MANAGER = 'denied: "{}" must be manager to modify all advance reservations'
SPECIFY_USER_OR_ID = "You have to specify a username or advance_reservation ids"
INVALID_NAME = 'denied: "{}" is not a valid object name (cannot start with a digit)'


def is_pattern(text: str) -> bool:
    """A wildcard pattern (Grid Engine's ``sge_is_pattern``)."""
    return any(c in text for c in "*?[]")


def _targets(core: Core, who: Identity, args: ArDelete, out: Outcome) -> list[AdvanceReservation]:
    """The ARs named, ref by ref as Grid Engine's qmaster reads them.

    A user pattern from a non-manager refuses the whole request; id ``0``
    names nothing (only the ``-u`` users then); a name pattern without ``-u``
    names only the caller's own ARs.
    """
    users = args.users
    if users is not None and any(is_pattern(u) for u in users) and not core.is_manager(who):
        raise PermissionDenied(MUST_BE_MANAGER.format(who.user))
    targets: list[AdvanceReservation] = []
    for ref in args.ar_ids or ["0"]:
        found = _named(core, who, None if ref == "0" else ref, users, out)
        targets.extend(a for a in found if a not in targets)
    return targets


def _named(
    core: Core, who: Identity, ref: str | None, users: list[str] | None, out: Outcome
) -> list[AdvanceReservation]:
    """The ARs one ref (and the ``-u`` list) names; an error answer when none."""
    if ref is None and users is None:
        out.answers.append(error(SPECIFY_USER_OR_ID, Status.EUNKNOWN))
        return []
    chosen = sorted(core.ars.values(), key=lambda a: a.ar_id)
    if users is not None:
        chosen = [a for a in chosen if any(fnmatch.fnmatchcase(a.owner.user, u) for u in users)]
    elif ref is not None and is_pattern(ref):
        chosen = [a for a in chosen if a.owner.user == who.user]
    if ref is not None:
        number = strtol_u32(ref)  # ar_del(): strtol(id, &end, 0) read to the end is an id
        if number is None and is_digits(ref[:1]):
            out.answers.append(error(INVALID_NAME.format(ref), Status.EUNKNOWN))
            return []
        if number is not None:
            found = core.ars.get(number)
            named = [found] if found else []
        else:
            named = select(core, ref)
        chosen = [a for a in chosen if a in named]
    if not chosen:
        out.answers.append(error(_none_text(ref, users or []), Status.EEXIST))
    return chosen


def _none_text(ref: str | None, users: list[str]) -> str:
    if ref is not None:
        return f'denied: advance_reservation "{ref}" does not exist'
    shown = ",".join(users[:5]) + (",..." if len(users) > 5 else "")
    return f"There is no advance_reservation registered for the following users: {shown}"
