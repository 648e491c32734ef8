"""qconf's status and daemon switches against a running qmaster: -sss -secl -kec -sconfl,
-shgrp_tree/-shgrp_resolved, -kej."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def _wait(check: object, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_scheduler_host_and_event_clients(minige_cell: RunningCell) -> None:
    """-sss names the qmaster's host; -secl lists the scheduler and a qevent; -kec ends it."""
    host = minige_cell.run("qconf", "-sss").stdout.strip()
    assert host
    proc = subprocess.Popen(
        ["qevent", "-json"], env=minige_cell.env, stdout=subprocess.DEVNULL, text=True
    )
    try:
        assert _wait(lambda: "qevent" in minige_cell.run("qconf", "-secl").stdout)
        lines = minige_cell.run("qconf", "-secl").stdout.splitlines()
        assert lines[0].split() == ["ID", "NAME", "HOST"]
        assert lines[2].split() == ["1", "scheduler", host]
        ident = lines[3].split()[0]
        killed = minige_cell.run("qconf", "-kec", ident)
        assert killed.returncode == 0, killed.stderr
        assert killed.stdout.strip().endswith("kills qevent")
        assert proc.wait(timeout=10) is not None
        assert "qevent" not in minige_cell.run("qconf", "-secl").stdout
    finally:
        proc.kill()
        proc.wait()
    refused = minige_cell.run("qconf", "-kec", "1")
    assert refused.returncode == 1


def test_sconfl_and_host_group_views(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-sconfl lists global; -shgrp_tree indents nested groups; -shgrp_resolved flattens."""
    assert minige_cell.run("qconf", "-sconfl").stdout == "global\n"
    (tmp_path / "g").write_text("group_name @sub\nhostlist host1\n")
    assert minige_cell.run("qconf", "-Ahgrp", str(tmp_path / "g")).returncode == 0
    (tmp_path / "t").write_text("group_name @top\nhostlist @sub host2\n")
    assert minige_cell.run("qconf", "-Ahgrp", str(tmp_path / "t")).returncode == 0
    tree = minige_cell.run("qconf", "-shgrp_tree", "@top").stdout
    assert tree == "@top\n   @sub\n      host1\n   host2\n"
    assert minige_cell.run("qconf", "-shgrp_resolved", "@top").stdout == "host1 host2\n"
    missing = minige_cell.run("qconf", "-shgrp_tree", "@nope")
    assert missing.returncode == 1


def test_kej_kills_the_jobs_on_a_host(minige_cell: RunningCell) -> None:
    """-kej host kills the jobs running there; they leave qstat with exit status 137."""
    out = minige_cell.run("qsub", "-b", "y", "sleep", "1000").stdout
    job = out.split()[2]
    assert _wait(lambda: " r " in minige_cell.run("qstat").stdout)
    line = minige_cell.run("qstat").stdout.splitlines()[2]
    host = line.split()[7].partition("@")[2]
    done = minige_cell.run("qconf", "-kej", host)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"sent shutdown and kill notification to  execd host {host}"
    assert _wait(lambda: job not in minige_cell.run("qstat").stdout.split())
    acct = minige_cell.run("qacct", "-j", job).stdout
    assert any(line.split() == ["exit_status", "137"] for line in acct.splitlines())
    unknown = minige_cell.run("qconf", "-kej", "nohost")
    assert unknown.returncode == 1
    assert '"nohost" is not an execution host' in unknown.stderr
    assert minige_cell.run("qconf", "-ke", host).returncode == 0
    assert f"all.q@{host}" in minige_cell.run("qselect", "-qs", "u").stdout.split()


def test_sobjl_finds_objects_by_attribute(minige_cell: RunningCell) -> None:
    """-sobjl matches attribute and value patterns; queue_instance gives host values."""
    assert minige_cell.run("qconf", "-sobjl", "queue", "qname", "all*").stdout == "all.q\n"
    assert minige_cell.run("qconf", "-sobjl", "pe", "allocation_rule", "*nomatch*").stdout == ""
    minige_cell.run("qconf", "-mattr", "queue", "seq_no", "7", "all.q@host1", check=True)
    shown = minige_cell.run("qconf", "-sobjl", "queue_instance", "seq_no", "7")
    assert shown.stdout == "all.q@host1\n"
