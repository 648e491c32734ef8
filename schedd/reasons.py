"""Why a job was not dispatched: structured reasons with Grid Engine's "scheduling info" text.

Each :class:`Reason` names the place (a queue instance, a host, the global
level, a PE or the job itself), the attribute, and the requested and offered
values; :attr:`Reason.text` renders the line ``qstat -j`` prints, in Grid
Engine's words, and :meth:`Reason.as_dict` the form ``qstat -j -json`` shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason a job (or its whole category) cannot run somewhere."""

    code: str
    level: str
    target: str
    attribute: str | None = None
    requested: str | None = None
    offered: str | None = None
    reserved: bool = False
    """The level would do but for a reservation (`` due to a reservation``)."""

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
    return f'cannot run in queue "{r.target}"'


def _offers(r: Reason) -> str:
    due = " due to a reservation" if r.reserved else ""
    return f"{_request(r)} {_where(r)} because it offers only {r.offered}{due}"


def _unknown(r: Reason) -> str:
    return f"{_request(r)} {_where(r)} because job requests unknown resource ({r.attribute})"


def _forced(r: Reason) -> str:
    if r.level == "global":
        return f"does not request globally 'forced' resource \"{r.attribute}\""
    kind = "queue instance" if r.level == "queue" else r.level
    return f"does not request 'forced' resource \"{r.attribute}\" of {kind} {r.target}"


def _full(r: Reason) -> str:
    return f'queue instance "{r.target}" dropped because it is full'


def _no_slots(r: Reason) -> str:
    return f'cannot run in queue instance "{r.target}" because it has "0" slots'


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
    return f'cannot run in queue "{r.target}" because PE "{r.attribute}" is not in pe list'


def _pe_slots(r: Reason) -> str:
    return f'cannot run in PE "{r.target}" because it only offers {r.offered} slots'


def _pe_access(r: Reason) -> str:
    return f'cannot run because no access to pe "{r.target}"'


def _pe_none(r: Reason) -> str:
    return "no matching pe found"


def _masterq(r: Reason) -> str:
    return f'cannot run in queue "{r.target}" because it is not contained in its master queue list'


def _not_parallel(r: Reason) -> str:
    return f'cannot run in queue instance "{r.target}" because it is not of parallel type'


def _not_ckpt(r: Reason) -> str:
    return f'cannot run in queue instance "{r.target}" because it is not of type checkpointing'


def _ckpt_list(r: Reason) -> str:
    return (
        f'cannot run in queue instance "{r.target}" because ckpt object "{r.attribute}"'
        " is not in ckpt list of queue"
    )


def _not_interactive(r: Reason) -> str:
    return f'cannot run in queue "{r.target}" because it is not of type interactive'


def _not_batch(r: Reason) -> str:
    return f'cannot run in queue instance "{r.target}" because it is not of type batch'


def _not_parallel_job(r: Reason) -> str:
    return f'cannot run in queue instance "{r.target}" because the job is not parallel'


def _reserved(r: Reason) -> str:
    return f"job is waiting for its resource reservation (starts at {r.offered})"


def _ar_no_h_rt(r: Reason) -> str:
    return (
        f'cannot run in queue instance "{r.target}" because it holds an advance reservation'
        " and the job requests no h_rt"
    )


def _ar(r: Reason) -> str:
    return f"advance reservation {r.target}: {r.offered}"


def _exclusive(r: Reason) -> str:
    head = f"{_request(r)} " if r.requested else ""
    return f"{head}{_where(r)} because exclusive resource ({r.attribute}) is already in use"


def _user_limit(r: Reason) -> str:
    return "job dropped because of user limitations"


def _max_aj_instances(r: Reason) -> str:
    return "not all array task may be started due to 'max_aj_instances'"


def _overloaded(r: Reason) -> str:
    return f'queue instance "{r.target}" dropped because it is overloaded: {r.offered}'


def _failed(r: Reason) -> str:
    return f"job could not be matched: {r.offered}"


def _project_place(r: Reason) -> str:
    return f'queue "{r.target}"' if r.level == "queue" else f'host "{r.target}"'


