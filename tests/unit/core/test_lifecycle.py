"""A job's life in the core: submission, dispatch, run, end, and what is reported."""

from __future__ import annotations

import pytest

from qmaster.core.errors import IllegalTransition
from qmaster.core.jobs import Task
from qmaster.core.states import TaskState
from qmaster.events.records import Acct, JobLog
from tests.unit.core.helpers import ALICE, T0, make_core, run_until, states, submit, texts


def test_submit_answers_like_grid_engine():
    """A submission is answered with Grid Engine's line and the job is pending."""
    core = make_core()
    out = submit(core, CMDNAME="/home/alice/sleep.sh", CMDARGS=["5"])
    assert texts(out) == ['Your job 1 ("sleep.sh") has been submitted']
    assert out.data == {"job_id": 1, "name": "sleep.sh", "tasks": None}
    assert states(core) == {"1": "qw"}


def test_submission_is_spooled_with_the_id_counter():
    """The job row and the next id are in the same outcome, to commit together."""
    core = make_core()
    out = submit(core)
    assert 1 in out.spool.jobs
    assert out.spool.counters == {"job": 2, "stimulus": 2}


def test_job_runs_for_its_first_argument_then_finishes():
    """The first job argument is the simulated runtime; then the job leaves the system."""
    core = make_core()
    submit(core, CMDARGS=["30"])
    core.tick(T0)
    assert states(core) == {"1": "t"}
    core.tick(T0)
    assert states(core) == {"1": "r"}
    run_until(core, T0 + 29)
    assert states(core) == {"1": "r"}
    outs = run_until(core, T0 + 31)
    assert states(core) == {}
    accts = [r for o in outs for r in o.reports if isinstance(r, Acct)]
    assert [(a.exit_status, a.ru_wallclock, a.hostname) for a in accts] == [(0, 30, "host1")]


def test_non_numeric_argument_uses_the_default_runtime():
    """Without a numeric first argument the configured default runtime applies."""
    core = make_core(default_runtime=7.0)
    submit(core, CMDARGS=["input.dat"])
    run_until(core, T0 + 6)
    assert states(core) == {"1": "r"}
    run_until(core, T0 + 8)
    assert states(core) == {}


def test_h_rt_kills_the_job_with_sigkill_status():
    """A job running longer than its h_rt is killed at h_rt: exit status 137, failed 100."""
    core = make_core()
    submit(core, CMDARGS=["100"], l_hard={"h_rt": "0:0:10"})
    outs = run_until(core, T0 + 200)
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert (acct.exit_status, acct.end_time - acct.start_time) == (137, 10)
    assert acct.failed == 100  # the execd killed it with a signal


def test_deleted_running_job_is_accounted_as_killed():
    """qdel of a running job accounts it with exit 137 and failed 100 (assumedly after job)."""
    from tests.unit.core.helpers import request

    core = make_core()
    submit(core, CMDARGS=["100"])
    run_until(core, T0 + 1)
    request(core, ALICE, "delete", T0 + 2, job_ids=["1"])
    outs = run_until(core, T0 + 3, start=T0 + 2)
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert (acct.exit_status, acct.failed) == (137, 100)


def test_s_rt_ends_the_job_with_sigusr1_status():
    """s_rt below the runtime ends the job with the status of SIGUSR1 (138), failed 100."""
    core = make_core()
    submit(core, CMDARGS=["100"], l_hard={"s_rt": "20", "h_rt": "30"})
    outs = run_until(core, T0 + 200)
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert (acct.exit_status, acct.end_time - acct.start_time) == (138, 20)
    assert acct.failed == 100


def test_exit_status_can_be_simulated():
    """MINIGE_EXIT_STATUS in the job environment becomes the job's exit status."""
    core = make_core()
    submit(core, CMDARGS=["1"], v={"MINIGE_EXIT_STATUS": "3"})
    outs = run_until(core, T0 + 5)
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert acct.exit_status == 3


def test_job_log_follows_the_states():
    """The reporting records of a job are pending, sent, running, finished."""
    core = make_core()
    out = submit(core, CMDARGS=["1"])
    outs = [out, *run_until(core, T0 + 5)]
    events = [r.event for o in outs for r in o.reports if isinstance(r, JobLog)]
    assert events == ["pending", "sent", "running", "finished"]


def test_array_job_tasks_have_their_own_states():
    """An array job's tasks are dispatched one by one and shown per task."""
    core = make_core()
    out = submit(core, CMDARGS=["10"], t_min=1, t_max=20, t_step=1)
    assert texts(out) == ['Your job-array 1.1-20:1 ("job.sh") has been submitted']
    core.tick(T0)
    core.tick(T0)
    shown = states(core)
    assert [k for k, v in shown.items() if v == "r"] == [f"1.{i}" for i in range(1, 17)]
    assert shown["1.17-20:1"] == "qw"


