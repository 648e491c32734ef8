"""The load report of a simulated host: execd's standard values, following the running slots."""

from __future__ import annotations

import pytest

from qmaster.complexes.booking import Bookings
from qmaster.complexes.load import running_slots_by_host, simulated_load

STATIC = {"arch": "lx-amd64", "num_proc": "4", "mem_total": "8G", "swap_total": "2G"}
GIB = 1024**3


def test_idle_host_reports_everything_free() -> None:
    """An idle host has load 0, all memory free and virtual_total = mem + swap."""
    report = simulated_load(STATIC, 0)
    assert float(report["load_avg"]) == 0.0
    assert float(report["np_load_avg"]) == 0.0
    assert int(report["mem_free"]) == 8 * GIB
    assert report["mem_used"] == "0"
    assert int(report["swap_free"]) == 2 * GIB
    assert int(report["virtual_free"]) == int(report["virtual_total"]) == 10 * GIB
    assert report["arch"] == "lx-amd64"


@pytest.mark.parametrize(
    ("slots", "np", "cpu"), [(1, 0.25, 25.0), (4, 1.0, 100.0), (6, 1.5, 100.0)]
)
def test_load_follows_the_running_slots(slots: int, np: float, cpu: float) -> None:
    """load_avg is the busy slots, np_load_avg that per processor, cpu the busy share."""
    report = simulated_load(STATIC, slots)
    for key in ("load_avg", "load_short", "load_medium", "load_long"):
        assert float(report[key]) == slots
    for key in ("np_load_avg", "np_load_short", "np_load_medium", "np_load_long"):
        assert float(report[key]) == np
    assert float(report["cpu"]) == cpu


def test_configured_values_win() -> None:
    """A value given in load_values (e.g. a loaded host) is reported as given."""
    report = simulated_load({**STATIC, "load_avg": "3.5", "mem_free": "1G"}, 0)
    assert (report["load_avg"], report["mem_free"]) == ("3.5", "1G")


def test_running_slots_come_from_job_bookings_only() -> None:
    """Job tasks' queue slot debits count per host; an advance reservation's hold does not."""
    booked = Bookings()
    booked.book((1, 1), [("queue", "all.q@host1", "slots", 2.0), ("host", "host1", "x", 1.0)])
    booked.book((2, 1), [("queue", "b.q@host1", "slots", 1.0)])
    booked.book((-1, 0), [("queue", "all.q@host2", "slots", 4.0)])
    assert running_slots_by_host(booked) == {"host1": 3.0}


def test_load_scaling_multiplies_the_named_values() -> None:
    """host_conf(5) load_scaling np_load_avg=2 doubles the reported np_load_avg only."""
    report = simulated_load(STATIC, 1, {"np_load_avg": "2", "arch": "3"})
    assert float(report["np_load_avg"]) == 0.5
    assert float(report["np_load_short"]) == 0.25
    assert report["arch"] == "lx-amd64"