def _no_project(r: Reason) -> str:
    who = "(no project)" if r.requested is None else f"(project {r.requested})"
    return f"{who} does not have the correct project to run in {_project_place(r)}"


def _excluded_project(r: Reason) -> str:
    return (
        f"(project {r.requested}) is not allowed to run in {_project_place(r)} based on the "
        "excluded project list"
    )


def _rqs_limit(r: Reason) -> str:
    return f'cannot run because it exceeds limit "{r.offered}" in rule "{r.attribute}"'


def _no_queue(r: Reason) -> str:
    return "no queue instance available"


_RENDER = {
    "offers_only": _offers,
    "unknown_resource": _unknown,
    "forced": _forced,
    "full": _full,
    "no_slots": _no_slots,
    "disabled": _disabled,
    "hard_queue": _hard_queue,
    "no_access": _access,
    "no_project": _no_project,
    "excluded_project": _excluded_project,
    "pe_list": _pe_list,
    "pe_slots": _pe_slots,
    "pe_access": _pe_access,
    "pe_none": _pe_none,
    "masterq": _masterq,
    "not_parallel": _not_parallel,
    "not_ckpt": _not_ckpt,
    "ckpt_list": _ckpt_list,
    "not_interactive": _not_interactive,
    "not_batch": _not_batch,
    "not_parallel_job": _not_parallel_job,
    "reserved": _reserved,
    "no_queue": _no_queue,
    "ar_no_h_rt": _ar_no_h_rt,
    "ar": _ar,
    "failed": _failed,
    "exclusive": _exclusive,
    "overloaded": _overloaded,
    "user_limit": _user_limit,
    "max_aj_instances": _max_aj_instances,
    "rqs_limit": _rqs_limit,
}


Targets = Sequence[str] | Callable[[], Sequence[str]] | None


class ReasonList(Sequence[Reason]):
    """A category's reasons, built lazily: a reason found for one queue instance of a
    group of identical ones is kept once with the names of the others, and spelt
    out per instance (duplicates dropped) only when someone reads the list."""

    __slots__ = ("_done", "_parts")

    def __init__(self, reasons: Iterable[Reason] = ()) -> None:
        self._parts: list[tuple[Reason | Callable[[], Reason] | tuple[Reason, ...], Targets]] = [
            (r, None) for r in reasons
        ]
        self._done: list[Reason] | None = None

    def add(self, reason: Reason | Callable[[], Reason], targets: Targets = None) -> None:
        """Add a reason (or a function making it when read), or one per target."""
        self._parts.append((reason, targets))
        self._done = None

    def holds(self, code: str, level: str, target: str) -> bool:
        """True when a reason of this code, level and target was added as such (one
        added later is then dropped as a duplicate); False when unsure."""
        return any(
            isinstance(made, Reason)
            and targets is None
            and (made.code, made.level, made.target) == (code, level, target)
            for made, targets in self._parts
        )

    def extend_from(self, other: ReasonList) -> None:
        """Add every reason of another list (as it holds them, still unspelt)."""
        self._parts.extend(other._parts)
        self._done = None

    def add_all(self, reasons: tuple[Reason, ...]) -> None:
        """Add reasons shared by many lists (e.g. the queue instances found full) in one step."""
        if reasons:
            self._parts.append((reasons, None))
            self._done = None

    def _list(self) -> list[Reason]:
        if self._done is None:
            seen: set[tuple[str, str, str]] = set()
            done: list[Reason] = []
            for made, targets in self._parts:
                if isinstance(made, tuple):
                    spelt = list(made)
                else:
                    reason = made if isinstance(made, Reason) else made()
                    names = targets() if callable(targets) else targets
                    spelt = (
                        [reason] if names is None else [replace(reason, target=t) for t in names]
                    )
                for r in spelt:
                    key = (r.code, r.level, r.target)
                    if key not in seen:
                        seen.add(key)
                        done.append(r)
            self._done = done
        return self._done

    def __bool__(self) -> bool:
        return bool(self._parts)

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, index: int) -> Reason: ...
    @overload
    def __getitem__(self, index: slice) -> list[Reason]: ...
    def __getitem__(self, index: int | slice) -> Reason | list[Reason]:
        return self._list()[index]

    def __iter__(self) -> Iterator[Reason]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]