def test_array_range_with_step_drops_the_remainder():
    """-t 1-10:4 has tasks 1, 5 and 9."""
    core = make_core()
    out = submit(core, t_min=1, t_max=10, t_step=4)
    assert out.data["tasks"] == "1-9:4"


def test_user_hold_keeps_the_job_pending():
    """A job submitted with -h shows hqw and is not dispatched."""
    core = make_core()
    submit(core, h=True)
    run_until(core, T0 + 5)
    assert states(core) == {"1": "hqw"}


def test_hold_jid_waits_for_the_predecessor():
    """-hold_jid keeps a job in hqw until the named job has finished."""
    core = make_core()
    submit(core, CMDARGS=["10"], N="first")
    submit(core, CMDARGS=["5"], hold_jid=["first"])
    run_until(core, T0 + 5)
    assert states(core) == {"1": "r", "2": "hqw"}
    run_until(core, T0 + 12)
    assert states(core) == {"2": "r"}


def test_priority_orders_dispatch():
    """With one free slot left, the job with the higher -p runs first."""
    core = make_core()
    submit(core, CMDARGS=["100"], t_min=1, t_max=15)
    submit(core, CMDARGS=["100"], N="low", p=-10)
    submit(core, CMDARGS=["100"], N="high", p=-1)
    core.tick(T0)
    assert states(core)["3"] == "t"
    assert states(core)["2"] == "qw"


def test_missing_working_directory_puts_the_job_in_error_state():
    """A job whose working directory does not exist goes to Eqw at start."""
    core = make_core()
    core.workdir_error = lambda path, _owner: (
        "No such file or directory" if path == "/nonexistent" else None
    )
    submit(core, wd="/nonexistent")
    core.tick(T0)
    core.tick(T0)
    assert states(core) == {"1": "Eqw"}


def test_illegal_transition_is_a_typed_error_with_the_story():
    """A finished task cannot start again; the error carries its history."""
    task = Task(1, TaskState.PENDING)
    task.move(7, TaskState.FINISHED, "deleted")
    with pytest.raises(IllegalTransition) as exc:
        task.move(7, TaskState.RUNNING, "start")
    assert "z -> r" in str(exc.value)
    assert exc.value.story == ["qw->z: deleted"]


def test_next_deadline_tracks_the_earliest_event():
    """The core tells the driver when a running job will end."""
    core = make_core()
    submit(core, CMDARGS=["42"])
    core.tick(T0)
    core.tick(T0)
    assert core.next_deadline() == pytest.approx(T0 + 1)  # schedule_interval 0:0:1
    assert min(t.at for t in core._timers) == T0 + 42


def test_owner_of_submission_is_the_caller():
    """The stored owner is the identity the request came with."""
    core = make_core()
    submit(core, ALICE)
    assert core.jobs[1].owner.user == "alice"


def test_late_end_timer_accounts_the_real_end():
    """A job that ended while nobody ticked is accounted at its own end, not at the late tick."""
    core = make_core()
    submit(core, CMDARGS=["3"])
    run_until(core, T0)
    outs = [core.tick(T0 + 100)]
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert (acct.end_time - acct.start_time, acct.ru_wallclock) == (3, 3)


def test_qalter_of_a_partly_running_array_leaves_running_tasks_alone():
    """Tasks already running keep the h_rt they started with when the job is altered."""
    from tests.unit.core.helpers import request

    core = make_core()
    submit(core, CMDARGS=["6"], t_min=1, t_max=20, l_hard={"h_rt": "100"})
    run_until(core, T0)
    out = request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={"l_hard": {"h_rt": "3"}})
    assert out.answers[0].text == "modified hard resource list of job 1"
    outs = run_until(core, T0 + 6.5, start=T0 + 1)
    first = [r for o in outs for r in o.reports if isinstance(r, Acct)][:16]
    assert {(a.exit_status, a.failed, a.ru_wallclock) for a in first} == {(0, 0, 6)}


def test_accounting_records_the_job_category():
    """The acct record's category names the job's hard requests and PE, as qacct shows it."""
    from qmaster.events.parse import parse_accounting_line

    core = make_core()
    submit(core, CMDARGS=["1"], l_hard={"h_rt": "0:0:10"}, pe_name="mpi", pe_min=2, pe_max=2)
    outs = run_until(core, T0 + 5)
    acct = next(r for o in outs for r in o.reports if isinstance(r, Acct))
    assert acct.category == "-l h_rt=10 -pe mpi 2"
    assert parse_accounting_line(acct.accounting_line()).category == acct.category
