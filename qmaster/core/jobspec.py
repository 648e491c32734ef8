"""A job's specification as the core keeps it: a typed, slotted, frozen :class:`JobSpec`.

Standard library only (a leaf: the core, the JSV gate and the spool may all import it).
Outside the core a specification travels as a dict keyed by the JSV parameter
names of qsub(1) (``qmaster.gdi.ops``): on the wire, in a spool row, in the JSV
protocol, in ``qstat -j``'s reply. :data:`FIELDS` maps each attribute to its key,
so :meth:`JobSpec.from_dict` and :meth:`JobSpec.to_dict` round-trip that dict
exactly: the same keys present, the same values. ``None`` means "not given" (the
key is absent); an empty list given is an empty tuple.

Containers are immutable: lists become tuples, and the dict-valued keys (``v``,
``ac``, ``l_hard``, ``l_soft``) tuples of ``(name, value)`` pairs (:data:`Pairs`),
not read-only mappings. A tuple of six pairs costs about the bytes of a six-key
dict and a mapping proxy would add its own 48 on top; unlike a dict, a tuple can be
shared: equal containers are interned (:func:`shared`), so the ``SGE_O_*``
environment qsub sends with every job of a user is kept once, not once per job.
The maps are small, so a lookup by name (:func:`lookup`) walks them.

``-binding``'s numbered keys (``binding_exp_socket<i>``, ``binding_exp_core<i>``)
are kept in order as the pairs of ``binding_explicit``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final, Protocol

Pairs = tuple[tuple[str, str], ...]
Strings = tuple[str, ...]

_EXPLICIT_KEY: Final = re.compile(r"binding_exp_(?:socket|core)\d+")
_SHARED_LIMIT: Final = 1 << 16
_shared: dict[Any, Any] = {}


def shared(value: Any) -> Any:
    """One object for equal immutable containers (a bounded table, emptied when full)."""
    found = _known(value)
    if found is not None:
        return found
    if len(_shared) >= _SHARED_LIMIT:
        _shared.clear()
    _shared[value] = value
    return value


def _known(value: Any) -> Any:
    """The shared object equal to ``value``, or None (also for an unhashable one)."""
    try:
        return _shared.get(value)
    except TypeError:
        return None


def _text(value: Any) -> Any:
    return sys.intern(value) if type(value) is str else value


def _strings(value: Iterable[Any]) -> Any:
    given = tuple(value)
    if not given:
        return ()
    return _known(given) or shared(tuple(map(_text, given)))


def _pairs(value: Mapping[Any, Any] | Iterable[tuple[Any, Any]]) -> Any:
    given = tuple(value.items() if isinstance(value, Mapping) else value)
    if not given:
        return ()
    return _known(given) or shared(tuple((_text(k), _text(v)) for k, v in given))


def _as_is(value: Any) -> Any:
    return value


def _list(value: Any) -> list[Any]:
    return list(value)


def _dict(value: Any) -> dict[Any, Any]:
    return dict(value)


@dataclass(frozen=True, slots=True)
class _Kind:
    """How one key's value is frozen into an attribute and thawed back into the dict."""

    freeze: Callable[[Any], Any]
    thaw: Callable[[Any], Any]


SCALAR: Final = _Kind(_text, _as_is)
LIST: Final = _Kind(_strings, _list)
MAP: Final = _Kind(_pairs, _dict)
EXPLICIT: Final = _Kind(_pairs, _dict)  # expanded into the dict, one key per pair


