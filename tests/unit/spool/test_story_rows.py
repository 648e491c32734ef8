"""Story lines are spool rows: written with their change, read back, deleted with the job."""

from __future__ import annotations

from pathlib import Path

from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings, Outcome
from qmaster.core.outcome import SpoolDelta
from qmaster.spool.database import Spool
from tests.unit.core.helpers import ALICE, T0, make_core, request, run_until, submit


def _commit(path: Path, core: Core, outs: list[Outcome]) -> Spool:
    spool = Spool(path)
    spool.commit(SpoolDelta(config={(k, n): t for k, n, t in core.config.to_rows()}))
    for out in outs:
        spool.commit(out.spool)
    return spool


def _recovered(spool: Spool, now: float) -> Core:
    snap = spool.load()
    return Core.recover(
        ClusterConfig.from_rows(snap.config),
        CoreSettings(admins=frozenset({"root"})),
        snap.jobs,
        snap.tasks,
        snap.counters,
        now,
        story=snap.story,
    )


def test_a_restart_from_the_sqlite_spool_keeps_every_story(tmp_path: Path) -> None:
    """After a restart each job's story reads as before, and the counter goes on from there."""
    core = make_core()
    outs = [submit(core, ALICE, T0, CMDARGS=["100"], t_min=1, t_max=3, h=True)]
    outs.append(request(core, ALICE, "alter", T0, job_ids=["1"], job={}, hold="U"))
    outs.append(submit(core, ALICE, T0, CMDARGS=["100"]))
    outs += run_until(core, T0 + 1)
    spool = _commit(tmp_path / "spool.db", core, outs)
    again = _recovered(spool, T0 + 2)
    assert [again.story(j) for j in (1, 2)] == [core.story(j) for j in (1, 2)]
    assert again.journal.next_id == core.journal.next_id
    spool.close()


def test_story_rows_go_with_their_job(tmp_path: Path) -> None:
    """A job that ended leaves no story row behind in the spool."""
    core = make_core()
    outs = [submit(core, ALICE, T0, CMDARGS=["5"]), submit(core, ALICE, T0, CMDARGS=["100"])]
    outs += run_until(core, T0 + 1)
    spool = _commit(tmp_path / "spool.db", core, outs)
    assert {job_id for job_id, _ in spool.load().story} == {1, 2}
    for out in run_until(core, T0 + 5):
        spool.commit(out.spool)
    assert {job_id for job_id, _ in spool.load().story} == {2}
    spool.close()
