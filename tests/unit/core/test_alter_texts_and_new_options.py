"""qalter's answers, qdel of names and task ranges, and the 6.2u5 options in the core."""

from __future__ import annotations

import time
from typing import Any

import pytest

from qmaster.core import Core
from tests.unit.core.helpers import (
    ALICE,
    BOB,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    states,
    submit,
    texts,
)


def alter(core: Core, who: Any = ALICE, ids: tuple[str, ...] = ("1",), **job: Any) -> Any:
    return request(core, who, "alter", T0, job_ids=list(ids), job=job)


def add_ckpt(core: Core, name: str) -> None:
    request(core, ROOT, "conf_modify", T0, kind="ckpt", text=f"ckpt_name {name}\n", add=True)


@pytest.mark.parametrize(
    ("change", "answers"),
    [
        ({"h": True}, []),
        ({"h": False}, [f"modified hold of job-array task 1.{t}" for t in range(1, 5)]),
        ({"R": True}, ["modified reservation behaviour of job 1"]),
        ({"r": True}, ["modified restart behaviour of job 1"]),
        ({"N": "other"}, ["modified job name of job 1"]),
        ({"ckpt": "x"}, ["modified checkpointing environment of job 1"]),
        ({"i": ["in"]}, ["modified stdin path list of job 1"]),
        (
            {"pe_name": "mpi", "pe_min": 2, "pe_max": 2},
            [
                "modified parallel environment of job 1",
                "modified slot range of job 1",
            ],
        ),
        (
            {"binding_type": "set", "binding_strategy": "linear_automatic", "binding_amount": 1},
            ["modified binding of job 1"],
        ),
        ({"js": 5}, ["root@localhost sets job share of job 1 to 5"]),
        ({"ot": 7}, ["root@localhost sets override tickets of job 1 to 7"]),
        ({"p": -5}, ["root@localhost sets scheduling priority of job 1 to -5"]),
        (
            {"hold_jid": ["99"]},
            ["modified job id hold list of job 1\n   blocking jobs: \n   exited jobs:   99"],
        ),
        ({"tc": 3}, ["modified task concurrency of job 3"]),
    ],
)
def test_alter_answers_in_grid_engine_words(change: dict[str, Any], answers: list[str]) -> None:
    """Each change answers as mod_job_attributes() does (the -tc line prints the value, as GE)."""
    core = make_core()
    add_ckpt(core, "x")
    submit(core, h=True, t_min=1, t_max=4)
    out = alter(core, ROOT, **change)
    assert texts(out) == answers
    for key, value in change.items():
        if key == "h":
            assert ("u" in core.jobs[1].hold) is value
        else:
            assert core.jobs[1].spec.to_dict()[key] == value


def test_alter_answers_follow_grid_engines_order() -> None:
    """Answers come in mod_job_attributes() order, whatever the order of the switches."""
    core = make_core()
    submit(core, h=True)
    out = alter(core, N="n2", A="acct", R=True)
    assert texts(out) == [
        "modified account of job 1",
        "modified reservation behaviour of job 1",
        "modified job name of job 1",
    ]


def test_context_operations_apply_to_each_jobs_own_context() -> None:
    """qalter -dc a=1 deletes a and keeps b; -ac adds; -sc replaces."""
    core = make_core()
    submit(core, h=True, ac={"a": "1", "b": "2"})
    assert texts(alter(core, context_ops=[["-", "a", "1"]])) == ["modified context of job 1"]
    assert core.jobs[1].spec.to_dict()["ac"] == {"b": "2"}
    alter(core, context_ops=[["+", "c", "3"]])
    assert core.jobs[1].spec.to_dict()["ac"] == {"b": "2", "c": "3"}
    alter(core, context_ops=[["=", "", ""], ["+", "d", ""]])
    assert core.jobs[1].spec.to_dict()["ac"] == {"d": ""}
    assert "context_ops" not in core.jobs[1].spec.to_dict()


