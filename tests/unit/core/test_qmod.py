"""qmod: queue instance states (d, s, E), job suspension, error clearing and rescheduling."""

from __future__ import annotations

from qmaster.core import Core, Identity
from qmaster.core.outcome import Outcome
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

Q1 = "all.q@host1"


def qmod(
    core: Core,
    action: str,
    *targets: str,
    who: Identity = ROOT,
    now: float | None = None,
    force: bool = False,
) -> Outcome:
    """One qmod request."""
    return request(core, who, "qmod", now, action=action, targets=list(targets), force=force)


def queue_states(core: Core) -> dict[str, str]:
    out = request(core, ROOT, "job_list", full=True)
    return {q["name"]: q["states"] for q in out.data["queues"]}


def test_disable_and_enable_answer_in_grid_engines_words() -> None:
    """qmod -d/-e change the state column and answer as Grid Engine does."""
    core = make_core()
    assert texts(qmod(core, "d", Q1)) == [f'root@localhost changed state of "{Q1}" (disabled)']
    assert queue_states(core)[Q1] == "d"
    again = qmod(core, "d", Q1)
    assert texts(again) == [f'Queue instance "{Q1}" is already in the specified state: disabled']
    assert not again.answers[0].is_error
    assert texts(qmod(core, "e", Q1)) == [f'root@localhost changed state of "{Q1}" (enabled)']
    assert queue_states(core)[Q1] == ""


def test_wildcards_name_every_matching_instance() -> None:
    """qmod -d all.q disables every instance; '*@host2' only host2's; unknown is refused."""
    core = make_core()
    assert len(texts(qmod(core, "d", "all.q"))) == 4
    core = make_core()
    assert texts(qmod(core, "d", "*@host2")) == [
        'root@localhost changed state of "all.q@host2" (disabled)'
    ]
    bad = qmod(core, "d", "nosuch.q")
    assert texts(bad) == ['invalid queue "nosuch.q"']
    assert bad.answers[0].is_error


def test_only_managers_and_queue_owners_change_queues() -> None:
    """A user may not disable a queue instance: Grid Engine's permission message, no change."""
    core = make_core()
    out = qmod(core, "d", Q1, who=ALICE)
    assert texts(out) == [f'alice - you have no permission to modify queue "{Q1}"']
    assert out.answers[0].is_error
    assert queue_states(core)[Q1] == ""


def test_disabled_queue_takes_no_new_jobs() -> None:
    """A job waits while every queue instance is disabled and runs once one is enabled."""
    core = make_core()
    qmod(core, "d", "all.q")
    submit(core, ALICE, CMDARGS=["100"])
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "qw"}
    why = request(core, ALICE, "job_detail", T0 + 1, job_ids=["1"]).data["jobs"][0]
    assert 'queue instance "all.q@host1" dropped because it is disabled' in why["scheduling_info"]
    qmod(core, "e", "all.q@host3", now=T0 + 2)
    run_until(core, T0 + 3, T0 + 2)
    rows = request(core, ROOT, "job_list", T0 + 3).data["jobs"]
    assert rows[0]["state"] == "r"
    assert rows[0]["queue"] == "all.q@host3"


def _running_job(core: Core, runtime: str = "100") -> str:
    submit(core, ALICE, CMDARGS=[runtime], q_hard=[Q1])
    run_until(core, T0)
    row = request(core, ROOT, "job_list", T0).data["jobs"][0]
    assert row["state"] == "r"
    return str(row["queue"])


def test_suspended_job_keeps_its_remaining_runtime() -> None:
    """qmod -sj stops a 100 s job's clock; after -usj it ends 100 s of running later."""
    core = make_core()
    _running_job(core)
    assert texts(qmod(core, "sj", "1", who=ALICE, now=T0 + 40)) == ["alice - suspended job 1"]
    assert states(core, T0 + 41) == {"1": "s"}
    assert texts(qmod(core, "sj", "1", who=ALICE, now=T0 + 41)) == [
        "alice - job 1 is already suspended"
    ]
    run_until(core, T0 + 500, T0 + 41)
    assert "1" in states(core, T0 + 500)  # it did not end while suspended
    assert texts(qmod(core, "usj", "1", who=ALICE, now=T0 + 500)) == ["alice - unsuspended job 1"]
    run_until(core, T0 + 559, T0 + 500)
    assert states(core, T0 + 559) == {"1": "r"}
    run_until(core, T0 + 561, T0 + 559)
    assert states(core, T0 + 561) == {}


def test_other_users_may_not_suspend_a_job() -> None:
    """bob may not suspend alice's job."""
    core = make_core()
    _running_job(core)
    out = qmod(core, "sj", "1", who=BOB)
    assert texts(out) == ['bob - you have no permission to modify job "1"']
    assert out.answers[0].is_error