@dataclass(frozen=True, slots=True)
class JobSpec:
    """A job's specification: one typed attribute per JSV parameter of qsub(1)."""

    command: str | None = None  # CMDNAME: the script path, the -b y command or "STDIN"
    args: Strings | None = None  # CMDARGS
    script: str | None = None  # the script's text (absent with -b y)
    binary: bool | None = None  # b
    name: str | None = None  # N
    stdout: Strings | None = None  # o
    stderr: Strings | None = None  # e
    join: bool | None = None  # j
    cwd: str | None = None  # -cwd: the submitter's working directory
    wd: str | None = None  # -wd
    env: Pairs | None = None  # v
    export_all: bool | None = None  # V
    context: Pairs | None = None  # ac
    account: str | None = None  # A
    project: str | None = None  # P
    priority: int | None = None  # p
    user_hold: bool | None = None  # h
    hold_jid: Strings | None = None
    hard_resources: Pairs | None = None  # l_hard
    soft_resources: Pairs | None = None  # l_soft
    hard_queues: Strings | None = None  # q_hard
    soft_queues: Strings | None = None  # q_soft
    pe_name: str | None = None
    pe_min: int | None = None
    pe_max: int | None = None
    master_queues: Strings | None = None  # masterq
    immediate: bool | None = None  # now
    rerun: bool | None = None  # r
    mail_options: str | None = None  # m
    mail_list: Strings | None = None  # M
    task_first: int | None = None  # t_min
    task_last: int | None = None  # t_max
    task_step: int | None = None  # t_step
    reserve: bool | None = None  # R
    shells: Strings | None = None  # S
    start_at: str | None = None  # a: CCYYMMDDhhmm.SS
    ar: int | None = None  # -ar id
    jsv_scripts: Strings | None = None  # jsv (client side only)
    notify: bool | None = None
    shell: bool | None = None
    ckpt: str | None = None
    ckpt_interval: int | None = None  # c_interval
    ckpt_occasion: str | None = None  # c_occasion
    deadline: int | str | None = None  # dl: epoch seconds once checked
    stdin: Strings | None = None  # i
    job_share: int | None = None  # js
    override_tickets: int | None = None  # ot
    task_concurrency: int | None = None  # tc
    hold_jid_ad: Strings | None = None
    binding_type: str | None = None
    binding_strategy: str | None = None
    binding_amount: int | None = None
    binding_step: int | None = None
    binding_socket: int | None = None
    binding_core: int | None = None
    binding_exp_n: int | None = None
    binding_explicit: tuple[tuple[str, int], ...] | None = None  # binding_exp_{socket,core}<i>

    @classmethod
    def from_dict(cls, spec: Mapping[str, Any]) -> JobSpec:
        """The JobSpec of a dict keyed by JSV parameter names (a None value: not given)."""
        values: list[Any] = [None] * len(FIELDS)
        explicit: list[tuple[str, Any]] = []
        for key, value in spec.items():
            index = KEY_INDEX.get(key)
            if index is None:
                if not _EXPLICIT_KEY.fullmatch(key):
                    raise ValueError(f'unknown job specification parameter "{key}"')
                explicit.append((key, value))
            elif value is not None:
                values[index] = FREEZE_AT[index](value)
        if explicit:
            values[-1] = EXPLICIT.freeze(explicit)
        return _build(values)

    def to_dict(self) -> dict[str, Any]:
        """The dict form (spool row, JSV parameters, wire): the keys given, as given."""
        out: dict[str, Any] = {}
        given = [(i, v) for i, v in enumerate(_values(self)) if v is not None]
        for index, value in given:
            kind = KIND_AT[index]
            if kind is SCALAR:
                out[KEY_AT[index]] = value
            elif kind is EXPLICIT:
                out.update(value)
            else:
                out[KEY_AT[index]] = kind.thaw(value)
        return out

    def select(self, keys: tuple[str, ...]) -> dict[str, Any]:
        """The dict form of these keys only, in table order (``binding_exp_n`` brings the
        numbered pairs)."""
        indices = _SELECTIONS.get(keys) or _SELECTIONS.setdefault(keys, _indices(keys))
        values = _values(self)
        given = [(i, v) for i in indices if (v := values[i]) is not None]
        out = {KEY_AT[i]: KIND_AT[i].thaw(v) for i, v in given}
        if self.binding_explicit and "binding_exp_n" in keys:
            out.update(self.binding_explicit)
        return out

    def changed(self, **attrs: Any) -> JobSpec:
        """A copy with these attributes replaced (containers frozen as from_dict does)."""
        values = list(_values(self))
        for attr, value in attrs.items():
            values[INDEX[attr]] = value if value is None else KINDS[attr].freeze(value)
        return _build(values)

    def with_dict_changes(self, changes: Mapping[str, Any]) -> JobSpec:
        """A copy with these JSV-keyed values (a None value removes the key)."""
        if all(key in BY_KEY for key in changes):
            return self.changed(**{BY_KEY[key][0]: value for key, value in changes.items()})
        return JobSpec.from_dict({**self.to_dict(), **changes})

    def resource(self, name: str) -> str | None:
        """The value of a hard resource request (``-l name=value``), or None."""
        return lookup(self.hard_resources, name)

    @property
    def slots(self) -> int:
        """The slots the job asks for: the PE range's minimum, or 1."""
        return int(self.pe_min or 1) if self.pe_name else 1


def lookup(pairs: Pairs | None, name: str) -> str | None:
    """The value paired with ``name``, or None."""
    for key, value in pairs or ():
        if key == name:
            return value
    return None


def as_map(pairs: Pairs | None) -> dict[str, str]:
    """A dict of the pairs (for code that needs one)."""
    return dict(pairs or ())


def _table() -> tuple[tuple[str, str, _Kind], ...]:
    keys = {
        "command": "CMDNAME", "args": "CMDARGS", "binary": "b", "name": "N", "stdout": "o",
        "stderr": "e", "join": "j", "env": "v", "export_all": "V", "context": "ac",
        "account": "A", "project": "P", "priority": "p", "user_hold": "h",
        "hard_resources": "l_hard", "soft_resources": "l_soft", "hard_queues": "q_hard",
        "soft_queues": "q_soft", "master_queues": "masterq", "immediate": "now", "rerun": "r",
        "mail_options": "m", "mail_list": "M", "task_first": "t_min", "task_last": "t_max",
        "task_step": "t_step", "reserve": "R", "shells": "S", "start_at": "a",
        "jsv_scripts": "jsv", "ckpt_interval": "c_interval", "ckpt_occasion": "c_occasion",
        "deadline": "dl", "stdin": "i", "job_share": "js", "override_tickets": "ot",
        "task_concurrency": "tc",
    }  # fmt: skip
    maps = {"env", "context", "hard_resources", "soft_resources"}
    table = []
    for f in fields(JobSpec):
        kind = MAP if f.name in maps else LIST if "Strings" in str(f.type) else SCALAR
        if f.name == "binding_explicit":
            kind = EXPLICIT
        table.append((f.name, keys.get(f.name, f.name), kind))
    return tuple(table)


