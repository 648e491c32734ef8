"""Queue types as sge_queue_match_static() reads them: a -ckpt job needs its environment in
the queue's ckpt_list, a -now y job an INTERACTIVE queue, a serial job a BATCH queue."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Core
from qmaster.core.query import queue_rows
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    states,
    submit,
    texts,
)


def set_queue(core: Core, attr: str, value: str) -> None:
    out = request(core, ROOT, "conf_attr", kind="cqueue", mode="set", name="all.q",
                  pairs=[[attr, value]])  # fmt: skip
    assert not any(a.is_error for a in out.answers), texts(out)


def add_ckpt(core: Core, name: str) -> None:
    request(core, ROOT, "conf_modify", T0, kind="ckpt", text=f"ckpt_name {name}\n", add=True)


def why_not(core: Core, **spec: Any) -> list[str]:
    """``qsub -w v``'s answer: the reasons, then the verdict."""
    job = {"CMDNAME": "job.sh", **spec}  # "now" is -now y here, not submit()'s time
    return texts(request(core, ALICE, "submit", job=job, verify="v"))


@pytest.mark.parametrize(
    ("queue", "spec", "reason"),
    [
        ({}, {"ckpt": "blcr"}, "because it is not of type checkpointing"),
        (
            {"ckpt_list": "other"},
            {"ckpt": "blcr"},
            'because ckpt object "blcr" is not in ckpt list',
        ),
        ({"qtype": "INTERACTIVE"}, {}, "because it is not of type batch"),
        ({"qtype": "BATCH"}, {"now": True}, "because it is not of type interactive"),
        (
            {"pe_list": "NONE"},
            {"pe_name": "make", "pe_min": 2, "pe_max": 2},
            "because it is not of parallel type",
        ),
    ],
)
def test_a_queue_of_the_wrong_type_is_no_queue_for_the_job(
    queue: dict[str, str], spec: dict[str, Any], reason: str
) -> None:
    core = make_core()
    add_ckpt(core, "blcr")
    add_ckpt(core, "other")
    for attr, value in queue.items():
        set_queue(core, attr, value)
    answer = why_not(core, **spec)
    assert answer[-1] == "verification: no suitable queues"
    assert f'"all.q@host1" {reason}' in "\n".join(answer)


def test_a_ckpt_job_runs_where_the_ckpt_list_names_its_environment() -> None:
    """Before, a -ckpt job ran in any queue; now it waits until all.q lists blcr, and qstat
    shows the queue as C(heckpointing)."""
    core = make_core()
    add_ckpt(core, "blcr")
    submit(core, ckpt="blcr", CMDARGS=["600"])
    submit(core, ckpt="blcr", pe_name="make", pe_min=2, pe_max=2, CMDARGS=["600"])
    run_until(core, T0 + 30)
    assert states(core) == {"1": "qw", "2": "qw"}
    set_queue(core, "ckpt_list", "blcr")
    run_until(core, T0 + 60)
    assert states(core) == {"1": "r", "2": "r"}
    assert {row["qtype"] for row in queue_rows(core)} == {"BIPC"}


def test_an_interactive_only_queue_takes_parallel_and_immediate_jobs_only() -> None:
    core = make_core()
    set_queue(core, "qtype", "INTERACTIVE")
    assert {row["qtype"] for row in queue_rows(core)} == {"IP"}
    assert (
        why_not(core, pe_name="make", pe_min=2, pe_max=2)[-1]
        == "verification: found suitable queue(s)"
    )
    assert why_not(core, now=True)[-1] == "verification: found suitable queue(s)"
    assert why_not(core)[-1] == "verification: no suitable queues"


def test_the_qtype_column_has_the_bit_order_whatever_order_the_queue_names() -> None:
    """qinstance_print_qtype_to_dstring() walks the type bits (BATCH, INTERACTIVE), then
    P and C: 'INTERACTIVE BATCH' is BIP too, a lower-case 'batch' is a B."""
    core = make_core()
    set_queue(core, "qtype", "INTERACTIVE BATCH")
    assert {row["qtype"] for row in queue_rows(core)} == {"BIP"}
    set_queue(core, "qtype", "batch")
    assert {row["qtype"] for row in queue_rows(core)} == {"BP"}