def test_context_emptied_by_dc_leaves_the_job_without_context() -> None:
    """clients/qalter qalter_dc: -dc of every variable the job has (set by -ac) is taken
    (it was refused as 'Wrong context list format -ac ""'); the job has no context."""
    core = make_core()
    submit(core, h=True, ac={"myvar": "test", "myvar2": "test2"})
    out = alter(core, context_ops=[["-", "myvar", ""], ["-", "myvar2", ""]])
    assert texts(out) == ["modified context of job 1"]
    assert "ac" not in core.jobs[1].spec.to_dict()


def test_raising_priority_needs_an_operator() -> None:
    """A user may lower his job's priority but not raise it; nothing changes then."""
    core = make_core()
    submit(core, h=True)
    out = alter(core, p=10)
    assert texts(out) == ['denied: "alice" must be operator to increase job priority']
    assert "p" not in core.jobs[1].spec.to_dict()
    assert texts(alter(core, p=-10)) == ["alice@localhost sets scheduling priority of job 1 to -10"]


def test_bare_boolean_request_becomes_true_on_submit_and_alter() -> None:
    """-l display_win_gui is stored as TRUE; a bare non-BOOL request is refused."""
    core = make_core()
    submit(core, h=True, l_hard={"display_win_gui": ""})
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"display_win_gui": "TRUE"}
    alter(core, l_hard={"dwg": ""})
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"display_win_gui": "TRUE"}  # the full name
    out = submit(core, l_hard={"arch": ""})
    assert texts(out) == ['denied: missing value for request "arch"']
    assert len(core.jobs) == 1


@pytest.mark.parametrize(
    "spec",
    [
        {"binding_strategy": "explicit", "binding_exp_n": 2, "binding_exp_socket0": 0},
        {"binding_type": "set", "binding_strategy": "linear", "binding_amount": 1},
        {"binding_type": "bogus", "binding_strategy": "linear_automatic", "binding_amount": 1},
        {"c_occasion": "q"},
        {"dl": "tomorrow"},
    ],
)
def test_bad_option_values_are_refused_from_any_source(spec: dict[str, Any]) -> None:
    """A value the client would refuse is refused by the qmaster too (JSV, old clients)."""
    core = make_core()
    out = submit(core, **spec)
    assert out.answers
    assert all(a.is_error for a in out.answers)
    assert core.jobs == {}


def test_deadline_needs_a_deadline_user() -> None:
    """-dl by a user outside deadlineusers is refused with Grid Engine's text."""
    core = make_core()
    out = submit(core, dl="202612241800.00")
    assert texts(out) == ['job rejected: the user "alice" is no deadline initiation user']
    request(core, ROOT, "conf_add", T0, kind="userset", name="deadlineusers", members=["alice"])
    submit(core, dl="202612241800.00")  # job 2: the refusal used id 1, as in Grid Engine
    # stored as the epoch the scheduler reads
    assert core.jobs[2].spec.to_dict()["dl"] == int(time.mktime((2026, 12, 24, 18, 0, 0, 0, 0, -1)))


def test_qdel_pattern_deletes_only_the_callers_jobs() -> None:
    """qdel 'sl*' deletes alice's sleep jobs and leaves bob's alone, without complaint."""
    core = make_core()
    submit(core, ALICE, N="sleep", h=True)
    submit(core, BOB, N="sleepy", h=True)
    submit(core, ALICE, N="other", h=True)
    out = request(core, ALICE, "delete", T0, job_ids=["sl*"], force=False, users=None)
    assert texts(out) == ["alice has deleted job 1"]
    assert states(core) == {"2": "hqw", "3": "hqw"}


def test_qdel_name_with_task_range_deletes_those_tasks() -> None:
    """qdel sleep -t 2-3 (sent as sleep.2-3:1) deletes tasks 2 and 3 only."""
    core = make_core()
    submit(core, N="sleep", h=True, t_min=1, t_max=4)
    out = request(core, ALICE, "delete", T0, job_ids=["sleep.2-3:1"], force=False, users=None)
    assert texts(out) == ["alice has deleted job-array tasks 2,3 of job 1"]
    assert states(core) == {"1.1,4": "hqw"}