#: (attribute, JSV key, kind) for every attribute, in the order of ``qmaster.gdi.ops``.
FIELDS: Final = _table()
BY_KEY: Final = {key: (attr, kind) for attr, key, kind in FIELDS if kind is not EXPLICIT}
KINDS: Final = {attr: kind for attr, _, kind in FIELDS}
INDEX: Final = {attr: i for i, (attr, _, _) in enumerate(FIELDS)}
KEY_INDEX: Final = {key: INDEX[attr] for key, (attr, _) in BY_KEY.items()}
KIND_AT: Final = tuple(kind for _, _, kind in FIELDS)
#: The attributes of ``-binding`` (a new one replaces all of them).
BINDING_ATTRS: Final = tuple(attr for attr, key, _ in FIELDS if key.startswith("binding_"))
KEY_AT: Final = tuple(key for _, key, _ in FIELDS)
FREEZE_AT: Final = tuple(kind.freeze for _, _, kind in FIELDS)
_values: Final = attrgetter(*(attr for attr, _, _ in FIELDS))
_SETTERS: Final = tuple(getattr(JobSpec, attr).__set__ for attr, _, _ in FIELDS)
assert FIELDS[-1][2] is EXPLICIT


_SELECTIONS: dict[tuple[str, ...], tuple[int, ...]] = {}


def _indices(keys: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(sorted(KEY_INDEX[key] for key in keys))


def _build(values: Iterable[Any]) -> JobSpec:
    """A JobSpec of every attribute's value in table order (no keyword parsing: the
    dataclass's own ``__init__`` costs three times as much for 57 attributes)."""
    spec = object.__new__(JobSpec)
    for setter, value in zip(_SETTERS, values, strict=True):
        setter(spec, value)
    return spec


_SPECS_LIMIT: Final = 4096
_specs: dict[JobSpec, JobSpec] = {}


def shared_spec(spec: JobSpec) -> JobSpec:
    """One object for equal specifications (frozen, so jobs may share one): a million jobs
    submitted alike keep one JobSpec, not a million. A bounded table, emptied when full."""
    found = _specs.get(spec)
    if found is not None:
        return found
    if len(_specs) >= _SPECS_LIMIT:
        _specs.clear()
    _specs[spec] = spec
    return spec


_SPOOLED_LIMIT: Final = 4096
_SPOOLED_LONGEST: Final = 16384
_spooled: dict[str, JobSpec] = {}


def from_spooled(value: str | Mapping[str, Any]) -> JobSpec:
    """The JobSpec of a spool row's ``spec``: its JSON text, or the dict of a row spooled
    before the text form (both as :meth:`JobSpec.to_dict` gave them).

    Equal texts give one shared JobSpec (frozen, so jobs may share it): recovering a
    million jobs of a few hundred distinct specifications decodes each of those once.
    The table is bounded and starts afresh when full; long texts (scripts) are not kept.
    """
    if not isinstance(value, str):  # an older row: its text made here, to share alike
        value = json.dumps(value)
    found = _spooled.get(value)
    if found is not None:
        return found
    decoded = json.loads(value)
    if not isinstance(decoded, dict):
        raise ValueError(f"a job specification is a JSON object, not {type(decoded).__name__}")
    spec = JobSpec.from_dict(decoded)
    if len(value) <= _SPOOLED_LONGEST:
        if len(_spooled) >= _SPOOLED_LIMIT:
            _spooled.clear()
        _spooled[value] = spec
    return spec


class WireSpec(Protocol):
    """What the daemon validated a job specification with (a pydantic model): its fields'
    values, then the extra keys it lets through (the explicit binding pairs)."""

    @property
    def __dict__(self) -> dict[str, Any]: ...  # type: ignore[override]

    @property
    def __pydantic_extra__(self) -> dict[str, Any] | None: ...


def from_wire(model: WireSpec) -> JobSpec:
    """The core's one conversion of a validated wire specification into a JobSpec: the
    values given, as ``model_dump(exclude_none=True)`` lists them, read without the copy.

    ``jsv`` (the client's JSV scripts) is not kept: it never leaves the client.
    """
    given = {k: v for k, v in model.__dict__.items() if v is not None and k != "jsv"}
    extra = model.__pydantic_extra__
    if extra:
        given.update((k, v) for k, v in extra.items() if v is not None)
    return JobSpec.from_dict(given)


def from_wire_dict(spec: Mapping[str, Any]) -> JobSpec:
    """A JobSpec from a validated wire dict (a JSV's corrected job, as the driver checked
    it); ``jsv`` (the client's JSV scripts) is not kept."""
    data = dict(spec)
    data.pop("jsv", None)
    return JobSpec.from_dict(data)
