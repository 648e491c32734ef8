"""A cell mixes simulated and local hosts: a host's load value execution=local|simulated."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.effects import StartTask
from qmaster.core.execmode import any_local_host, host_runs_locally
from qmaster.core.stimuli import ConfChange
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, run_until, states, submit


def mark(core: Core, host: str, mode: str) -> None:
    """Add execution=MODE to the host's load_values, as qconf -mattr exechost does."""
    pairs = [("load_values", f"execution={mode}")]
    change = ConfChange(ROOT, "conf_attr", "exechost", host, mode="change", pairs=pairs)
    out = core.handle(change, T0)
    assert not any(a.is_error for a in out.answers), out.answers


def test_a_host_marked_local_runs_its_tasks_until_their_process_ends() -> None:
    """In a simulated cell, host1 marked local keeps 'sleep 5' running past 5 s; the same job
    on host2 ends after its simulated 5 s."""
    core = make_core()
    assert not any_local_host(core)
    mark(core, "host1", "local")
    assert any_local_host(core)
    assert (host_runs_locally(core, "host1"), host_runs_locally(core, "host2")) == (True, False)
    submit(core, ALICE, CMDARGS=["5"], l_hard={"hostname": "host1"})
    submit(core, ALICE, CMDARGS=["5"], l_hard={"hostname": "host2"})
    outs = run_until(core, T0 + 60)
    assert {e.host for o in outs for e in o.effects() if isinstance(e, StartTask)} == {
        "host1",
        "host2",
    }
    assert states(core, T0 + 60) == {"1": "r"}
    core.validate_state()


def test_a_host_marked_simulated_in_a_local_cell_simulates() -> None:
    """In a local cell, host2 marked simulated ends 'sleep 5' after 5 s without a process."""
    core = make_core(local_execution=True)
    mark(core, "host2", "simulated")
    assert (host_runs_locally(core, "host1"), host_runs_locally(core, "host2")) == (True, False)
    submit(core, ALICE, CMDARGS=["5"], l_hard={"hostname": "host2"})
    run_until(core, T0 + 60)
    assert states(core, T0 + 60) == {}
