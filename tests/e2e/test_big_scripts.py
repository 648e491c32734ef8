"""Job scripts of megabytes, as Grid Engine's testsuite submits them, and the frame cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def big_script(path: Path, mib: int) -> Path:
    """A script of ``mib`` MiB of comment lines that sleeps one second."""
    line = "#" * 1023 + "\n"
    path.write_text("#!/bin/sh\n" + line * (1024 * mib) + "sleep 1\n")
    return path


def test_a_script_of_several_mib_is_submitted_and_kept(served: RunningCell, tmp_path: Path) -> None:
    """qsub of a 3 MiB script: submitted under the default frame cap, shown by qstat -j
    (held, so that it is still there)."""
    result = served.run("qsub", "-h", "-N", "big", str(big_script(tmp_path / "big.sh", 3)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == 'Your job 1 ("big") has been submitted\n'
    assert "job_name:                   big" in served.run("qstat", "-j", "1").stdout


def test_a_script_over_the_cap_is_refused_in_words(
    stopped_cell: RunningCell, tmp_path: Path
) -> None:
    """With max_frame_bytes at 1 MiB a 2 MiB script is refused with the qmaster's reason,
    exit 1 (it said 'unable to send message to qmaster: Broken pipe'), and nothing is kept."""
    stopped_cell.env["MINIGE_MAX_FRAME_BYTES"] = str(1024 * 1024)
    stopped_cell.start()
    result = stopped_cell.run("qsub", str(big_script(tmp_path / "big.sh", 2)))
    assert result.returncode == 1
    assert result.stderr.startswith("Unable to run job: request refused: frame of ")
    assert "exceeds the cap of 1048576" in result.stderr
    assert stopped_cell.run("qstat", "-u", "*").stdout == ""
    assert stopped_cell.run("qsub", "-b", "y", "true").returncode == 0
