"""Holds on single tasks of an array job (qhold 1.2, qrls 1.3), as Grid Engine keeps them."""

from __future__ import annotations

from typing import Any

from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings
from qmaster.core.taskholds import GROUP_ORDER
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    rows,
    run_until,
    states,
    submit,
    texts,
)


def _hold(core: Core, who: Any, ref: str, letters: str) -> list[str]:
    return texts(request(core, who, "alter", None, job_ids=[ref], job={}, hold=letters))


def _pending(core: Core, **args: Any) -> list[tuple[str, str]]:
    return [(r["tasks"], r["state"]) for r in rows(core, **args) if r["state"].endswith("qw")]


def test_a_held_task_waits_while_the_other_tasks_of_its_job_run() -> None:
    """qhold 1.2 holds task 2 only: the scheduler starts 1, 3 and 4; qrls 1.2 lets 2 start."""
    core = make_core()
    submit(core, CMDARGS=["100"], t_min=1, t_max=4)
    assert _hold(core, ALICE, "1.2", "u") == ["modified hold of job-array task 1.2"]
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1.1": "r", "1.3": "r", "1.4": "r", "1.2": "hqw"}
    assert _hold(core, ALICE, "1.2", "U") == ["modified hold of job-array task 1.2"]
    run_until(core, T0 + 2)
    assert states(core, T0 + 2)["1.2"] == "r"


def test_qstat_splits_the_pending_tasks_by_their_holds_in_grid_engines_order() -> None:
    """One qw line for the tasks without a hold, then one hqw line per hold combination
    (u, o, s, then u+o ...), as job_create_hold_id_lists() orders them."""
    core = make_core()
    submit(core, h=True, t_min=1, t_max=10)
    _hold(core, ALICE, "1.1-10", "U")  # every task free again
    _hold(core, ALICE, "1.2", "u")
    _hold(core, ROOT, "1.5-6", "o")
    _hold(core, ROOT, "1.8", "uo")
    assert _pending(core) == [
        ("1,3,4,7,9,10", "qw"),
        ("2", "hqw"),
        ("5,6", "hqw"),
        ("8", "hqw"),
    ]
    assert _pending(core, states="hu") == [("2", "hqw"), ("8", "hqw")]
    assert _pending(core, states="ho") == [("5,6", "hqw"), ("8", "hqw")]
    assert _pending(core, states="hs") == []
    assert [sorted(g) for g in GROUP_ORDER[:6]] == [[], ["u"], ["o"], ["s"], ["a"], ["o", "u"]]


def test_a_whole_job_hold_answers_for_the_tasks_it_changes_only() -> None:
    """qhold 1 on a job whose task 2 is held answers for the others, pending first."""
    core = make_core()
    submit(core, t_min=1, t_max=3, a="209901010000.00")
    _hold(core, ALICE, "1.2", "u")
    assert _hold(core, ALICE, "1", "u") == [
        "modified hold of job-array task 1.1",
        "modified hold of job-array task 1.3",
    ]
    assert _hold(core, ALICE, "1", "u") == []
    assert _hold(core, ALICE, "1.3", "U") == ["modified hold of job-array task 1.3"]
    assert _pending(core) == [("3", "qw"), ("1,2", "hqw")]


def test_task_holds_keep_grid_engines_rights() -> None:
    """An owner may not put an operator hold on a task, nor a user hold on another's task."""
    core = make_core()
    submit(core, t_min=1, t_max=3, h=True)
    assert _hold(core, ALICE, "1.2", "o") == [
        'denied: "alice" must be operator to set operator hold'
    ]
    bob = ALICE.__class__(ALICE.uid + 1, ALICE.gid, "bob", ALICE.group, ALICE.host)
    text = 'denied: "bob" must be at least owner of job 1 to change job attributes'
    assert _hold(core, bob, "1.2", "U") == [text]
    assert core.jobs[1].hold == {"u"}


def test_a_list_of_task_ranges_names_their_union() -> None:
    """``1.1,3`` (how qhold 1.1 -t 3 reaches the qmaster) holds tasks 1 and 3; a range naming
    no task of the job changes nothing and answers nothing, as in Grid Engine."""
    core = make_core()
    submit(core, t_min=1, t_max=4, a="209901010000.00")
    assert _hold(core, ALICE, "1.1,3", "u") == [
        "modified hold of job-array task 1.1",
        "modified hold of job-array task 1.3",
    ]
    assert _hold(core, ALICE, "1.9", "u") == []
    assert str(core.jobs[1].holds["u"]) == "1,3"


def test_a_job_that_is_no_array_is_its_task_1() -> None:
    """qhold 1.1 of a plain job holds the job; qrls 1.2 names no task of it."""
    core = make_core()
    submit(core, a="209901010000.00")
    assert _hold(core, ALICE, "1.1", "u") == ["modified hold of job 1"]
    assert _hold(core, ALICE, "1.2", "U") == []
    assert states(core) == {"1": "hqw"}