def test_suspending_a_queue_suspends_its_jobs() -> None:
    """qmod -sq shows the queue as s and its job as S; -usq lets it run on."""
    core = make_core()
    _running_job(core)
    qmod(core, "s", Q1, now=T0 + 10)
    assert queue_states(core)[Q1] == "s"
    assert states(core, T0 + 10) == {"1": "S"}
    qmod(core, "us", Q1, now=T0 + 50)
    assert states(core, T0 + 50) == {"1": "r"}
    run_until(core, T0 + 139, T0 + 50)
    assert states(core, T0 + 139) == {"1": "r"}
    run_until(core, T0 + 141, T0 + 139)
    assert states(core, T0 + 141) == {}


def test_queue_states_survive_recovery() -> None:
    """Disabled and suspended states are spooled and come back after a restart."""
    core = make_core()
    out = qmod(core, "d", Q1)
    out2 = qmod(core, "s", "all.q@host2")
    counters = {**out.spool.counters, **out2.spool.counters}
    again = Core.recover(core.config, core.settings, [], [], counters, T0 + 5)
    again.tick(T0 + 5)
    assert queue_states(again)[Q1] == "d"
    assert queue_states(again)["all.q@host2"] == "s"


def test_clear_job_error_state() -> None:
    """qmod -cj puts an Eqw job back to qw (answered as an error, as Grid Engine does)."""
    core = make_core()
    core.workdir_error = lambda _path, _owner: "No such file or directory"
    submit(core, ALICE, CMDARGS=["5"], wd="/nonexistent")
    run_until(core, T0)
    assert states(core) == {"1": "Eqw"}
    out = qmod(core, "cj", "1", who=ALICE)
    assert texts(out) == ["alice@localhost cleared error state of job 1"]
    assert out.answers[0].is_error  # Grid Engine answers it with status ESEMANTIC (exit 1)
    assert out.spool.tasks[(1, 0)] is None
    assert states(core) == {"1": "qw"}
    again = qmod(core, "cj", "1", who=ALICE)
    assert texts(again) == ["Modify operation can not be applied on job 1 in pending/hold state"]


def test_reschedule_follows_rerun_rules() -> None:
    """qmod -r: refused in a queue with rerun FALSE unless -r y or -f; then the job waits again."""
    core = make_core()
    _running_job(core)
    out = qmod(core, "rj", "1")
    assert texts(out) == [f"The job 1 is running in queue {Q1} where jobs are not rerunable."]
    assert states(core) == {"1": "r"}
    out = qmod(core, "rj", "1", force=True, now=T0 + 30)
    assert texts(out) == ["Forced rescheduling of job 1 on host host1"]
    assert not out.answers[0].is_error
    assert states(core, T0 + 30) == {"1": "Rq"}
    assert core.booked.slots(Q1) == 0
    acct = [r for r in out.reports if type(r).__name__ == "Acct"]
    assert [(a.failed, a.exit_status, a.end_time - a.start_time) for a in acct] == [(25, 0, 30)]
    row = out.spool.jobs[1]
    assert row is not None
    assert out.spool.tasks[(1, 0)] is None
    again = Core.recover(core.config, core.settings, [row], [], {}, T0 + 30)
    assert states(again, T0 + 30) == {"1": "Rq"}
    run_until(core, T0 + 31, T0 + 30)
    assert states(core, T0 + 31) == {"1": "Rr"}


def test_reschedule_refuses_a_job_submitted_with_r_n() -> None:
    """A job submitted with -r n is not restartable."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"], r=False)
    run_until(core, T0)
    assert texts(qmod(core, "r", "1")) == ["The job 1 is not restartable"]


def test_job_names_are_taken_by_the_job_options_only() -> None:
    """qmod -sj NAME suspends the job called so; -s NAME looks for a queue only."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"], N="sleeper")
    submit(core, ALICE, CMDARGS=["100"], N="waiter", h=True)
    run_until(core, T0)
    out = qmod(core, "s", "sleeper", who=ALICE)
    assert texts(out) == ['invalid queue or job "sleeper"']
    assert out.answers[0].is_error
    assert texts(qmod(core, "sj", "sleeper", who=ALICE)) == ["alice - suspended job 1"]
    assert texts(qmod(core, "c", "nothing")) == ['invalid queue "nothing"']
    assert texts(qmod(core, "sj", "99")) == ['invalid queue or job "99"']
    held = qmod(core, "sj", "2", who=ALICE)
    assert texts(held) == ["Modify operation can not be applied on job 2 in pending/hold state"]
    assert not held.answers[0].is_error


def test_clearing_a_running_job_says_it_is_not_in_error() -> None:
    """qmod -cj of a running job: Grid Engine's "not in error state" answer."""
    core = make_core()
    _running_job(core)
    out = qmod(core, "cj", "1", who=ALICE)
    assert texts(out) == ["Job 1 is not in error state"]
    assert states(core) == {"1": "r"}


