"""The load report of a simulated execution host, as Grid Engine's execd would send it.

A host's ``load_values`` (host_conf(5) in minige) give its static facts:
``arch``, ``num_proc``, ``mem_total``, ``swap_total``, ``virtual_total``. From
them and the slots its running jobs use, :func:`simulated_load` derives the
standard load values of sge_execd(8):

- ``load_avg``, ``load_short``, ``load_medium``, ``load_long``: the running
  slots (a busy slot is one busy processor);
- ``np_load_avg``, ``np_load_short``, ``np_load_medium``, ``np_load_long``:
  the same divided by ``num_proc``;
- ``cpu``: the percentage of processors busy (at most 100);
- ``mem_free``/``mem_used``, ``swap_free``/``swap_used``,
  ``virtual_free``/``virtual_used``: jobs run no process, so nothing is used
  and everything is free; ``virtual_total`` defaults to mem + swap.

A value given explicitly in ``load_values`` always wins, so a host can be made
to look loaded or short of memory. ``load_scaling`` (``np_load_avg=2``)
multiplies the values it names, as execd's load scaling does. Pure: no clock,
no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

from qmaster.complexes.booking import Bookings
from qmaster.complexes.values import ValueParseError, parse_c_integer, parse_memory

LOADS = ("load_avg", "load_short", "load_medium", "load_long")
NP_LOADS = ("np_load_avg", "np_load_short", "np_load_medium", "np_load_long")


def _memory(static: Mapping[str, str], key: str) -> float:
    try:
        return parse_memory(static.get(key, "0"))
    except ValueParseError:
        return 0.0


def _processors(static: Mapping[str, str]) -> int:
    try:
        return max(1, parse_c_integer(static.get("num_proc", "1")))
    except ValueError:
        return 1


def _number(value: float) -> str:
    return f"{value:.6f}"


def _bytes(value: float) -> str:
    return str(round(value))


def simulated_load(
    static: Mapping[str, str], running_slots: float, scaling: Mapping[str, str] = {}
) -> dict[str, str]:
    """The load report of a host with ``static`` load values and ``running_slots`` busy,
    numeric values multiplied by the host's ``load_scaling`` factors (host_conf(5))."""
    procs = _processors(static)
    mem, swap = _memory(static, "mem_total"), _memory(static, "swap_total")
    virtual = _memory(static, "virtual_total") if "virtual_total" in static else mem + swap
    report = dict.fromkeys(LOADS, _number(running_slots))
    report.update(dict.fromkeys(NP_LOADS, _number(running_slots / procs)))
    report["cpu"] = _number(min(100.0, 100.0 * running_slots / procs))
    report.update(
        mem_total=_bytes(mem), mem_free=_bytes(mem), mem_used="0",
        swap_total=_bytes(swap), swap_free=_bytes(swap), swap_used="0",
        virtual_total=_bytes(virtual), virtual_free=_bytes(virtual), virtual_used="0",
    )  # fmt: skip
    report.update(static)
    for name, factor in scaling.items():
        if name in report:
            report[name] = _scale(report[name], factor)
    return report


def _scale(value: str, factor: str) -> str:
    try:
        return _number(float(value) * float(factor))
    except ValueError:
        return value


def running_slots_by_host(booked: Bookings) -> dict[str, float]:
    """Slots that running tasks hold per host (kept by the bookings as tasks come and go)."""
    return dict(booked.running)


def scan_running_slots(booked: Bookings) -> dict[str, float]:
    """Slots that running tasks hold per host, from their queue-level slot debits.

    Advance reservations book under negative keys: what they hold is reserved,
    not running, and puts no load on a host.
    """
    hosts: dict[str, float] = {}
    for (job_id, _task), debits in booked.by_task.items():
        if job_id < 0:
            continue
        for kind, name, attr, amount in debits:
            if kind == "queue" and attr == "slots":
                host = name.partition("@")[2]
                hosts[host] = hosts.get(host, 0.0) + amount
    return hosts
