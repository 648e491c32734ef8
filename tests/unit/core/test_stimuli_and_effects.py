"""The core driven by typed stimuli alone (no wire, no pydantic), answering with typed effects."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.effects import (
    ConfigChanged,
    Effect,
    KillTask,
    LogLine,
    Reply,
    ReportRecord,
    SpoolWrite,
    StartTask,
    StopQmaster,
)
from qmaster.core.jobspec import JobSpec
from qmaster.core.stimuli import (
    Alter,
    ConfChange,
    Delete,
    JobDetail,
    JobList,
    KillExecd,
    Ping,
    Qmod,
    Shutdown,
    Submit,
    TimeAdvanced,
)
from qmaster.model import Status
from tests.unit.core.helpers import ALICE, BOB, ROOT, T0, make_core, run_until


def _job(**spec: object) -> JobSpec:
    return JobSpec.from_dict({"CMDNAME": "job.sh", **spec})


def _kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def _reply(effects: list[Effect]) -> Reply:
    (reply,) = [e for e in effects if isinstance(e, Reply)]
    return reply


def _running(core: Core, until: float) -> list[Effect]:
    return [e for out in run_until(core, until) for e in out.effects()]


def test_a_submission_is_spooled_first_and_answered_last() -> None:
    """qsub: the job's rows come before its records, and the reply comes after everything."""
    core = make_core()
    effects = core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0).effects()
    assert isinstance(effects[0], SpoolWrite)
    assert 1 in effects[0].delta.jobs
    assert isinstance(effects[-1], Reply)
    assert effects[-1].request is None
    assert any(isinstance(e, ReportRecord) for e in effects)
    assert _reply(effects).answers[0].text == 'Your job 1 ("job.sh") has been submitted'
    assert _reply(effects).data["job_id"] == 1


def test_queries_answer_with_data_and_change_nothing() -> None:
    """qstat, qstat -j and ping: a reply with data, no rows, and no scheduling pass wanted."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    run_until(core, T0 + 5)
    before = core.sched_dirty
    for query in (JobList(ROOT, users=["*"]), JobDetail(ROOT, ["1"]), Ping(ALICE)):
        effects = core.handle(query, T0 + 5).effects()
        assert _kinds(effects) == ["Reply"], query
    assert core.sched_dirty == before
    assert [r["job_id"] for r in core.handle(JobList(ROOT, users=["*"]), T0 + 5).data["jobs"]] == [
        1
    ]


def test_time_advanced_is_a_tick() -> None:
    """handle(TimeAdvanced) fires due timers as tick() does; nobody is answered."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    effects = core.handle(TimeAdvanced(), T0 + 1).effects()
    assert not any(isinstance(e, Reply) for e in effects)
    assert core.jobs[1].tasks  # dispatched by the pass


def test_a_task_that_starts_is_a_start_task_effect() -> None:
    """The simulated execd starts the task: the driver is told where (for a real execution)."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    starts = [e for e in _running(core, T0 + 5) if isinstance(e, StartTask)]
    task = core.jobs[1].tasks[0]
    assert starts == [StartTask(1, 0, str(task.queue), str(task.queue).partition("@")[2])]


def test_qdel_of_a_running_task_is_a_kill_task_effect() -> None:
    """qdel of a running job: once the execd acts, the driver is told to kill the task."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    run_until(core, T0 + 5)
    host = str(core.jobs[1].tasks[0].queue).partition("@")[2]
    core.handle(Delete(ALICE, ["1"]), T0 + 6)
    kills = [e for e in _running(core, T0 + 7) if isinstance(e, KillTask)]
    assert kills == [KillTask(1, 0, host)]


def test_forced_deletion_and_h_rt_kill_running_tasks() -> None:
    """qdel -f kills at once; a job over its h_rt is killed when its limit comes."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    core.handle(Submit(ALICE, _job(CMDARGS=["100"], l_hard={"h_rt": "10"})), T0)
    run_until(core, T0 + 5)
    forced = core.handle(Delete(ROOT, ["1"], force=True), T0 + 5).effects()
    assert [e.job_id for e in forced if isinstance(e, KillTask)] == [1]
    limited = [e for e in _running(core, T0 + 20) if isinstance(e, KillTask)]
    assert [e.job_id for e in limited] == [2]


def test_a_job_that_ends_by_itself_is_not_killed() -> None:
    """A task that runs its course ends without a kill."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["3"])), T0)
    effects = _running(core, T0 + 10)
    assert core.jobs == {}
    assert not any(isinstance(e, KillTask) for e in effects)


def test_kill_execd_with_jobs_kills_their_tasks() -> None:
    """qconf -kej host: the tasks running there are killed."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    run_until(core, T0 + 5)
    host = str(core.jobs[1].tasks[0].queue).partition("@")[2]
    effects = core.handle(KillExecd(ROOT, [host], jobs=True), T0 + 5).effects()
    assert [e for e in effects if isinstance(e, KillTask)] == [KillTask(1, 0, host)]


def test_configuration_changes_and_shutdown_are_effects() -> None:
    """qconf writes end in ConfigChanged (and a log line), qconf -km in StopQmaster."""
    core = make_core()
    change = ConfChange(ROOT, "conf_add", "manager", name="alice")
    effects = core.handle(change, T0).effects()
    assert "ConfigChanged" in _kinds(effects)
    assert any(isinstance(e, LogLine) and e.event == "config_changed" for e in effects)
    assert ConfigChanged() in effects
    assert core.is_manager(ALICE)
    assert StopQmaster() in core.handle(Shutdown(ROOT), T0).effects()


def test_a_refusal_has_only_its_reply() -> None:
    """A request the core refuses writes nothing and changes nothing: its reply alone."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    refused = core.handle(Shutdown(BOB), T0).effects()
    assert _kinds(refused) == ["Reply"]
    assert _reply(refused).answers[0].status == Status.ENOMGR
    assert _kinds(core.handle(Alter(ALICE, ["1"], {}), T0).effects()) == ["Reply"]


def test_qmod_of_a_queue_is_spooled() -> None:
    """qmod -d: the queue instance state is a spool row, then the answer."""
    core = make_core()
    effects = core.handle(Qmod(ROOT, "d", ["all.q@host1"]), T0).effects()
    assert _kinds(effects)[0] == "SpoolWrite"
    assert _kinds(effects)[-1] == "Reply"
    assert "d" in core.qi_states["all.q@host1"]


def test_a_rescheduled_running_task_is_killed() -> None:
    """qmod -f -rj: the run that goes back to pending is killed on its host."""
    core = make_core()
    core.handle(Submit(ALICE, _job(CMDARGS=["100"])), T0)
    run_until(core, T0 + 5)
    host = str(core.jobs[1].tasks[0].queue).partition("@")[2]
    effects = core.handle(Qmod(ROOT, "rj", ["1"], force=True), T0 + 5).effects()
    assert [e for e in effects if isinstance(e, KillTask)] == [KillTask(1, 0, host)]
    assert 0 in core.jobs[1].pending