def test_qalter_by_pattern_and_by_user() -> None:
    """qalter 'sl*' changes the caller's matching jobs; -u bob changes all of bob's."""
    core = make_core()
    submit(core, ALICE, N="sleep", h=True)
    submit(core, BOB, N="sleep", h=True)
    assert texts(alter(core, ids=("sl*",), A="x")) == ["modified account of job 1"]
    out = request(core, ROOT, "alter", T0, job_ids=[], users=["bob"], job={"A": "y"})
    assert texts(out) == ["modified account of job 2"]


def test_array_dependency_needs_arrays_of_the_same_range() -> None:
    """-hold_jid_ad is refused for a plain job and against an array of another range."""
    core = make_core()
    submit(core, N="pre", h=True, t_min=1, t_max=4)
    plain = submit(core, hold_jid_ad=["pre"])
    assert texts(plain) == [
        'Can only specify "-hold_jid_ad" option with an array job (using "-t" option)'
    ]
    other = submit(core, hold_jid_ad=["1"], t_min=1, t_max=5)
    assert texts(other)[0].startswith("This array job must have the same range of sub-tasks")
    same = submit(core, hold_jid_ad=["pre"], t_min=1, t_max=4)
    assert not same.answers[0].is_error
    assert sorted(core.jobs) == [1, 4]  # the two refusals used ids 2 and 3


def test_array_dependency_on_a_plain_job_is_refused_as_grid_engine_does() -> None:
    """-hold_jid_ad naming a job without -t: job_verify_predecessors_ad's "Can only specify"
    text (the predecessor is no array job), not the task range text; by id, name or qalter."""
    core = make_core()
    submit(core, N="plain", h=True)
    submit(core, N="arr", h=True, t_min=1, t_max=4)
    can_only = 'Can only specify "-hold_jid_ad" option with an array job (using "-t" option)'
    assert texts(submit(core, hold_jid_ad=["1"], t_min=1, t_max=4)) == [can_only]
    assert texts(submit(core, hold_jid_ad=["plain"], t_min=1, t_max=4)) == [can_only]
    assert texts(alter(core, ids=("2",), hold_jid_ad=["1"])) == [can_only]
    assert sorted(core.jobs) == [1, 2]
    assert core.jobs[2].spec.hold_jid_ad is None


def test_task_concurrency_is_for_array_jobs() -> None:
    """qalter -tc 2 of a plain job is refused in Grid Engine's words; the job stays as it was."""
    core = make_core()
    submit(core, h=True)
    assert texts(alter(core, tc=2)) == ['ERROR! invalid option argument "task concurrency"']
    assert "tc" not in core.jobs[1].spec.to_dict()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"c_occasion": "sx"}, "checkpointing without checkpointing environment requested"),
        ({"c_interval": 300}, "checkpointing without checkpointing environment requested"),
        ({"ckpt": "blcr", "c_occasion": "n"}, 'checkpointing with "-c n" requested'),
        ({"ckpt": "blcr", "c_occasion": "sn"}, 'checkpointing with "-c n" requested'),
        ({"c_occasion": "nr"}, "checkpointing without checkpointing environment requested"),
    ],
)
def test_checkpoint_options_must_agree(spec: dict[str, Any], message: str) -> None:
    """-c needs -ckpt, and -ckpt with -c n is refused, as sge_gdi_add_job() refuses them."""
    core = make_core()
    add_ckpt(core, "blcr")
    assert texts(submit(core, **spec)) == [f"job rejected: {message}"]
    assert core.jobs == {}


def test_hold_of_a_plain_job_answers_once_and_only_on_change() -> None:
    """qalter -h u of a plain job: 'modified hold of job 1'; again: nothing to say."""
    core = make_core()
    submit(core)
    assert texts(alter(core, h=True)) == ["modified hold of job 1"]
    assert texts(alter(core, h=True)) == []
    assert states(core) == {"1": "hqw"}


def test_start_time_holds_the_job_until_then() -> None:
    """qsub -a: the job waits (qw) until its start time, then the pass at that time starts it."""
    core = make_core()
    start = T0 + 600
    stamp = time.strftime("%Y%m%d%H%M.%S", time.localtime(start))
    submit(core, CMDARGS=["100"], a=stamp)
    run_until(core, start - 1)
    assert states(core, start - 1) == {"1": "qw"}
    assert core.next_deadline() is not None
    assert core.next_deadline() <= start
    run_until(core, start + 1)
    assert states(core, start + 1)["1"] in ("t", "r")


