"""Jobs with a deadline have an urgency that grows with time: while one waits, a pass
reads every pending job instead of the index's groups. The index knows it from the groups
as they come and go (not by looking at every group each pass)."""

from __future__ import annotations

from qmaster.core.pendingindex import pending_index
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, request, submit


def test_the_index_is_timed_exactly_while_a_deadline_job_is_filed() -> None:
    core = make_core()
    members = ["alice", "bob"]
    request(core, ROOT, "conf_add", T0, kind="userset", name="deadlineusers", members=members)
    submit(core, ALICE, T0, CMDARGS=["1000"], dl=int(T0) + 3600)
    submit(core, BOB, T0, CMDARGS=["1000"])
    assert pending_index(core).timed
    request(core, ALICE, "delete", T0 + 1, job_ids=["1"], force=False, users=None)
    assert not pending_index(core).timed  # the deadline job left; the plain one stays
    submit(core, BOB, T0 + 2, CMDARGS=["1000"], dl=int(T0) + 7200)
    submit(core, ALICE, T0 + 2, CMDARGS=["1000"], dl=int(T0) + 7200)
    assert pending_index(core).timed
    request(core, BOB, "delete", T0 + 3, job_ids=["3"], force=False, users=None)
    assert pending_index(core).timed  # one deadline job still waits
    request(core, ALICE, "delete", T0 + 4, job_ids=["4"], force=False, users=None)
    assert not pending_index(core).timed
