"""qdel and qalter in the core: messages, ownership, limits, verification."""

from __future__ import annotations

import pytest

from qmaster.core.machine import MAX_ID
from qmaster.gdi.answers import Status
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


def delete(core, who, *ids, force=False, users=None):
    return request(core, who, "delete", T0, job_ids=list(ids), force=force, users=users)


def test_deleting_a_pending_job_removes_it():
    """qdel of a pending job answers '<user> has deleted job N' and the job is gone."""
    core = make_core()
    submit(core, h=True)
    out = delete(core, ALICE, "1")
    assert texts(out) == ["alice has deleted job 1"]
    assert states(core) == {}
    assert out.spool.jobs == {1: None}


def test_deleting_a_running_job_registers_it_for_deletion():
    """qdel of a running job shows dr, then the job ends."""
    core = make_core()
    submit(core, CMDARGS=["100"])
    run_until(core, T0)
    out = delete(core, ALICE, "1")
    assert texts(out) == ["alice has registered the job 1 for deletion"]
    assert states(core) == {"1": "dr"}
    core.tick(T0)
    assert states(core) == {}


def test_unknown_job_is_denied():
    """qdel of a job that does not exist gives Grid Engine's message."""
    core = make_core()
    out = delete(core, ALICE, "99")
    assert texts(out) == ['denied: job "99" does not exist']
    assert out.answers[0].is_error


def test_other_users_job_cannot_be_deleted():
    """A user who does not own a job gets the privileges message; the job stays."""
    core = make_core()
    submit(core, ALICE)
    out = delete(core, BOB, "1")
    assert texts(out) == ['bob - you do not have the necessary privileges to delete the job "1"']
    assert states(core) == {"1": "qw"}


def test_manager_may_delete_any_job():
    """root deletes alice's job."""
    core = make_core()
    submit(core, ALICE)
    assert texts(delete(core, ROOT, "1")) == ["root has deleted job 1"]


def test_delete_by_user_list():
    """qdel -u alice deletes all of alice's jobs and nobody else's."""
    core = make_core()
    submit(core, ALICE, h=True)
    submit(core, BOB, h=True)
    submit(core, ALICE, h=True)
    delete(core, ROOT, users=["alice"])
    assert states(core) == {"2": "hqw"}


def test_delete_one_array_task():
    """qdel 1.3 deletes one task of an array job."""
    core = make_core()
    submit(core, h=True, t_min=1, t_max=5)
    out = delete(core, ALICE, "1.3")
    assert texts(out) == ["alice has deleted job-array task 1.3"]
    assert states(core) == {"1.1,2,4,5": "hqw"}


def test_forced_deletion_needs_to_own_or_manage():
    """qdel -f of someone else's job is refused for a plain user."""
    core = make_core()
    submit(core, ALICE)
    out = delete(core, BOB, "1", force=True)
    assert texts(out) == ['"bob" - forcing a job deletion requires manager privileges']


def test_alter_changes_a_pending_job():
    """qalter -l answers 'modified hard resource list of job N' and stores the change."""
    core = make_core()
    submit(core, h=True)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"l_hard": {"h_rt": "60"}})
    assert texts(out) == ["modified hard resource list of job 1"]
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"h_rt": "60"}
    assert 1 in out.spool.jobs


def test_alter_by_another_user_is_denied():
    """qalter of someone else's job is denied in Grid Engine's words, nothing changes."""
    core = make_core()
    submit(core, ALICE, h=True)
    out = request(core, BOB, "alter", T0, job_ids=["1"], job={"N": "mine"})
    assert texts(out) == ['denied: "bob" must be at least owner of job 1 to change job attributes']
    assert core.jobs[1].name == "job.sh"


def test_alter_of_running_job_changes_what_grid_engine_allows():
    """A running job may be renamed, as mod_job_attributes allows; its project may not change."""
    core = make_core()
    submit(core, CMDARGS=["100"])
    run_until(core, T0)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"N": "x"})
    assert texts(out) == ["modified job name of job 1"]
    assert core.jobs[1].name == "x"
    request(core, ROOT, "conf_modify", T0, kind="project", text="name p1\n", add=True)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"P": "p1"})
    assert texts(out) == ["job 1 can't modify running jobs"]
    assert "P" not in core.jobs[1].spec.to_dict()


def test_release_hold_with_alter():
    """qalter -h n releases a user hold so the job can run."""
    core = make_core()
    submit(core, h=True)
    request(core, ALICE, "alter", T0, job_ids=["1"], job={"h": False})
    run_until(core, T0 + 0.5)
    assert states(core) == {"1": "r"}


