"""The core's job table keeps its name and -hold_jid indexes whichever dict method changes it."""

from __future__ import annotations

import copy
import pickle

from qmaster.core.jobtable import JobTable, index_problems
from tests.unit.core.helpers import make_core, submit


def _table() -> JobTable:
    core = make_core()
    submit(core, N="prep")
    submit(core, N="post", hold_jid=["prep"])
    submit(core, N="last", hold_jid=["1"])
    table = JobTable()  # a table of its own: the core's must stay as the core keeps it
    for job_id, job in core.jobs.items():
        table[job_id] = job
    return table


def test_every_dict_method_keeps_the_indexes() -> None:
    """pop, popitem, setdefault, update and clear file and unfile as [] and del do."""
    jobs = _table()
    last_id, last = jobs.popitem()
    first = jobs.pop(1)
    assert last_id == 3
    assert index_problems(jobs) == []
    assert jobs.named(first.owner.user, "prep") == set()
    assert jobs.pop(1, None) is None
    jobs.setdefault(1, first)
    assert jobs.waiting_for(first) == {2}
    jobs.update({3: last})
    assert index_problems(jobs) == []
    assert jobs.waiting_for(first) == {2, 3}
    jobs.clear()
    assert index_problems(jobs) == []
    assert jobs.waiting_for(first) == set()


def test_a_copied_or_pickled_table_keeps_its_indexes() -> None:
    jobs = _table()
    for again in (pickle.loads(pickle.dumps(jobs)), copy.deepcopy(jobs), copy.copy(jobs)):
        assert isinstance(again, JobTable)
        assert index_problems(again) == []
        assert again.named(again[1].owner.user, "post") == {2}
