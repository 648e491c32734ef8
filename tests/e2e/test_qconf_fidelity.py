"""qconf against a running qmaster where Grid Engine 6.2u5's behaviour is the contract."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(90)

STOCK = Path(__file__).parents[1] / "data" / "ge62u5_complexes"


def test_stock_complex_table_round_trips(served: RunningCell, tmp_path: Path) -> None:
    """-Mc of Grid Engine's stock table works, -sc prints it back; a refused -Mc adds nothing."""
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()
    loaded = served.run("qconf", "-Mc", str(STOCK))
    assert loaded.returncode == 0, loaded.stderr
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()
    lines = [ln for ln in STOCK.read_text().splitlines() if not ln.startswith("arch ")]
    (tmp_path / "c").write_text("\n".join([*lines, "gpu gpu INT <= YES YES 0 0"]) + "\n")
    refused = served.run("qconf", "-Mc", str(tmp_path / "c"))
    assert refused.returncode == 1
    assert "added" not in refused.stdout + refused.stderr
    assert 'The built-in complex "arch" cannot be deleted' in refused.stderr
    assert served.run("qconf", "-sc").stdout == STOCK.read_text()


def test_show_switches_answer_as_grid_engine(served: RunningCell, tmp_path: Path) -> None:
    """-sq alone, -sq on an instance, -sconf of a host and -se answer as Grid Engine does."""
    template = served.run("qconf", "-sq")
    assert template.returncode == 0
    assert template.stdout.splitlines()[0].split() == ["qname", "template"]
    instance = served.run("qconf", "-sq", "all.q@host1")
    assert instance.returncode == 0, instance.stderr
    assert instance.stdout.splitlines()[1].split() == ["hostname", "host1"]
    assert ["slots", "4"] in [ln.split() for ln in instance.stdout.splitlines()]
    missing = served.run("qconf", "-sq", "all.q@nohost")
    assert missing.returncode == 1
    assert missing.stderr == (
        'No cluster queue or queue instance matches the phrase "all.q@nohost"\n'
    )
    local = served.run("qconf", "-sconf", "host1")
    assert (local.returncode, local.stdout, local.stderr) == (
        1, "", "configuration host1 not defined\n",
    )  # fmt: skip
    host = served.run("qconf", "-se", "host1").stdout.splitlines()
    assert ["processors", "4"] in [ln.split() for ln in host]


def test_add_switches_refuse_existing_objects(served: RunningCell, tmp_path: Path) -> None:
    """-Aq of an existing queue says it already exists and leaves the queue unchanged."""
    before = served.run("qconf", "-sq", "all.q").stdout
    (tmp_path / "q").write_text(before.replace("seq_no                0", "seq_no 9"))
    added = served.run("qconf", "-Aq", str(tmp_path / "q"))
    assert (added.returncode, added.stderr) == (1, 'cluster queue "all.q" already exists\n')
    assert served.run("qconf", "-sq", "all.q").stdout == before
    (tmp_path / "q").write_text(before.replace("all.q", "new.q", 1))
    modified = served.run("qconf", "-Mq", str(tmp_path / "q"))
    assert modified.returncode == 1
    assert 'denied: cluster queue "new.q" does not exist' in modified.stderr


def test_global_host_exists_in_a_fresh_cell(served: RunningCell, tmp_path: Path) -> None:
    """qconf -se global works in a fresh cell, -sel does not list it, -Me global changes it."""
    shown = served.run("qconf", "-se", "global")
    assert shown.returncode == 0, shown.stderr
    assert "global" not in served.run("qconf", "-sel").stdout.split()
    (tmp_path / "g").write_text(
        shown.stdout.replace("complex_values        NONE", "complex_values        h_vmem=64G")
    )
    changed = served.run("qconf", "-Me", str(tmp_path / "g"))
    assert changed.returncode == 0, changed.stderr
    after = [ln.split() for ln in served.run("qconf", "-se", "global").stdout.splitlines()]
    assert ["complex_values", "h_vmem=64G"] in after


def test_queue_may_set_an_equality_attribute_hosts_report(
    served: RunningCell, tmp_path: Path
) -> None:
    """qconf -Mq with complex_values arch=... is accepted, as Grid Engine accepts it."""
    text = served.run("qconf", "-sq", "all.q").stdout
    (tmp_path / "q").write_text(
        text.replace("complex_values        NONE", "complex_values        arch=lx-amd64")
    )
    result = served.run("qconf", "-Mq", str(tmp_path / "q"))
    assert result.returncode == 0, result.stderr
    assert "arch=lx-amd64" in served.run("qconf", "-sq", "all.q").stdout