@pytest.mark.no_validate_state  # changes the configuration behind the core's back
def test_max_u_jobs_refuses_with_status_25():
    """The per-user job limit refuses with Grid Engine's text and NOTOK_DOAGAIN."""
    core = make_core()
    text = core.config.state.global_conf.render().replace(
        "max_u_jobs                   0", "max_u_jobs                   2"
    )
    change = core.config.apply(
        "conf_modify", {"kind": "global", "text": text, "source": "x"}, "root", "h", True
    )
    assert change.ok, change.answers
    submit(core)
    submit(core)
    out = submit(core)
    assert texts(out) == ["job rejected: Only 2 jobs are allowed per user (current job count: 2)"]
    assert out.answers[0].status == Status.NOTOK_DOAGAIN
    assert len(core.jobs) == 2


def test_refused_submission_changes_nothing():
    """A refused submission leaves no job and no spool rows behind."""
    core = make_core()
    out = submit(core, pe_name="nosuchpe", pe_min=2, pe_max=2)
    assert texts(out) == [
        'job rejected: the requested parallel environment "nosuchpe" does not exist'
    ]
    assert not out.spool
    assert core.jobs == {}


@pytest.mark.parametrize(
    ("spec", "verify", "uses_id"),
    [
        ({"N": "1abc"}, "n", False),  # object_verify_name(): before the number is taken
        ({"t_min": 1, "t_max": 100001}, "n", False),  # max_aj_tasks: before it too
        ({"pe_name": "nosuchpe", "pe_min": 2, "pe_max": 2}, "n", True),
        ({"l_hard": {"nosuch": "1"}}, "n", True),
        ({"q_hard": ["nosuch.q"]}, "n", True),
        ({"P": "nosuch"}, "n", True),
        ({"q_hard": ["all.q@nosuchhost"]}, "e", True),
        ({}, "v", True),  # a verification takes a number as well
    ],
)
def test_a_refusal_after_the_job_number_is_taken_uses_it_up(
    spec: dict[str, object], verify: str, uses_id: bool
) -> None:
    """sge_job_verify_adjust() takes the job number after the name, account and task count
    checks: a submission refused later has used its id, and the next job's id skips it."""
    core = make_core()
    first = submit(core, verify=verify, **spec)
    assert verify == "v" or first.answers[0].is_error
    assert core.jobs == {}
    assert submit(core).data["job_id"] == (2 if uses_id else 1)


def test_job_names_must_not_start_with_a_digit():
    """-N 123abc is refused as Grid Engine refuses it."""
    core = make_core()
    out = submit(core, N="123abc")
    assert texts(out) == ['denied: "123abc" is not a valid object name (cannot start with a digit)']


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("a*b", "Asterisk ('*') not allowed in objectname"),
        ("what?", "Questionmark ('?') not allowed in objectname"),
        ("me@host", "At ('@') not allowed in objectname"),
        ("all", 'Keyword ("ALL") not allowed as objectname'),
        ("x" * 513, "string is longer than 512, this is not allowed for objectnames"),
    ],
)
def test_job_names_follow_grid_engines_qsub_table(name: str, text: str) -> None:
    """A job name is checked as Grid Engine checks it (QSUB_TABLE), at submission and by
    qalter -N, and the job is left as it was."""
    core = make_core()
    assert texts(submit(core, N=name)) == [text]
    assert core.jobs == {}
    submit(core, N="fine")
    assert texts(request(core, ALICE, "alter", T0, job_ids=["1"], job={"N": name})) == [text]
    assert core.jobs[1].name == "fine"


def test_job_names_may_hold_spaces_and_brackets_as_in_grid_engine() -> None:
    """Unlike queue or PE names, a job name may contain a space, brackets or a comma
    (``qsub -b y 'exit 3'`` is named "exit 3")."""
    core = make_core()
    for name in ("exit 3", "run[1],(a|b)", "at 50%"):
        submit(core, N=name)
    assert [job.name for job in core.jobs.values()] == ["exit 3", "run[1],(a|b)", "at 50%"]


def test_verify_modes():
    """-w v answers without submitting; -w e refuses a job no queue can run. Each used a
    job id up (sge_job_verify_adjust() takes the number first): -w w's job is 4."""
    core = make_core()
    out = submit(core, verify="v")
    assert texts(out) == ["verification: found suitable queue(s)"]
    assert core.jobs == {}
    out = submit(core, verify="v", q_hard=["all.q@nosuchhost"])
    assert texts(out)[-1] == "verification: no suitable queues"
    assert out.answers[-1].is_error
    assert (
        'cannot run in queue "all.q@host1" because it is not contained in its hard queue list (-q)'
        in texts(out)
    )
    assert core.jobs == {}
    out = submit(core, verify="e", q_hard=["all.q@nosuchhost"])
    assert texts(out) == ["error: no suitable queues"]
    out = submit(core, verify="w", q_hard=["all.q@nosuchhost"])
    assert texts(out)[0] == "warning: no suitable queues"
    assert list(core.jobs) == [4]