def test_forced_job_suspension_answers_as_grid_engine() -> None:
    """qmod -f -sj/-usj: Grid Engine's "forced suspension"/"forced unsuspension" answers."""
    core = make_core()
    _running_job(core)
    assert texts(qmod(core, "sj", "1", force=True)) == ["root - forced suspension of job 1"]
    again = qmod(core, "sj", "1", force=True)
    assert texts(again) == ["root - forced suspension of job 1"]
    assert not again.answers[0].is_error
    done = qmod(core, "usj", "1", force=True)
    assert texts(done) == ["root@localhost forced unsuspension of job 1"]
    assert texts(qmod(core, "usj", "1", force=True)) == ["root - forced enabling of job 1"]
    assert states(core) == {"1": "r"}


def test_two_host_groups_giving_different_values_make_an_instance_ambiguous() -> None:
    """A host in @a and @b with slots given differently by each: state c, no jobs there."""
    core = make_core()
    for text in ("group_name @a\nhostlist host1 host2\n", "group_name @b\nhostlist host2 host3\n"):
        out = request(core, ROOT, "conf_modify", kind="hostgroup", text=text, add=True)
        assert not any(a.is_error for a in out.answers), out.answers
    q = request(core, ROOT, "conf_show", kind="cqueue", name="all.q").data["text"]
    q = q.replace("1,[host1=4],[host2=4],[host3=4],[host4=4]", "1,[@a=2],[@b=3]")
    out = request(core, ROOT, "conf_modify", kind="cqueue", text=q)
    assert not any(a.is_error for a in out.answers), out.answers
    assert queue_states(core) == {
        "all.q@host1": "",
        "all.q@host2": "c",
        "all.q@host3": "",
        "all.q@host4": "",
    }
    submit(core, ALICE, CMDARGS=["100"], q_hard=["all.q@host2"])
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "qw"}


def test_reschedule_of_checkpointing_jobs_needs_r_in_their_occasions() -> None:
    """reschedule_job(): a -ckpt job is restartable only when its -c occasions (else its
    environment's 'when') hold 'r', whatever -r says (the testsuite's
    reschedule_checkpointing); the rerun rules come after; -f reschedules it anyway."""
    core = make_core()
    for name, when in (("with_r", "r"), ("without_r", "s")):
        text = f"ckpt_name {name}\nwhen {when}\n"
        request(core, ROOT, "conf_modify", T0, kind="ckpt", text=text, add=True)
    pairs = [["ckpt_list", "with_r without_r"]]
    request(core, ROOT, "conf_attr", kind="cqueue", mode="set", name="all.q", pairs=pairs)
    submit(core, ALICE, CMDARGS=["100"], ckpt="with_r", r=True)
    submit(core, ALICE, CMDARGS=["100"], ckpt="without_r", r=True)
    submit(core, ALICE, CMDARGS=["100"], ckpt="without_r", c_occasion="sx", r=True)
    submit(core, ALICE, CMDARGS=["100"], ckpt="with_r", r=False)
    run_until(core, T0)
    assert texts(qmod(core, "rj", "1", "2", "3", "4")) == [
        "Pushed rescheduling of job 1 on host host1",
        "2 requests ckpt object without_r. Therefore this job is not restartable.",
        "3 requests ckpt object without_r. Therefore this job is not restartable.",
        "The job 4 is not restartable",
    ]
    assert texts(qmod(core, "rj", "2", force=True)) == [
        "Forced rescheduling of job 2 on host host2"
    ]


def test_a_job_reference_naming_no_task_is_an_invalid_queue_or_job() -> None:
    """sge_gdi_qmod(): a job id whose task range names none of its tasks found nothing:
    'invalid queue or job' with the ID_str the client sent (the id before '.'), exit 1."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"])
    run_until(core, T0)
    out = qmod(core, "sj", "1.3", "2.5")
    assert texts(out) == ['invalid queue or job "1"', 'invalid queue or job "2"']
    assert all(a.is_error for a in out.answers)
    assert texts(qmod(core, "c", "1.3")) == ['invalid queue "1"']
    assert texts(qmod(core, "d", "1.3")) == ['invalid queue "1.3"']
    assert texts(qmod(core, "sj", "1.1")) == ["root - suspended job 1"]


def test_a_name_with_a_task_range_naming_no_task_answers_the_name() -> None:
    """qmod -sj NAME -t 9: the client sends the name as ID_str and the range apart, so
    sge_gdi_qmod() answers 'invalid queue or job "NAME"' (minige showed the range it
    joined to the name: "sleeper.9-9:1")."""
    core = make_core()
    submit(core, ALICE, CMDARGS=["100"], N="sleeper")
    run_until(core, T0)
    out = qmod(core, "sj", "sleeper.9-9:1", "sl*.2-4:2,7-7:1")
    assert texts(out) == ['invalid queue or job "sleeper"', 'invalid queue or job "sl*"']
    assert texts(qmod(core, "sj", "no.name")) == ['invalid queue or job "no.name"']
