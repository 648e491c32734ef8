"""Requests stored as Grid Engine stores them, and accounting lines that always parse."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Outcome
from qmaster.events.records import Acct
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    submit,
    texts,
)


def _accts(outs: list[Outcome]) -> list[Acct]:
    return [r for o in outs for r in o.reports if isinstance(r, Acct)]


def _detail_spec(core: Any, job_id: int) -> dict[str, Any]:
    out = request(core, ROOT, "job_detail", T0, job_ids=[str(job_id)])
    spec: dict[str, Any] = out.data["jobs"][0]["job"]
    return spec


def test_time_requests_are_stored_in_seconds() -> None:
    """-l h_rt=0:10:0 is kept (and shown by qstat -j) as h_rt=600; memory keeps its text."""
    core = make_core()
    submit(core, CMDARGS=["1"], l_hard={"h_rt": "0:10:0", "h_vmem": "1G", "h": "host1"})
    assert _detail_spec(core, 1)["l_hard"] == {"h_rt": "600", "h_vmem": "1G", "hostname": "host1"}


def test_qalter_stores_time_requests_in_seconds() -> None:
    """qalter -l s_rt=1:0:0 is stored as s_rt=3600, like a submission."""
    core = make_core()
    submit(core, CMDARGS=["1"], h=True)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"l_soft": {"s_rt": "1:0:0"}})
    assert texts(out) == ["modified soft resource list of job 1"]
    assert _detail_spec(core, 1)["l_soft"] == {"s_rt": "3600"}


def test_infinite_time_is_stored_as_infinity() -> None:
    """h_rt=INFINITY stays INFINITY."""
    core = make_core()
    submit(core, CMDARGS=["1"], l_hard={"h_rt": "infinity"})
    assert _detail_spec(core, 1)["l_hard"] == {"h_rt": "INFINITY"}


@pytest.mark.parametrize("char", [":", "/", "@", "*", "?"])
def test_account_refuses_grid_engine_forbidden_characters(char: str) -> None:
    """-A with a character Grid Engine refuses in an account string is rejected, nothing kept."""
    core = make_core()
    out = submit(core, A=f"acc{char}x")
    assert len(texts(out)) == 1
    assert f"('{char}') not allowed in objectname" in texts(out)[0]
    assert core.jobs == {}


def test_accounting_line_has_45_fields_for_every_kind_of_value() -> None:
    """A job with a time request, a colon in a string request, an account and a PE pattern."""
    core = make_core()
    submit(
        core,
        CMDARGS=["1"],
        N="my.job",
        A="dept-7 (x)",
        l_hard={"h_rt": "0:10:0", "arch": "lx:amd64|*"},
        pe_name="m*",
        pe_min=2,
        pe_max=2,
    )
    (acct,) = _accts(run_until(core, T0 + 5))
    fields = acct.accounting_line().split(":")
    assert len(fields) == 45
    assert acct.granted_pe in ("make", "mpi")
    assert acct.category == "-l arch=lx:amd64|*,h_rt=600 -pe m* 2"


def test_category_follows_grid_engine_order() -> None:
    """Queues, master queues, hard and soft requests sorted by name, PE, then AR."""
    core = make_core()
    submit(
        core,
        CMDARGS=["1"],
        q_hard=["all.q@host2", "all.q@host1"],
        masterq=["all.q@host1"],
        l_hard={"h_vmem": "1G", "arch": "*"},
        l_soft={"h_rt": "60"},
    )
    (acct,) = _accts(run_until(core, T0 + 5))
    assert acct.category == (
        "-q all.q@host1,all.q@host2 -masterq all.q@host1 -l arch=*,h_vmem=1G -soft -l h_rt=60"
    )


def test_positive_priority_needs_an_operator() -> None:
    """-p 10 by a user is refused with Grid Engine's words; a manager may; -p -10 anyone."""
    core = make_core()
    out = submit(core, p=10)
    assert texts(out) == ["job rejected: positive submission priority requires operator privileges"]
    assert core.jobs == {}
    assert not submit(core, p=-10).answers[0].is_error  # job 2: the refusal used id 1
    out = request(core, ALICE, "alter", T0, job_ids=["2"], job={"p": 5})
    # qalter: mod_job_attributes() refuses any increase by a non-operator
    assert texts(out) == ['denied: "alice" must be operator to increase job priority']
    assert not submit(core, ROOT, p=10).answers[0].is_error
