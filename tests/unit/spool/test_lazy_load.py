"""Recovery reads job rows one at a time and keeps one copy of each repeated string."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool, SpoolError


def _row(job_id: int) -> dict[str, object]:
    env = {"SGE_O_PATH": "/usr/local/bin:/usr/bin:/bin", "SGE_O_HOME": "/home/alice"}
    return {"job_id": job_id, "spec": {"CMDNAME": "sleep", "N": f"job{job_id}", "v": env}}


def test_recovered_specs_share_their_strings(tmp_path: Path) -> None:
    """Two jobs of the same user hold the same SGE_O_PATH object, and read back equal."""
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(jobs={1: _row(1), 2: _row(2)}))
    first, second = spool.load_lazily().jobs
    assert [first, second] == [_row(1), _row(2)]
    path1, path2 = first["spec"]["v"]["SGE_O_PATH"], second["spec"]["v"]["SGE_O_PATH"]
    assert path1 is path2
    assert next(iter(first["spec"])) is next(iter(second["spec"]))  # the key "CMDNAME"
    assert spool.load().jobs == [_row(1), _row(2)]


def test_lazy_rows_fail_on_a_damaged_row_when_reached(tmp_path: Path) -> None:
    """A damaged job row stops recovery where it is read, unless errors are ignored."""
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(jobs={1: _row(1), 3: _row(3)}))
    spool._db.execute("INSERT INTO jobs VALUES (2, '{broken')")
    rows = iter(spool.load_lazily().jobs)
    assert next(rows)["job_id"] == 1
    with pytest.raises(SpoolError, match="damaged row"):
        next(rows)
    kept = [r["job_id"] for r in spool.load_lazily(ignore_errors=True).jobs]
    assert kept == [1, 3]
