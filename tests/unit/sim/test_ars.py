"""Advance reservations of a replay, from a file of qrsub lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.sim.ars import read_ars
from qmaster.sim.mapping import MappingError
from qmaster.sim.replay import ReplayOptions, replay

CELL = Path(__file__).resolve().parents[3] / "examples" / "sim" / "cell"


def test_lines_are_read_with_qrsub_grammar_and_ordered_by_time(tmp_path: Path) -> None:
    """'@T' says when the qrsub is made; the rest are qrsub's switches; comments are skipped."""
    path = tmp_path / "ars"
    path.write_text("# maintenance\n@1:0:0 -d 600 -pe mpi 8 -N late\n\n-d 60 -l h_rt=60 -N early\n")
    first, second = read_ars(path, 2026)
    assert (first.at, first.spec["N"], first.spec["d"], first.line) == (0.0, "early", 60.0, 4)
    assert (second.at, second.spec["pe_name"], second.spec["pe_min"]) == (3600.0, "mpi", 8)


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    """A switch qrsub would refuse stops the replay with the file, the line and qrsub's words."""
    path = tmp_path / "ars"
    path.write_text("-d 60\n-x 1\n")
    with pytest.raises(MappingError, match=r"ars:2: .*invalid option argument \"-x\""):
        read_ars(path, 2026)


def test_a_reservation_holds_its_slots(tmp_path: Path) -> None:
    """A job needing the whole cell waits until an AR holding 8 of its slots has ended."""
    trace = tmp_path / "t.swf"
    trace.write_text("1 10 -1 50 32 -1 -1 32 100 -1 1 1 1 1 -1 1 -1 -1\n")
    ars = tmp_path / "ars"
    ars.write_text("-d 100 -pe mpi 8\n-d 100 -pe mpi 64\n")
    done = replay(ReplayOptions(trace, CELL, tmp_path / "out", ars=ars, plots=False))
    assert done.results[0].start == 100.0
    assert [ar_id for _, ar_id, _ in done.ars] == [1, None]
    assert done.summary["ars"] == {
        "granted": [1],
        "refused": {"2": "advance_reservation: no suitable queues"},
    }
    assert ":ar_acct:" in (tmp_path / "out" / "reporting").read_text()
    without = replay(ReplayOptions(trace, CELL, None, plots=False))
    assert without.results[0].start == 10.0
