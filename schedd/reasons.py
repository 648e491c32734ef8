"""Why a job was not dispatched: structured reasons with Grid Engine's "scheduling info" text.

Each :class:`Reason` names the place (a queue instance, a host, the global
level, a PE or the job itself), the attribute, and the requested and offered
values; :attr:`Reason.text` renders the line ``qstat -j`` prints, in Grid
Engine's words, and :meth:`Reason.as_dict` the form ``qstat -j -json`` shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason a job (or its whole category) cannot run somewhere."""

    code: str
    level: str
    target: str
    attribute: str | None = None
    requested: str | None = None
    offered: str | None = None

    @property
    def text(self) -> str:
        """The ``scheduling info`` line."""
        return _RENDER[self.code](self)

    def as_dict(self) -> dict[str, Any]:
        """The structured form (``qstat -j ID -json``)."""
        return {
            "code": self.code,
            "level": self.level,
            "target": self.target,
            "attribute": self.attribute,
            "requested": self.requested,
            "offered": self.offered,
            "text": self.text,
        }


def _request(r: Reason) -> str:
    return f"(-l {r.attribute}={r.requested})"


def _where(r: Reason) -> str:
    if r.level == "global":
        return "cannot run globally"
    if r.level == "host":
        return f'cannot run at host "{r.target}"'
    return f'cannot run in queue instance "{r.target}"'


def _offers(r: Reason) -> str:
    return f"{_request(r)} {_where(r)} because it offers only {r.offered}"


def _unknown(r: Reason) -> str:
    return f"{_request(r)} {_where(r)} because job requests unknown resource ({r.attribute})"


def _forced(r: Reason) -> str:
    if r.level == "global":
        return f"does not request globally 'forced' resource \"{r.attribute}\""
    return f'does not request \'forced\' resource "{r.attribute}" of {r.level} "{r.target}"'


def _full(r: Reason) -> str:
    return f'queue instance "{r.target}" dropped because it is full'


def _disabled(r: Reason) -> str:
    return f'queue instance "{r.target}" dropped because it is disabled'


def _hard_queue(r: Reason) -> str:
    return (
        f'cannot run in queue "{r.target}" because it is not contained in its hard queue list (-q)'
    )


def _access(r: Reason) -> str:
    kind = "queue" if r.level == "queue" else r.level
    return f'has no permission for {kind} "{r.target}"'


def _pe_list(r: Reason) -> str:
    return f'cannot run in queue "{r.target}" because it is not in queue list of PE "{r.attribute}"'


def _pe_slots(r: Reason) -> str:
    return f'cannot run in PE "{r.target}" because it only offers {r.offered} slots'


def _pe_access(r: Reason) -> str:
    return f'cannot run because no access to pe "{r.target}"'


def _pe_range(r: Reason) -> str:
    return f'cannot run because requested amount of slots is not supported by pe "{r.target}"'


def _pe_none(r: Reason) -> str:
    return "no matching pe found"


def _masterq(r: Reason) -> str:
    return f'cannot run in queue "{r.target}" because it is not contained in its master queue list'


def _not_parallel(r: Reason) -> str:
    return f'cannot run in queue "{r.target}" because it is not a parallel queue'


def _reserved(r: Reason) -> str:
    return f"job is waiting for its resource reservation (starts at {r.offered})"


def _no_queue(r: Reason) -> str:
    return "no queue instance available"


_RENDER = {
    "offers_only": _offers,
    "unknown_resource": _unknown,
    "forced": _forced,
    "full": _full,
    "disabled": _disabled,
    "hard_queue": _hard_queue,
    "no_access": _access,
    "pe_list": _pe_list,
    "pe_slots": _pe_slots,
    "pe_access": _pe_access,
    "pe_range": _pe_range,
    "pe_none": _pe_none,
    "masterq": _masterq,
    "not_parallel": _not_parallel,
    "reserved": _reserved,
    "no_queue": _no_queue,
}
