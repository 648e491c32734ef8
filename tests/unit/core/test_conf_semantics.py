"""Configuration that Grid Engine accepts, and what it means for jobs."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.view import build_view
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, states, submit


def _set_queue_complex_values(core: Core, value: str) -> None:
    text = request(core, ROOT, "conf_show", kind="cqueue", name="all.q").data["text"]
    text = text.replace("complex_values        NONE", f"complex_values        {value}")
    out = request(core, ROOT, "conf_modify", kind="cqueue", text=text)
    assert not any(a.is_error for a in out.answers), out.answers


def test_queue_arch_below_the_host_arch_is_accepted_and_the_host_value_counts() -> None:
    """all.q may set arch (==) although hosts report it; jobs still match the hosts' arch."""
    core = make_core()
    _set_queue_complex_values(core, "arch=sol-sparc64")
    assert core.config.cqueues["all.q"].attrs["complex_values"] == "arch=sol-sparc64"
    submit(core, l_hard={"arch": "lx-amd64"}, CMDARGS=["100"])
    run_until(core, T0 + 5)
    assert states(core, T0 + 5) == {"1": "r"}


def test_memory_requests_match_simulated_hosts() -> None:
    """-l mem_free=1G runs on a simulated host; -l mem_free=100G waits (no host has it)."""
    core = make_core()
    submit(core, l_hard={"mem_free": "1G"}, CMDARGS=["100"])
    submit(core, l_hard={"mem_free": "100G"}, CMDARGS=["100"])
    run_until(core, T0 + 5)
    assert states(core, T0 + 5) == {"1": "r", "2": "qw"}


def test_host_load_follows_running_slots() -> None:
    """A host running 2 of its 4 slots reports np_load_avg 0.5 to the scheduler."""
    core = make_core()
    submit(core, q_hard=["all.q@host1"], CMDARGS=["100"])
    submit(core, q_hard=["all.q@host1"], CMDARGS=["100"])
    run_until(core, T0 + 5)
    level = build_view(core, T0 + 5).host("host1").level
    assert level.values["np_load_avg"] == 0.5
    assert level.values["load_avg"] == 2.0
