"""Stimulus ids and a job's story: what changed it, when and how, kept across restarts."""

from __future__ import annotations

from qmaster.core import Core, Outcome
from qmaster.core.outcome import SpoolDelta
from qmaster.core.quarantine import put_in_error
from qmaster.core.story import COUNTER
from qmaster.testing_cores import CheckedCores
from tests.unit.core.helpers import (
    ALICE,
    BOB,
    ROOT,
    T0,
    answer,
    make_core,
    questions,
    request,
    run_until,
    submit,
    waiting_job,
)


def _story(core: Core, job_id: int) -> list[tuple[float, int, str, str]]:
    return [(x.at, x.stimulus, x.cause, x.change) for x in core.story(job_id)]


def _changes(core: Core, job_id: int) -> list[tuple[str, str]]:
    return [(x.cause, x.change) for x in core.story(job_id)]


def _spooled(outs: list[Outcome]) -> SpoolDelta:
    delta = SpoolDelta()
    for out in outs:
        delta.merge(out.spool)
    return delta


def _restart(core: Core, delta: SpoolDelta, now: float) -> Core:
    """The core as a qmaster restarted on a spool holding ``delta`` finds it."""
    jobs = [r for r in delta.jobs.values() if r is not None]
    tasks = [{**r, "job_id": j} for (j, _), r in delta.tasks.items() if r is not None]
    story = [(j, row) for j, rows in delta.story.items() for row in rows]
    return Core.recover(core.config, core.settings, jobs, tasks, delta.counters, now, story=story)


def test_submit_pass_start_and_end_each_add_their_line() -> None:
    """A job's story: submit by alice, the pass that dispatched it, its start, its end."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["10"], t_min=1, t_max=2, tc=1)
    run_until(core, T0 + 10)
    assert _story(core, 1) == [
        (T0, 1, "submit by alice", "new -> pending (tasks 1-2:1)"),
        (T0, 2, "pass", "pending -> transferring (all.q@host1, task 1)"),
        (T0, 3, "timer start", "transferring -> running (all.q@host1, task 1)"),
        (T0 + 10, 4, "timer end", "running -> finished (all.q@host1, task 1)"),
        (T0 + 10, 5, "pass", "pending -> transferring (all.q@host1, task 2)"),
        (T0 + 10, 6, "timer start", "transferring -> running (all.q@host1, task 2)"),
    ]


def test_a_job_that_leaves_takes_its_story_with_it() -> None:
    """Once a job has ended, it has no story left in memory or in the spool."""
    core = make_core()
    outs = [submit(core, ALICE, T0, CMDARGS=["10"])]
    outs += run_until(core, T0 + 1)
    assert 1 in _spooled(outs).story
    outs += run_until(core, T0 + 10)
    assert core.story(1) == []
    assert core.journal.lines == {}
    assert 1 not in _spooled(outs).story


def test_a_restart_keeps_the_story_and_ids_never_repeat() -> None:
    """After a restart the story reads the same and new stimuli get ids above every old one."""
    core = make_core()
    outs = [submit(core, ALICE, T0, CMDARGS=["100"]), submit(core, BOB, T0, h=True)]
    outs += run_until(core, T0 + 1)
    before = _story(core, 1)
    used = core.journal.next_id - 1
    again = _restart(core, _spooled(outs), T0 + 2)
    assert _story(again, 1) == before
    assert _story(again, 2) == [(T0, 2, "submit by bob", "new -> pending")]
    request(again, ROOT, "alter", T0 + 3, job_ids=["2"], job={}, hold="n")
    assert _story(again, 2)[-1] == (T0 + 3, used + 1, "alter by root", "hold u removed")


def test_ids_increase_by_one_per_changing_stimulus_only() -> None:
    """Queries, refused requests and passes that change nothing take no stimulus id."""
    core = make_core()
    first = submit(core, ALICE, T0, CMDARGS=["100"], h=True)
    assert first.spool.counters[COUNTER] == 2
    request(core, ALICE, "job_list", T0)
    request(core, ROOT, "job_detail", T0, job_ids=["1"])
    refused = request(core, BOB, "delete", T0, job_ids=["1"])
    assert refused.answers[0].is_error
    idle = core.tick(T0)  # a pass: the only job is held
    assert COUNTER not in idle.spool.counters
    assert core.journal.next_id == 2
    out = request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={}, hold="U")
    assert out.spool.counters[COUNTER] == 3
    assert _story(core, 1)[-1] == (T0 + 1, 2, "alter by alice", "hold u removed")


def test_a_refusal_after_changes_rolls_the_id_back() -> None:
    """A request the core refuses records nothing and leaves the counter where it was."""
    core = make_core()
    submit(core, ALICE, T0)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"l_hard": {"nosuch": "1"}})
    assert out.answers[0].is_error
    assert core.journal.next_id == 2
    assert core.story(1)[1:] == []


def test_qdel_of_pending_array_tasks_adds_one_line() -> None:
    """Deleting 9,000 pending tasks of an array adds one line with their range, not 9,000."""
    core = make_core()
    core.config.global_conf.attrs["max_aj_tasks"] = "0"
    core.config.global_conf.__dict__.pop("max_aj_tasks", None)
    submit(core, ALICE, T0, CMDARGS=["100"], t_min=1, t_max=10_000, h=True)
    out = request(core, ALICE, "delete", T0 + 1, job_ids=["1.1001-10000"])
    assert _changes(core, 1)[1:] == [("delete by alice", "pending -> deleted (tasks 1001-10000:1)")]
    assert len(out.spool.story[1]) == 1


def test_qalter_and_holds_are_told() -> None:
    """qalter names the parameters it changed; a hold set or removed is a line of its own."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"], h=True)
    request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={"l_hard": {"h_rt": "60"}, "N": "x"})
    request(core, ROOT, "alter", T0 + 2, job_ids=["1"], job={}, hold="o")
    assert _changes(core, 1)[1:] == [
        ("alter by alice", "altered N, l_hard"),
        ("alter by root", "hold o set"),
    ]


