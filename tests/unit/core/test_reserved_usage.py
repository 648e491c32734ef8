"""execd_params ACCT_RESERVED_USAGE / SHARETREE_RESERVED_USAGE: the accounting record and
qstat -j's usage hold what a task reserved (build_reserved_usage()), as Grid Engine's
functional/usage check expects: cpu = wallclock x slots, mem = h_vmem x slots x wallclock."""

from __future__ import annotations

import pytest

from qmaster.core import Core
from qmaster.events.records import Acct
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, set_global, submit

GIB = 1024.0**3


def accounted(core: Core, until: float) -> list[Acct]:
    return [r for out in run_until(core, until) for r in out.reports if isinstance(r, Acct)]


def limit_queue(core: Core, h_vmem: str) -> None:
    pairs = [["h_vmem", h_vmem]]
    request(core, ROOT, "conf_attr", kind="cqueue", mode="set", name="all.q", pairs=pairs)


def test_without_the_setting_a_simulated_task_accounts_no_usage() -> None:
    core = make_core()
    limit_queue(core, "100M")
    submit(core, CMDARGS=["60"])
    (record,) = accounted(core, T0 + 120)
    assert (record.ru_wallclock, record.cpu, record.mem, record.maxvmem) == (60, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("pe", "first_task", "slots"), [(None, "TRUE", 1), ("make", "TRUE", 4), ("make", "FALSE", 5)]
)
def test_acct_reserved_usage_accounts_wallclock_times_slots(
    pe: str | None, first_task: str, slots: int
) -> None:
    core = make_core()
    set_global(core, execd_params="ACCT_RESERVED_USAGE=true")
    limit_queue(core, "100M")
    pairs = [["job_is_first_task", first_task]]
    request(core, ROOT, "conf_attr", kind="pe", mode="set", name="make", pairs=pairs)
    spec = {"pe_name": pe, "pe_min": 4, "pe_max": 4} if pe else {}
    submit(core, CMDARGS=["60"], **spec)
    (record,) = accounted(core, T0 + 120)
    assert record.cpu == 60.0 * slots
    assert record.maxvmem == 100 * 1024**2 * slots
    assert record.mem == pytest.approx(100 * 1024**2 * slots * 60 / GIB)


def test_the_jobs_h_vmem_request_is_its_limit_and_infinity_counts_nothing() -> None:
    core = make_core()
    set_global(core, execd_params="ACCT_RESERVED_USAGE")  # a bare name is true
    submit(core, CMDARGS=["10"], l_hard={"h_vmem": "1G"})
    submit(core, CMDARGS=["10"])
    first, second = accounted(core, T0 + 60)
    assert (first.cpu, first.maxvmem, first.mem) == (10.0, GIB, 10.0)
    assert (second.cpu, second.maxvmem, second.mem) == (10.0, 0.0, 0.0)


def test_a_zero_limit_is_the_least_of_h_vmem_and_s_vmem() -> None:
    """calculate_reserved_vmem() takes MIN(h_vmem, s_vmem): an h_vmem of 0 reserves
    nothing, even with a finite s_vmem."""
    core = make_core()
    set_global(core, execd_params="ACCT_RESERVED_USAGE")
    pairs = [["h_vmem", "0"], ["s_vmem", "1G"]]
    request(core, ROOT, "conf_attr", kind="cqueue", mode="set", name="all.q", pairs=pairs)
    submit(core, CMDARGS=["10"])
    (record,) = accounted(core, T0 + 60)
    assert (record.cpu, record.maxvmem, record.mem) == (10.0, 0.0, 0.0)


def test_sharetree_reserved_usage_is_the_online_usage() -> None:
    core = make_core()
    set_global(core, execd_params="SHARETREE_RESERVED_USAGE=1")
    submit(core, CMDARGS=["600"], pe_name="make", pe_min=2, pe_max=2)
    run_until(core, T0 + 100)
    out = request(core, ROOT, "job_detail", T0 + 100, job_ids=["1"])
    (task,) = out.data["jobs"][0]["tasks"]
    started = task["start_time"]
    assert task["usage"]["cpu"] == pytest.approx((T0 + 100 - started) * 2)