def test_ids_wrap_after_the_maximum_and_skip_ids_in_use():
    """After 9,999,999 the next id is the first one not in use."""
    core = make_core()
    submit(core, h=True)
    submit(core, h=True)
    core.next_job_id = MAX_ID
    assert submit(core, h=True).data["job_id"] == MAX_ID
    assert submit(core, h=True).data["job_id"] == 3


def test_shutdown_needs_a_manager():
    """qconf -km by a plain user is refused; by root it asks the daemon to stop."""
    core = make_core()
    out = request(core, ALICE, "shutdown", T0)
    assert texts(out) == ['denied: "alice" must be manager for this operation']
    assert not out.shutdown
    out = request(core, ROOT, "shutdown", T0)
    assert out.shutdown


def test_alter_w_v_verifies_without_changing():
    """qalter -w v says whether the changed job would find a queue and stores nothing."""
    core = make_core()
    submit(core, h=True)
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"q_hard": ["nosuch.q"]}, verify="v")
    assert texts(out)[-1] == "verification: no suitable queues"
    assert out.answers[-1].is_error
    out = request(core, ALICE, "alter", T0, job_ids=["1"], job={"N": "other"}, verify="v")
    assert texts(out) == ["verification: found suitable queue(s)"]
    assert core.jobs[1].name == "job.sh"
    assert "q_hard" not in core.jobs[1].spec.to_dict()


def test_deleting_a_task_range_names_the_tasks():
    """qdel 1.15-18 of a running array names each running task, then the pending ones in
    one line, in sge_delete_all_tasks_of_job()'s order; qdel 1 of it answers per running
    task and 'has deleted job 1' for the pending ones."""
    core = make_core()
    submit(core, CMDARGS=["100"], t_min=1, t_max=20)
    run_until(core, T0)
    out = delete(core, ALICE, "1.15-18")
    assert texts(out) == [
        "alice has registered the job-array task 1.15 for deletion",
        "alice has registered the job-array task 1.16 for deletion",
        "alice has deleted job-array tasks 17,18 of job 1",
    ]
    out = delete(core, ROOT, "1.1-2", force=True)
    assert texts(out) == [
        "warning: root forced the deletion of job-array task 1.1",
        "warning: root forced the deletion of job-array task 1.2",
    ]
    out = delete(core, ALICE, "1")
    assert texts(out)[0] == "alice has registered the job-array task 1.3 for deletion"
    assert texts(out)[-1] == "alice has deleted job 1"


@pytest.mark.parametrize("op", ["job_detail", "delete", "alter"])
def test_a_job_reference_of_other_digits_is_no_job_id(op: str) -> None:
    """``²`` or ``٣`` is a digit to Python but not to Grid Engine: it names no job (it
    made int() raise inside the qmaster)."""
    core = make_core()
    submit(core)
    extra = {"job": {"N": "x"}} if op == "alter" else {}
    for ref in ("²", "٣"):
        out = request(core, ALICE, op, T0, job_ids=[ref], **extra)
        if op == "job_detail":
            assert out.data["missing"] == [ref]
        elif op == "delete":  # a name: qdel looks among the caller's jobs and says so
            assert texts(out) == [f"The job {ref} of user(s) alice does not exist"]
        else:
            assert texts(out) == [f'denied: job "{ref}" does not exist']


def test_qstat_j_reads_a_job_id_with_atol() -> None:
    """qstat_show_job() asks for atol(word)'s job when the word starts with a digit: 1abc and
    1.5-x are job 1; past 2**63 atol saturates, and the u_long32 it lands in is 4294967295."""
    core = make_core()
    submit(core)
    for ref in ("1", "1abc", "1.5-x", "001"):
        out = request(core, ALICE, "job_detail", T0, job_ids=[ref])
        assert [d["job_id"] for d in out.data["jobs"]] == [1], ref
        assert out.data["missing"] == []
    for ref in ("99999999999999999999", "2abc", "e1"):
        out = request(core, ALICE, "job_detail", T0, job_ids=[ref])
        assert (out.data["jobs"], out.data["missing"]) == ([], [ref])


def test_jobs_not_found_are_answered_as_empty_job_list_filter_does() -> None:
    """qdel shows the job part it sent (7 for 7.3), qalter the number (7 for 007), and qdel
    a missing name with the caller it looked under; a job id is read with atol (1e3: job 1)."""
    core = make_core()
    submit(core, h=True)
    assert texts(request(core, ALICE, "delete", T0, job_ids=["7.3", "007"])) == [
        'denied: job "7" does not exist',
        'denied: job "007" does not exist',
    ]
    assert texts(request(core, ALICE, "delete", T0, job_ids=["nosuch"])) == [
        "The job nosuch of user(s) alice does not exist"
    ]
    altered = request(core, ALICE, "alter", T0, job_ids=["7.3", "007", "nosuch"], job={"A": "x"})
    assert texts(altered) == [
        'denied: job "7" does not exist',
        'denied: job "7" does not exist',
        'denied: job "nosuch" does not exist',
    ]
    assert texts(request(core, ALICE, "alter", T0, job_ids=["1e3"], job={"A": "x"})) == [
        "modified account of job 1"
    ]