def test_job_id_predecessors_as_grid_engine_reads_them() -> None:
    """A -hold_jid reference that starts with a digit is a job id: a task id (1.2) is a job not
    found, the job's own id is refused, and 1abc names job 1 (atoi); a refusal changes nothing."""
    core = make_core()
    submit(core, N="pre", h=True)
    assert texts(submit(core, hold_jid=["1.2"])) == ['denied: job "1.2" not found']
    assert texts(submit(core, hold_jid_ad=["1.2"], t_min=1, t_max=2)) == [
        'denied: job "1.2" not found'
    ]
    # each refusal used a job id up (2, 3): this job would be 4
    assert texts(submit(core, hold_jid=["pre", "4"])) == [
        'denied: job "4" may not be it\'s own jobnet predecessor'
    ]
    assert sorted(core.jobs) == [1]
    waiting = submit(core, hold_jid=["1abc"])
    assert texts(waiting) == ['Your job 5 ("job.sh") has been submitted']
    assert core.jobs.waiting_for(core.jobs[1]) == {5}
    assert texts(alter(core, ids=("5",), hold_jid=["5"])) == [
        'denied: job "5" may not be it\'s own jobnet predecessor'
    ]
    assert texts(alter(core, ids=("5",), hold_jid=["pre", "1.1"])) == [
        'denied: job "1.1" not found'
    ]
    assert list(core.jobs[5].spec.hold_jid or ()) == ["1abc"]


def test_predecessor_checks_come_after_ar_and_verification() -> None:
    """sge_job_verify_adjust() checks -hold_jid last: a missing AR is what a submit with both
    errors hears, and -w v verifies without looking at the hold list."""
    core = make_core()
    [no_ar] = texts(submit(core, ar=7, hold_jid=["1.2"]))
    assert "1.2" not in no_ar
    assert "7" in no_ar
    verified = submit(core, verify="v", hold_jid=["1.2"])
    assert texts(verified) == ["verification: found suitable queue(s)"]
    assert core.jobs == {}


U32_TEXT = "ERROR! -t option must have a list of task id ranges"
LIMIT_TEXT = "job rejected: You try to submit a job with more than 75000 tasks"


@pytest.mark.parametrize(
    ("task_range", "refusal", "next_id"),
    [
        # no job number is taken: a range no u_long32 holds never reaches GE's qmaster
        ({"t_min": 2**32}, U32_TEXT, 1),
        ({"t_min": 1, "t_step": 2**63}, U32_TEXT, 1),
        # the task limit speaks first, as in GE, before the job's number is taken
        ({"t_min": 1, "t_max": 2**64}, LIMIT_TEXT, 1),
    ],
)
def test_task_ids_past_a_u_long32_are_refused(
    task_range: dict[str, int], refusal: str, next_id: int
) -> None:
    """A task id (or step) Grid Engine's u_long32 cannot hold is refused at submit: stored, it
    failed every spool commit from the first start on and no job ran any more."""
    core = make_core()
    out = submit(core, **task_range)
    assert texts(out) == [refusal]
    assert core.jobs == {}
    widest = submit(core, t_min=1, t_max=2**32 - 1, t_step=2**32 - 2)
    assert texts(widest) == [
        f'Your job-array {next_id}.1-4294967295:4294967294 ("job.sh") has been submitted'
    ]


def test_qalter_c_n_of_a_checkpointing_job_is_taken() -> None:
    """qalter -c n -ckpt x (the testsuite's qalter_c): only sge_gdi_add_job() checks that
    -c and -ckpt agree; qalter's changes are not refused for it (a submission still is)."""
    core = make_core()
    add_ckpt(core, "x")
    submit(core, h=True, ckpt="x")
    out = alter(core, ROOT, c_occasion="n", ckpt="x")
    assert not any("rejected" in t for t in texts(out))
    assert core.jobs[1].spec.to_dict()["c_occasion"] == "n"
