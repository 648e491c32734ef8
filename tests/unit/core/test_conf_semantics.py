"""Configuration that Grid Engine accepts, and what it means for jobs."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.view import build_view
from tests.unit.core.helpers import ROOT, T0, make_core, request, rows, run_until, states, submit


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


def test_a_queue_value_shadowed_on_one_host_still_counts_on_the_others() -> None:
    """all.q sets color=blue, host1 sets color=red (==): on host1 the host's red counts,
    on every other host the queue's blue (instances alike but for that share no level)."""
    core = make_core()
    text = request(core, ROOT, "conf_show", kind="complex", name=None).data["text"]
    text += "color color STRING == YES NO NONE 0\n"
    assert not request(core, ROOT, "conf_modify", kind="complex", text=text).answers[0].is_error
    text = request(core, ROOT, "conf_show", kind="exechost", name="host1").data["text"]
    text = "\n".join(
        "complex_values color=red" if line.startswith("complex_values") else line
        for line in text.splitlines()
    )
    out = request(core, ROOT, "conf_modify", kind="exechost", text=text + "\n")
    assert not any(a.is_error for a in out.answers), out.answers
    _set_queue_complex_values(core, "color=blue")
    submit(core, l_hard={"color": "blue"}, CMDARGS=["100"])
    submit(core, l_hard={"color": "red"}, CMDARGS=["100"])
    run_until(core, T0 + 5)
    assert states(core, T0 + 5) == {"1": "r", "2": "r"}
    where = {str(r["job_id"]): r["queue"] for r in rows(core, T0 + 5)}
    assert where["2"] == "all.q@host1"
    assert where["1"].startswith("all.q@")
    assert where["1"] != "all.q@host1"
