"""An advance reservation request as Grid Engine stores it.

What qrsub sent is kept in the form Grid Engine keeps and shows (qrstat,
reporting records, the spool), whatever client sent it:

* ``-l`` names are the complex attributes' full names (``h`` -> ``hostname``);
* ``-m`` letters are in Grid Engine's order (``abe``), ``n`` alone meaning none;
* ``-u`` entries are unique; an entry ``!name`` excludes ``name``
  (``xacl_list``), the others are the ``acl_list``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from qmaster.complexes.table import ComplexTable
from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import LIST, MAP, SCALAR, Pairs, Strings, as_map

MAIL_ORDER = "abe"
NO_MAIL = "n"


@dataclass(frozen=True, slots=True)
class ArSpec:
    """An advance reservation request: one typed attribute per qrsub switch (None: not given).

    Its dict form (the wire's ArSpec of ``qmaster.gdi.ops``, the spool row) is keyed by
    the switches' names; :meth:`from_dict` and :meth:`to_dict` round-trip it.
    """

    start: float | None = None  # a
    end: float | None = None  # e
    duration: float | None = None  # d
    name: str | None = None  # N
    account: str | None = None  # A
    hard_resources: Pairs | None = None  # l_hard
    users: Strings | None = None  # u: users, @groups, usersets; "!name" excludes
    hard_queues: Strings | None = None  # q_hard
    pe_name: str | None = None
    pe_min: int | None = None
    pe_max: int | None = None
    master_queues: Strings | None = None  # masterq
    ckpt: str | None = None
    immediate: bool | None = None  # now
    mail_options: str | None = None  # m
    mail_list: Strings | None = None  # M
    hard_errors: bool | None = None  # he: -he yes

    @classmethod
    def from_dict(cls, spec: Mapping[str, Any]) -> ArSpec:
        """The ArSpec of a dict keyed by qrsub's switch names."""
        given: dict[str, Any] = {}
        for key, value in spec.items():
            if key not in AR_KEYS:
                raise ValueError(f'unknown advance reservation parameter "{key}"')
            attr, kind = AR_KEYS[key]
            if value is not None:
                given[attr] = kind.freeze(value)
        return cls(**given)

    def to_dict(self) -> dict[str, Any]:
        """The dict form (spool row): the keys given, as given."""
        out: dict[str, Any] = {}
        for key, (attr, kind) in AR_KEYS.items():
            value = getattr(self, attr)
            if value is not None:
                out[key] = kind.thaw(value)
        return out


#: JSV-style key -> (attribute, kind), in the order of ``qmaster.gdi.ops``.
AR_KEYS: Final = {
    "a": ("start", SCALAR), "e": ("end", SCALAR), "d": ("duration", SCALAR),
    "N": ("name", SCALAR), "A": ("account", SCALAR), "l_hard": ("hard_resources", MAP),
    "u": ("users", LIST), "q_hard": ("hard_queues", LIST), "pe_name": ("pe_name", SCALAR),
    "pe_min": ("pe_min", SCALAR), "pe_max": ("pe_max", SCALAR),
    "masterq": ("master_queues", LIST), "ckpt": ("ckpt", SCALAR), "now": ("immediate", SCALAR),
    "m": ("mail_options", SCALAR), "M": ("mail_list", LIST), "he": ("hard_errors", SCALAR),
}  # fmt: skip


class WireArSpec(Protocol):
    """What the daemon validated an AR request with (a pydantic model)."""

    def model_dump(self, *, exclude_none: bool) -> dict[str, Any]: ...


def from_wire(model: WireArSpec) -> ArSpec:
    """The core's one conversion of a validated wire AR request into an ArSpec."""
    return ArSpec.from_dict(model.model_dump(exclude_none=True))


def normalise(spec: ArSpec, table: ComplexTable) -> ArSpec:
    """``spec`` in its stored form (see the module notes)."""
    changes: dict[str, Any] = {}
    if spec.hard_resources:
        changes["hard_resources"] = MAP.freeze(full_names(as_map(spec.hard_resources), table))
    if spec.mail_options is not None:
        changes["mail_options"] = mail_letters(spec.mail_options)
    if spec.users:
        changes["users"] = tuple(dict.fromkeys(spec.users))
    return replace(spec, **changes)


def full_names(requests: Mapping[str, Any], table: ComplexTable) -> dict[str, str]:
    """``-l`` requests keyed by full attribute names; a later request of one wins."""
    out: dict[str, str] = {}
    for key, value in requests.items():
        entry = table.get(str(key))
        out[entry.name if entry is not None else str(key)] = str(value)
    return out


def mail_letters(text: str) -> str:
    """``-m`` letters in Grid Engine's order; anything but ``a b e`` or ``n`` is refused."""
    letters = set(text.replace(",", ""))
    if not letters or not letters <= set(MAIL_ORDER + NO_MAIL):
        raise InvalidRequest(
            f'ERROR! Wrong mail options list format "{text}" specified to -m option'
        )
    if NO_MAIL in letters:
        return NO_MAIL
    return "".join(ch for ch in MAIL_ORDER if ch in letters)


def acl_list(spec: ArSpec) -> list[str]:
    """The users and ``@lists`` the AR was made for (``-u`` without the ``!`` entries)."""
    return [u for u in spec.users or () if not u.startswith("!")]


def xacl_list(spec: ArSpec) -> list[str]:
    """The users and ``@lists`` excluded from the AR (``-u '!name'``)."""
    return [u[1:] for u in spec.users or () if u.startswith("!")]