def _state(cell: RunningCell, job_id: str, timeout: float = 15.0, want: str = "r") -> str:
    deadline = time.monotonic() + timeout
    state = ""
    while time.monotonic() < deadline:
        rows = [ln.split() for ln in cell.run("qstat", "-u", "*").stdout.splitlines()[2:]]
        state = next((r[4] for r in rows if r and r[0] == job_id), "")
        if state == want:
            break
        time.sleep(0.2)
    return state


def test_memory_request_runs_on_simulated_hosts(served: RunningCell) -> None:
    """qsub -l mem_free=1G runs: simulated hosts report execd's standard load values."""
    job = served.run("qsub", "-terse", "-b", "y", "-l", "mem_free=1G", "sleep", "30")
    assert job.returncode == 0, job.stderr
    assert _state(served, job.stdout.strip()) == "r"


def test_jsv_settings_are_qmaster_params(served: RunningCell, tmp_path: Path) -> None:
    """qconf -sconf shows jsv_timeout in qmaster_params, and -Mconf changes it there."""
    text = served.run("qconf", "-sconf").stdout
    assert "jsv_timeout=10,jsv_threshold=5000" in text
    (tmp_path / "g").write_text(text.replace("jsv_timeout=10", "jsv_timeout=3"))
    assert served.run("qconf", "-Mconf", str(tmp_path / "g")).returncode == 0
    assert "jsv_timeout=3,jsv_threshold=5000" in served.run("qconf", "-sconf").stdout


def test_projects_with_qconf_and_qsub(served: RunningCell, tmp_path: Path) -> None:
    """Projects are added (file or $EDITOR), shown, listed, deleted; qsub -P checks them."""
    assert served.run("qconf", "-sprjl").stderr == "no project list defined\n"
    (tmp_path / "p").write_text("name    p1\noticket 0\nfshare  0\nacl     NONE\nxacl    NONE\n")
    added = served.run("qconf", "-Aprj", str(tmp_path / "p"))
    assert added.returncode == 0, added.stderr
    assert served.run("qconf", "-sprj", "p1").stdout == (tmp_path / "p").read_text()
    editor = tmp_path / "ed.sh"
    editor.write_text("#!/bin/sh\nsed -i 's/template/p2/' \"$1\"\n")
    editor.chmod(0o755)
    edited = served.run("qconf", "-aprj", env={"EDITOR": str(editor)})
    assert edited.returncode == 0, edited.stderr
    assert served.run("qconf", "-sprjl").stdout.split() == ["p1", "p2"]
    refused = served.run("qsub", "-P", "nosuch", "-b", "y", "sleep", "1")
    assert refused.returncode == 1
    assert 'job rejected: the requested project "nosuch" does not exist' in refused.stderr
    assert served.run("qsub", "-P", "p1", "-b", "y", "sleep", "1").returncode == 0
    assert served.run("qconf", "-dprj", "p2").returncode == 0
    assert served.run("qconf", "-sprj", "p2").stderr == "p2 is not known as project\n"


def test_ckpt_environments_with_qconf_and_qrsub(served: RunningCell, tmp_path: Path) -> None:
    """Checkpointing environments are added, shown and listed; qrsub -ckpt checks them."""
    assert served.run("qconf", "-sckptl").stderr == "no ckpt interface definition defined\n"
    refused = served.run("qrsub", "-d", "1:0:0", "-ckpt", "blcr")
    assert refused.returncode == 1
    assert 'the requested checkpointing environment "blcr" does not exist' in refused.stdout
    (tmp_path / "c").write_text("ckpt_name blcr\ninterface userdefined\n")
    assert served.run("qconf", "-Ackpt", str(tmp_path / "c")).returncode == 0
    assert served.run("qconf", "-sckptl").stdout.split() == ["blcr"]
    assert served.run("qconf", "-sckpt", "blcr").stdout.startswith("ckpt_name          blcr\n")
    no_queue = served.run("qrsub", "-d", "1:0:0", "-ckpt", "blcr")
    assert no_queue.stdout == "advance_reservation: no suitable queues\n"  # no ckpt_list has it
    queue = served.run("qconf", "-sq", "all.q").stdout.splitlines()
    lines = ["ckpt_list blcr" if ln.startswith("ckpt_list") else ln for ln in queue]
    (tmp_path / "q").write_text("\n".join(lines) + "\n")
    assert served.run("qconf", "-Mq", str(tmp_path / "q")).returncode == 0
    assert served.run("qrsub", "-d", "1:0:0", "-ckpt", "blcr").returncode == 0


def test_grid_engine_global_configuration_loads(served: RunningCell) -> None:
    """qconf -Mconf of a Grid Engine 6.2u5 global configuration file is accepted."""
    path = Path(__file__).parents[1] / "data" / "ge62u5_configuration"
    result = served.run("qconf", "-Mconf", str(path))
    assert result.returncode == 0, result.stderr
    assert "additional_jvm_args          -Xmx256m" in served.run("qconf", "-sconf").stdout