def test_a_job_id_with_a_list_of_ranges_is_taken_range_by_range() -> None:
    """qdel 1.1 -t 4-5 comes as 1.1-1:1,4-5:1: tasks 1, 4 and 5 go, the job once looked up;
    qmod -sj takes the same list."""
    core = make_core()
    submit(core, h=True, t_min=1, t_max=6)
    out = request(core, ALICE, "qmod", T0, action="sj", targets=["1.1-1:1,4-4:1"], force=False)
    assert texts(out) == [
        f"Modify operation can not be applied on job-array task 1.{t} in pending/hold state"
        for t in (1, 4)
    ]
    out = delete(core, ALICE, "1.1-1:1,4-5:1")
    assert texts(out) == [
        "alice has deleted job-array task 1.1",
        "alice has deleted job-array tasks 4,5 of job 1",
    ]
    assert str(core.jobs[1].pending) == "2,3,6"
    assert texts(delete(core, ALICE, "9.1-1:1,3-3:1")) == ['denied: job "9" does not exist']


def test_qdel_answers_as_empty_job_list_filter_per_reference():
    """Each reference is answered on its own (sge_gdi_del_job() per ID element): a job that
    exists without the task named is 'task "5" does not exist' (one id) or 'task id range
    "5-10:2" comprises no tasks' (the range as given); with -u the user list is named."""
    core = make_core()
    submit(core, ALICE, h=True)
    submit(core, ALICE, h=True, t_min=1, t_max=4)
    out = delete(core, ALICE, "1.5", "2.5-10:2", "2.3", "9")
    assert texts(out) == [
        'job "1" task "5" does not exist',
        'job "2" task id range "5-10:2" comprises no tasks',
        "alice has deleted job-array task 2.3",
        'denied: job "9" does not exist',
    ]
    assert texts(delete(core, ALICE, "1.5", users=["al*"])) == [
        'job "1" task "5" does not exist for user(s) al*'
    ]
    assert texts(delete(core, ALICE, "2.7-8", users=["alice"])) == [
        'job "2" task id range "7-8:1" comprises no tasks under user(s) alice'
    ]
    assert texts(delete(core, ALICE, "1", users=["bob"])) == [
        "The job 1 of user(s) bob does not exist"
    ]
    assert texts(delete(core, ALICE, users=["bob", "carl"])) == [
        "There is no job registered for the following users: bob,carl"
    ]
    assert states(core) == {"1": "hqw", "2.1,2,4": "hqw"}
    assert texts(delete(core, ALICE, "1.1")) == ["alice has deleted job-array task 1.1"]


def test_qdel_user_lists_are_patterns_and_star_is_every_user():
    """-u takes owner patterns (JB_owner p= user); -u '*' without a job is every user's
    jobs, for a manager only; 'all' is a job name like any other."""
    core = make_core()
    submit(core, ALICE, h=True)
    submit(core, BOB, h=True)
    assert texts(delete(core, ALICE, "all")) == ["The job all of user(s) alice does not exist"]
    assert texts(delete(core, BOB, users=["*"])) == [
        'denied: "bob" must be manager to modify all jobs'
    ]
    assert texts(delete(core, ROOT, users=["b?b"])) == ["root has deleted job 2"]
    assert texts(delete(core, ROOT, users=["*"])) == ["root has deleted job 1"]
    assert texts(delete(core, ROOT, users=["*"])) == ["There are no jobs registered"]


def test_forced_deletion_by_a_user_needs_enable_forced_qdel():
    """sge_gdi_del_job(): -f of a user who is no manager is refused, for the user's own jobs
    too, unless qmaster_params holds ENABLE_FORCED_QDEL; then only the user's own jobs go."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"])
    submit(core, BOB, CMDARGS=["100"])
    run_until(core, T0)
    refused = ['"alice" - forcing a job deletion requires manager privileges']
    assert texts(delete(core, ALICE, "1", force=True)) == refused
    text = core.config.state.global_conf.render().replace(
        "jsv_timeout=10,jsv_threshold=5000", "jsv_timeout=10,jsv_threshold=5000,ENABLE_FORCED_QDEL"
    )
    assert texts(request(core, ROOT, "conf_modify", T0, kind="global", text=text))
    assert texts(delete(core, ALICE, "1", "2", force=True)) == [
        "warning: alice forced the deletion of job 1",
        'alice - you do not have the necessary privileges to delete the job "2"',
    ]
