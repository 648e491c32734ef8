"""qstat's queue selection (``-q``, ``-l``, ``-pe``, ``-U``, ``-qs``, ``-ne``) and ``-g c``.

A queue instance is shown when it matches every selection given: ``-q``
patterns (``all.q``, ``all.q@host``, ``*@@hostgroup``), ``-l`` requests its
non-mutable values fulfil (fixed values, static load values and consumable
capacities; current load and utilisation are ignored, as qstat(1) says),
``-pe`` names one of its parallel environments, ``-U`` names a user its
``user_lists``/``xuser_lists`` admit, ``-qs`` names one of its states. The
states minige has are ``a`` (load alarm) and ``o`` (orphaned).

``-g c`` sums the selected instances per cluster queue: the slot-weighted
``np_load_avg`` of their hosts, used, reserved, available and total slots,
and the slots in the states ``aoACDS`` (and none of ``cdsuE``) and ``cdsuE``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from qmaster.complexes.compare import satisfies
from qmaster.complexes.levels import UPPER_WINS, Level
from qmaster.complexes.load import LOADS
from qmaster.complexes.values import ValueParseError
from qmaster.conf.state import QueueInstanceConf
from qmaster.core.errors import InvalidRequest
from qmaster.core.qstat_levels import Levels
from qmaster.qstat_args import parse_queue_states
from schedd.matching import wc_queue_matches

if TYPE_CHECKING:
    from qmaster.core.machine import Core

STATIC_LOADS = frozenset({"arch", "num_proc", "mem_total", "swap_total", "virtual_total"})
_TEMP = frozenset("aoACDS")
_MANUAL = frozenset("cdsuE")
EXT_STATES = "sASCuadDcoE"


def check_queue_states(letters: str | None) -> frozenset[str] | None:
    """The ``-qs`` letters; Grid Engine's error for an unknown one."""
    if letters is None:
        return None
    try:
        return parse_queue_states(letters)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None


def queue_matches(pattern: str, qi: QueueInstanceConf, groups: Sequence[str]) -> bool:
    """A ``wc_queue_list`` entry against one queue instance (the scheduler's own test)."""
    return wc_queue_matches(pattern, qi.cqueue, qi.host, groups)


def _names(values: Iterable[str]) -> list[str]:
    return [n for v in values for n in v.split(",") if n]


def parse_requests(core: Core, values: Sequence[str]) -> list[tuple[str, str]]:
    """``-l name[=value],...`` as pairs; Grid Engine's error for an unknown resource."""
    table = core.config.complexes
    out: list[tuple[str, str]] = []
    for item in _names(values):
        name, _, value = item.partition("=")
        entry = table.get(name)
        if entry is None:
            raise InvalidRequest(f'unknown resource "{name}"')
        out.append((entry.name, value or "TRUE"))
    return out


def _static(level: Level, name: str, source_ok: bool) -> float | str | None:
    if name in level.capacity:
        return level.capacity[name]
    if name in level.values and (source_ok or level.sources.get(name) == "f"):
        return level.values[name]
    return None


def offers(core: Core, requests: list[tuple[str, str]], levels: Iterable[Level | None]) -> bool:
    """Whether the non-mutable values of the levels fulfil every request."""
    table = core.config.complexes
    given = [level for level in levels if level is not None]
    for name, text in requests:
        entry = table[name]
        try:
            wanted = entry.parse_request(text)
        except ValueParseError:
            return False
        found = False
        for level in given:
            value = _static(level, name, name in STATIC_LOADS)
            if value is None:
                continue
            found = True
            if not satisfies(entry.type, entry.relop, wanted, value):
                return False
            if entry.relop in UPPER_WINS:
                break  # the uppermost level's value is the one compared
        if not found:
            return False
    return True


def may_use(core: Core, qi: QueueInstanceConf, user: str) -> bool:
    """``user_lists``/``xuser_lists`` of the instance admit ``user``."""
    if qi.xuser_lists and core.config.user_in_lists(user, "", list(qi.xuser_lists)):
        return False
    return not qi.user_lists or core.config.user_in_lists(user, "", list(qi.user_lists))


def cluster_summary(rows: Sequence[dict[str, Any]], loads: Levels) -> list[dict[str, Any]]:
    """``-g c``: one entry per cluster queue of the shown queue instance rows."""
    out: dict[str, dict[str, Any]] = {}
    weights: dict[str, tuple[float, float]] = {}
    for row in rows:
        cq = str(row["name"]).partition("@")[0]
        entry = out.setdefault(cq, _empty(cq))
        total, used, resv = int(row["total"]), int(row["used"]), int(row["resv"])
        states = set(str(row.get("states") or ""))
        entry["used"] += used
        entry["resv"] += resv
        entry["total"] += total
        if states & _MANUAL:
            entry["cdsuE"] += total
        elif states & _TEMP:
            entry["aoACDS"] += total
        else:
            entry["available"] += max(0, total - used - resv)
        for letter in states:
            entry["states"][letter] = entry["states"].get(letter, 0) + total
        level = loads.hosts.get(str(row["name"]).partition("@")[2])
        np_load = level.values.get("np_load_avg") if level else None
        if isinstance(np_load, float):
            done, slots = weights.get(cq, (0.0, 0.0))
            weights[cq] = (done + np_load * total, slots + total)
    for cq, (weighted, slots) in weights.items():
        out[cq]["load"] = weighted / slots if slots else None
    return [out[cq] for cq in sorted(out)]


def _empty(cq: str) -> dict[str, Any]:
    return {
        "name": cq,
        "load": None,
        "used": 0,
        "resv": 0,
        "available": 0,
        "total": 0,
        "aoACDS": 0,
        "cdsuE": 0,
        "states": {},
    }


__all__ = ["EXT_STATES", "LOADS", "cluster_summary", "may_use", "offers", "queue_matches"]
