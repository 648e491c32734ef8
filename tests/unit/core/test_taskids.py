"""TaskIds, the compact set of pending task ids, against a plain sorted list."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qmaster.core.jobs import format_id_runs
from qmaster.core.taskids import TaskIds

ids_st = st.lists(st.integers(1, 60), max_size=40)
range_st = st.builds(
    lambda a, n, s: range(a, a + n * s, s),
    st.integers(1, 60),
    st.integers(0, 25),
    st.integers(1, 7),
)


def _ranges_apart(t: TaskIds) -> bool:
    rs = t.ranges
    return all(r and (len(r) > 1 or r.step == 1) for r in rs) and all(
        a[-1] < b.start for a, b in itertools.pairwise(rs)
    )


def _built(base: range, removed: list[int], added: list[int]) -> tuple[TaskIds, list[int]]:
    """A set grown as a pending array is: a range, ids dispatched, ids rescheduled."""
    t = TaskIds.of(base)
    model = set(base)
    for x in removed:
        t.discard(x)
        model.discard(x)
    for x in added:
        t.add(x)
        model.add(x)
    return t, sorted(model)


@given(range_st, ids_st, ids_st)
def test_changes_keep_the_same_ids_as_a_list(
    base: range, removed: list[int], added: list[int]
) -> None:
    """Dispatching and rescheduling tasks leaves exactly the ids a plain list would hold."""
    t, model = _built(base, removed, added)
    assert list(t) == model
    assert list(reversed(t)) == model[::-1]
    assert len(t) == len(model)
    assert bool(t) == bool(model)
    assert all((x in t) == (x in model) for x in range(70))
    assert _ranges_apart(t)
    if model:
        assert t.first == model[0]
        assert t[0] == model[0]
        assert t[-1] == model[-1]


@given(range_st, ids_st, ids_st, st.integers(-3, 50), st.integers(-3, 50))
def test_indexing_and_slicing_match_a_list(
    base: range, removed: list[int], added: list[int], i: int, j: int
) -> None:
    """ids[i], ids[:n] and ids[i:j] give what the sorted list gives."""
    t, model = _built(base, removed, added)
    assert list(t[i:j]) == model[i:j]
    assert list(t[:j]) == model[:j]
    assert t.take(j) == model[: max(j, 0)]
    assert list(t[i:j:2]) == model[i:j:2]
    if -len(model) <= i < len(model):
        assert t[i] == model[i]
    else:
        with pytest.raises(IndexError):
            t[i]


@given(range_st, ids_st, ids_st, range_st, ids_st)
def test_difference_and_intersection_match_sets(
    base: range, removed: list[int], added: list[int], other: range, other_ids: list[int]
) -> None:
    """Taking out a qdel range or another set, and intersecting, act as set operations."""
    t, model = _built(base, removed, added)
    for o in (TaskIds.of(other), TaskIds.from_ids(other_ids), other):
        ids = set(o)
        assert list(t - o) == sorted(set(model) - ids)
        assert list(t & o) == sorted(set(model) & ids)
        assert _ranges_apart(t - o)
        assert _ranges_apart(t & o)
        assert t.issubset(o) == set(model).issubset(ids)
    copy = t.copy()
    copy.difference_update(other)
    assert list(copy) == sorted(set(model) - set(other))
    assert list(t) == model


@given(range_st, ids_st, ids_st)
def test_text_is_qstats_runs(base: range, removed: list[int], added: list[int]) -> None:
    """str() prints the runs qstat prints for the same ids, however the ranges are kept."""
    t, model = _built(base, removed, added)
    assert str(t) == format_id_runs(model)
    assert str(TaskIds.from_ids(model)) == str(t)
    assert TaskIds.from_ids(model) == t


@settings(max_examples=30)
@given(ids_st)
def test_remove_refuses_an_absent_id(ids: list[int]) -> None:
    """remove() of an id not in the set raises as list.remove does and changes nothing."""
    t = TaskIds.from_ids(ids)
    with pytest.raises(ValueError):
        t.remove(1000)
    assert list(t) == sorted(set(ids))


def test_a_million_tasks_are_one_range() -> None:
    """-t 1-1000000 is one range; dispatching from the front keeps it one range."""
    t = TaskIds.of(range(1, 1_000_001))
    for x in t.take(1000):
        t.remove(x)
    assert t.ranges == (range(1001, 1_000_001),)
    assert str(t) == "1001-1000000:1"
    t.add(5)
    assert str(t) == "5,1001-1000000:1"
    assert len(t) == 999_001
    t.difference_update(range(1, 1_000_001, 2))
    assert len(t.ranges) <= 3
    assert len(t) == 499_500


def test_text_of_common_sets() -> None:
    """Lone ids and steps print as qstat prints them."""
    assert str(TaskIds.of(range(1, 11, 4))) == "1-9:4"
    assert str(TaskIds.from_ids([7])) == "7"
    assert str(TaskIds.from_ids([1, 2, 4, 5])) == "1,2,4,5"  # range_to_dstring: "a,b"
    assert str(TaskIds.from_ids([1, 5, 6, 7])) == "1,5-7:1"  # a lone id stays alone
    assert str(TaskIds.from_ids([1, 2, 10, 20, 30])) == "1,2,10-30:10"
    assert str(TaskIds()) == ""
    assert not TaskIds()
