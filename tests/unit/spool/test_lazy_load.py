"""Recovery reads job rows one at a time and keeps one copy of each repeated string."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.core.jobspec import from_spooled, lookup
from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool, SpoolError
from qmaster.spool.jobrows import decode_row


def _row(job_id: int) -> dict[str, object]:
    env = {"SGE_O_PATH": "/usr/local/bin:/usr/bin:/bin", "SGE_O_HOME": "/home/alice"}
    return {"job_id": job_id, "spec": {"CMDNAME": "sleep", "N": f"job{job_id}", "v": env}}


def test_recovered_specs_share_their_strings(tmp_path: Path) -> None:
    """Two jobs of the same user hold the same SGE_O_PATH object, and read back equal."""
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(jobs={1: _row(1), 2: _row(2)}))
    first, second = (from_spooled(row["spec"]) for row in spool.load_lazily().jobs)
    assert [first.to_dict(), second.to_dict()] == [_row(1)["spec"], _row(2)["spec"]]
    assert lookup(first.env, "SGE_O_PATH") is lookup(second.env, "SGE_O_PATH")
    assert first.env is second.env  # the whole environment, once
    assert spool.load().jobs == [_row(1), _row(2)]


def test_equal_spooled_specs_recover_as_one_object(tmp_path: Path) -> None:
    """Jobs submitted alike share one specification after a restart (decoded once)."""
    spool = Spool(tmp_path / "spool.db")
    alike = {"job_id": 0, "spec": {"CMDNAME": "sleep", "v": {"SGE_O_HOME": "/home/bob"}}}
    spool.commit(SpoolDelta(jobs={i: {**alike, "job_id": i} for i in (1, 2, 3)}))
    specs = [from_spooled(row["spec"]) for row in spool.load_lazily().jobs]
    assert specs[0] is specs[1] is specs[2]
    assert specs[0].to_dict() == alike["spec"]


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


def test_a_row_with_trailing_text_is_damaged() -> None:
    """A row that is JSON followed by anything else is refused as JSON refuses it."""
    assert decode_row('{"a": [1, "x"]}') == {"a": [1, "x"]}
    assert decode_row(" [1] ") == [1]
    with pytest.raises(ValueError, match="Extra data"):
        decode_row('{"a": 1} x')
    with pytest.raises(ValueError, match="Expecting value"):
        decode_row("")
