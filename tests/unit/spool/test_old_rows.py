"""A spool written before job specifications were typed recovers unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qmaster.clock import VirtualClock
from qmaster.core import Core
from qmaster.core.outcome import SpoolDelta
from qmaster.core.validate import validate_state
from qmaster.recovery import RecoveryFailed, recover_core
from qmaster.spool.database import Spool
from tests.unit.core.helpers import ROOT, T0, make_core, submit

# A job row as the qmaster of session 9 (dict specifications) spooled it for
#   qsub -t 1-5:2 -h -l h_rt=0:1:0,a=lx-amd64 -soft -l mem_free=1G -pe make 2-4
#        -binding explicit:0,1 ... job.sh 30 x     (submitted by root)
OLD_ROW = json.loads(
    '{"job_id": 1, "owner": [0, 0, "root", "root", "localhost"], "submit_time": 1767225600.0,'
    ' "spec": {"CMDNAME": "job.sh", "CMDARGS": ["30", "x"], "script": "#!/bin/sh\\nsleep 30\\n",'
    ' "N": "old", "o": ["/tmp/o"], "j": true, "cwd": "/home/alice",'
    ' "v": {"SGE_O_HOME": "/home/alice", "A": ""}, "ac": {"k": "v"}, "A": "acct", "p": -5,'
    ' "h": true, "hold_jid": ["7"], "l_hard": {"h_rt": "60", "arch": "lx-amd64"},'
    ' "l_soft": {"mem_free": "1G"}, "q_hard": ["all.q"], "pe_name": "make", "pe_min": 2,'
    ' "pe_max": 4, "r": true, "m": "be", "M": ["a@b"], "t_min": 1, "t_max": 5, "t_step": 2,'
    ' "R": true, "S": ["/bin/sh"], "a": "203001011200.00", "notify": true, "c_occasion": "n",'
    ' "i": ["/dev/null"], "js": 3, "tc": 2, "binding_type": "set",'
    ' "binding_strategy": "explicit", "binding_exp_n": 1, "binding_exp_socket0": 0,'
    ' "binding_exp_core0": 1}, "array": [1, 5, 2], "hold": "u", "verify_wait": null,'
    ' "restarted": []}'
)


def _recovered(tmp_path: Path, *newer: dict[str, Any]) -> Core:
    """The core of a spool holding OLD_ROW as that qmaster wrote it (its spec an object,
    not text), and rows committed now."""
    spool = Spool(tmp_path / "spool.db")
    spool.commit(SpoolDelta(jobs={row["job_id"]: row for row in newer}, counters={"job": 9}))
    spool._db.execute("INSERT INTO jobs VALUES (1, ?)", (json.dumps(OLD_ROW),))
    snap = spool.load_lazily()
    base = make_core()
    jobs = list(snap.jobs)
    return Core.recover(base.config, base.settings, jobs, snap.tasks, snap.counters, T0)


def test_an_old_row_recovers_with_every_value(tmp_path: Path) -> None:
    """Every option of a job spooled before the change is back, typed, and spools alike."""
    core = _recovered(tmp_path)
    job = core.jobs[1]
    assert job.spec.to_dict() == OLD_ROW["spec"]
    assert job.to_row() == OLD_ROW
    assert (job.name, job.priority, job.slots, job.hold) == ("old", -5, 2, frozenset("u"))
    assert job.spec.resource("h_rt") == "60"
    assert job.spec.binding_explicit == (("binding_exp_socket0", 0), ("binding_exp_core0", 1))
    validate_state(core)


def test_old_and_new_rows_recover_side_by_side(tmp_path: Path) -> None:
    """A cell spooled before, with jobs submitted since, recovers both kinds of rows."""
    newer = {**OLD_ROW, "job_id": 2, "spec": {**OLD_ROW["spec"], "N": "new"}}
    core = _recovered(tmp_path, newer)
    assert [core.jobs[1].to_row(), core.jobs[2].to_row()] == [OLD_ROW, newer]
    assert core.jobs[2].spec.env is core.jobs[1].spec.env
    spool = Spool(tmp_path / "spool.db")
    text = spool._db.execute("SELECT row FROM jobs WHERE job_id=2").fetchone()[0]
    head, spec = text.split("\n")  # the new form: the row, then its spec's text
    assert json.loads(spec) == newer["spec"]
    assert "spec" not in json.loads(head)
    assert spool.load().jobs == [OLD_ROW, newer]
    validate_state(core)


def test_the_same_submission_spools_the_same_row() -> None:
    """A job submitted now is spooled as the qmaster before the change spooled it."""
    core = make_core()
    spec = dict(OLD_ROW["spec"])
    spec["l_hard"] = {"h_rt": "0:1:0", "a": "lx-amd64"}  # as typed: shortcut, TIME text
    submit(core, ROOT, T0, **spec)
    row = core.jobs[1].to_row()
    assert row.pop("stimulus") == 1  # new since: the id of the stimulus that submitted it
    assert row == OLD_ROW


def _damaged(tmp_path: Path) -> tuple[Spool, Core]:
    """A spool of jobs 1-3 whose job 2 has its specification's text cut short."""
    spool = Spool(tmp_path / "spool.db")
    base = make_core()
    config = {(k, n): t for k, n, t in base.config.to_rows()}
    rows = {i: {**OLD_ROW, "job_id": i} for i in (1, 2, 3)}
    spool.commit(SpoolDelta(jobs=rows, config=config, counters={"job": 4}))
    text = spool._db.execute("SELECT row FROM jobs WHERE job_id=2").fetchone()[0]
    spool._db.execute("UPDATE jobs SET row=? WHERE job_id=2", (text[:-5],))
    return spool, base


@pytest.mark.no_validate_state  # the refused recovery leaves its half-built core behind
def test_a_damaged_spec_line_names_its_row(tmp_path: Path) -> None:
    """A job row whose specification text is damaged stops recovery with the row named."""
    spool, base = _damaged(tmp_path)
    with pytest.raises(RecoveryFailed, match=r"the job row 2 is not what the table holds"):
        recover_core(spool, base.settings, VirtualClock(T0), ignore_errors=False, freeze=False)


def test_a_damaged_spec_line_is_left_out_when_errors_are_ignored(tmp_path: Path) -> None:
    """--ignore-state-errors recovers the jobs around a row with a damaged specification."""
    spool, base = _damaged(tmp_path)
    core = recover_core(spool, base.settings, VirtualClock(T0), ignore_errors=True, freeze=False)
    assert sorted(core.jobs) == [1, 3]