def test_a_hold_on_one_task_of_a_million_costs_ranges() -> None:
    """qsub -t 1-1000000, qhold 1.5: two ranges of held and free ids, no million of anything."""
    config = ClusterConfig.from_rows(make_core().config.to_rows())
    config.global_conf.attrs["max_aj_tasks"] = "0"
    config.global_conf.__dict__.pop("max_aj_tasks", None)
    core = Core(config, CoreSettings(admins=frozenset({"root"})))
    submit(core, t_min=1, t_max=1_000_000, a="209901010000.00")
    assert _hold(core, ALICE, "1.5", "u") == ["modified hold of job-array task 1.5"]
    job = core.jobs[1]
    assert len(job.holds["u"].ranges) == 1
    assert _pending(core) == [("1-4:1,6-1000000:1", "qw"), ("5", "hqw")]


def test_held_tasks_survive_a_restart_and_whole_job_holds_spool_as_before() -> None:
    """A held task range is spooled and recovered; a hold of every task is the old row."""
    core = make_core()
    submit(core, t_min=1, t_max=6, a="209901010000.00")
    submit(core, t_min=1, t_max=6, h=True)
    _hold(core, ROOT, "1.2-4", "s")
    first, second = core.jobs[1].to_row(), core.jobs[2].to_row()
    assert (first["hold"], first["holds"]) == ("", {"s": [[2, 5, 1]]})
    assert second["hold"] == "u"
    assert "holds" not in second
    again = Core.recover(core.config, core.settings, [first, second], [], {"job": 3}, T0)
    assert str(again.jobs[1].holds["s"]) == "2-4:1"
    assert _pending(again) == [
        ("1,5,6", "qw"),
        ("2-4:1", "hqw"),
        ("1-6:1", "hqw"),
    ]


def test_an_empty_hold_list_changes_nothing_and_answers_nothing() -> None:
    """qalter -h '' (Grid Engine takes it: no hold named) leaves the holds as they were."""
    core = make_core()
    submit(core, t_min=1, t_max=2, h=True)
    assert _hold(core, ALICE, "1", "") == []
    assert core.jobs[1].hold == {"u"}


def test_a_running_task_with_a_hold_shows_hr() -> None:
    """qhold of a running array task keeps it running, shown hr (JAT_hold); qrls clears it."""
    core = make_core()
    submit(core, CMDARGS=["100"], t_min=1, t_max=2)
    run_until(core, T0 + 1)
    assert _hold(core, ALICE, "1.2", "u") == ["modified hold of job-array task 1.2"]
    assert states(core) == {"1.1": "r", "1.2": "hr"}
    assert [r["tasks"] for r in rows(core, states="hu")] == ["2"]
    _hold(core, ALICE, "1", "U")
    assert states(core) == {"1.1": "r", "1.2": "r"}


def test_qstat_g_d_lists_each_pending_task_once_in_its_own_lines_state() -> None:
    """-g d: the tasks of each pending line, one per line: the free ones qw, then task 2 hqw."""
    core = make_core()
    submit(core, t_min=1, t_max=3, a="209901010000.00")
    _hold(core, ALICE, "1.2", "u")
    listed = [(r["tasks"], r["state"]) for r in rows(core, group="d")]
    assert listed == [("1", "qw"), ("3", "qw"), ("2", "hqw")]


def test_a_whole_job_hold_of_an_array_with_running_tasks_holds_them_too_issue_1800() -> None:
    """Grid Engine's qstat check for issue 1800: 4 tasks of -t 1-1000 -l h=host1 run, then
    qalter -h u of the job. mod_job_attributes() visits the enrolled tasks too and
    job_set_hold_state() sets their JAT_hold, so they show hr; qstat -s hu lists them
    (sge_qstat.c prints a queue's task whose JAT_hold matches a selected hold) beside the
    hqw line of the pending tasks: 5 lines of one job, which the testsuite counts as 1
    (parse_qstat indexes by job id). -s hs and -s ho stay empty until those holds are set."""
    core = make_core()
    submit(core, CMDARGS=["1000"], t_min=1, t_max=1000, l_hard={"h": "host1"})
    run_until(core, T0 + 1)

    def listed(filter_: str) -> list[tuple[str, str]]:
        return [(r["state"], r["tasks"]) for r in rows(core, states=filter_)]

    running = [("r", str(t)) for t in (1, 2, 3, 4)]
    assert listed("p") == [("qw", "5-1000:1")]
    assert listed("hu") == []
    answers = _hold(core, ALICE, "1", "u")
    assert len(answers) == 1000
    assert answers[-4:] == [f"modified hold of job-array task 1.{t}" for t in (1, 2, 3, 4)]
    held = [("hr", t) for _, t in running] + [("hqw", "5-1000:1")]
    assert listed("hu") == held
    assert {r["job_id"] for r in rows(core, states="hu")} == {1}
    assert listed("p") == [("hqw", "5-1000:1")]  # -s p: pending lines only
    assert listed("r") == [("hr", t) for _, t in running]  # the held tasks keep running
    for letter, who in (("s", ROOT), ("o", ROOT)):
        assert listed(f"h{letter}") == []
        assert len(_hold(core, who, "1", letter)) == 1000
        assert listed(f"h{letter}") == held
