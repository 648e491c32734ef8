"""One cell, simulated and local hosts: qconf -mattr exechost load_values execution=local."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.localcells import accounting, wait_file_exists

pytestmark = pytest.mark.timeout(120)


def test_a_host_marked_local_runs_real_jobs_beside_simulated_ones(
    served: RunningCell, tmp_path: Path
) -> None:
    """In a simulated cell, a job sent to host1 (marked local with qconf) really runs; the
    same job sent to host2 is simulated: no file, running for its simulated 600 s."""
    mark = ["qconf", "-mattr", "exechost", "load_values", "execution=local", "host1"]
    assert served.run(*mark).returncode == 0
    (tmp_path / "tmp").mkdir()  # the job's TMPDIR: not the shared /tmp of all.q's default
    served.run("qconf", "-mattr", "queue", "tmpdir", str(tmp_path / "tmp"), "all.q", check=True)
    shown = served.run("qconf", "-se", "host1", check=True).stdout
    assert "num_proc=4" in shown
    assert "execution=local" in shown
    (tmp_path / "job.sh").write_text('#!/bin/sh\ntouch "ran.$HOSTNAME"\n')
    for host in ("host1", "host2"):  # 600: the simulated runtime, an unused argument here
        served.run("qsub", "-cwd", "-l", f"h={host}", "job.sh", "600", cwd=tmp_path, check=True)
    wait_file_exists(tmp_path / "ran.host1")
    lines = accounting(served, 1)
    assert [(f[1], f[5], f[12]) for f in lines] == [("host1", "1", "0")]
    deadline = time.monotonic() + 20
    while "all.q@host2" not in served.run("qstat", "-s", "r").stdout:
        assert time.monotonic() < deadline, "job 2 did not start on host2"
        time.sleep(0.1)
    assert not (tmp_path / "ran.host2").exists()