def test_qdel_of_a_running_job_and_its_kill() -> None:
    """qdel of a running job: registered for deletion, then killed by its timer."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"], t_min=1, t_max=2)
    run_until(core, T0 + 1)
    request(core, ALICE, "delete", T0 + 2, job_ids=["1.1"])
    run_until(core, T0 + 2)
    assert _changes(core, 1)[-2:] == [
        ("delete by alice", "running -> deleting (all.q@host1, task 1)"),
        ("timer end", "deleting -> deleted (all.q@host1, task 1)"),
    ]


def test_quarantine_and_error_clearing_are_told(checked_cores: CheckedCores) -> None:
    """A task the qmaster failed on twice goes into error with the reason; qmod -cj clears it."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"])
    run_until(core, T0 + 1)
    out = put_in_error(core, 1, 0, "internal error in qmaster: boom", T0 + 1)
    checked_cores.images[core].apply(out.spool)  # the driver writes what it returned
    request(core, ROOT, "qmod", T0 + 2, action="cj", targets=["1"])
    assert _changes(core, 1)[-2:] == [
        ("quarantine", "running -> error (all.q@host1): the qmaster failed on it twice"),
        ("qmod by root", "error -> pending"),
    ]


def test_a_late_jsv_verdict_is_told() -> None:
    """A job waiting for the server JSV: its wait and the verdict that let it go are lines."""
    core = make_core()
    assert waiting_job(core, now=T0, CMDARGS=["100"]) == 1
    (question,) = questions(core.tick(T0 + 10))
    answer(core, question, "ACCEPT", T0 + 11)
    assert _changes(core, 1) == [
        ("submit by alice", "new -> pending"),
        ("jsv_verdict by alice", "waiting for verification (try 1)"),
        ("jsv_verdict by alice", "verified by JSV (ACCEPT)"),
    ]


def test_a_pending_job_keeps_no_story_object() -> None:
    """Jobs that only wait cost no story entry: the submit line comes from the job itself."""
    core = make_core()
    for _ in range(50):
        submit(core, ALICE, T0, CMDARGS=["100"], h=True)
    core.tick(T0)
    assert core.journal.lines == {}
    assert core.story(50)[0].stimulus == 50


def test_job_detail_carries_the_story_only_when_asked() -> None:
    """job_detail adds "story" rows with "story": true, and nothing without it."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"])
    run_until(core, T0)
    plain = request(core, ROOT, "job_detail", T0, job_ids=["1"]).data["jobs"][0]
    asked = request(core, ROOT, "job_detail", T0, job_ids=["1"], story=True).data["jobs"][0]
    assert "story" not in plain
    assert asked["story"] == [list(x.to_row()) for x in core.story(1)]
    assert asked.keys() - plain.keys() == {"story"}


def test_a_suspension_and_its_end_are_told() -> None:
    """qmod -sj and -usj of a running task: running -> suspended, suspended -> running."""
    core = make_core()
    submit(core, ALICE, T0, CMDARGS=["100"])
    run_until(core, T0 + 1)
    request(core, ROOT, "qmod", T0 + 2, action="sj", targets=["1"])
    request(core, ROOT, "qmod", T0 + 3, action="usj", targets=["1"])
    assert _changes(core, 1)[-2:] == [
        ("qmod by root", "running -> suspended (all.q@host1)"),
        ("qmod by root", "suspended -> running (all.q@host1)"),
    ]
