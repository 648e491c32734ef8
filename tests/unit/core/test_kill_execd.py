"""qconf -kej in the core: the jobs on the host are killed and accounted; managers only."""

from __future__ import annotations

from qmaster.core.states import TaskState
from tests.unit.core.helpers import (
    ALICE,
    ROOT,
    T0,
    make_core,
    request,
    run_until,
    states,
    submit,
    texts,
)


def test_kej_kills_running_tasks_on_the_host_only() -> None:
    """The task on host1 ends with exit status 137; the one on host2 keeps running."""
    core = make_core()
    submit(core, CMDARGS=["100"], l_hard={"hostname": "host1"})
    submit(core, CMDARGS=["100"], l_hard={"hostname": "host2"})
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "r", "2": "r"}
    task = core.jobs[1].tasks[0]
    out = request(core, ROOT, "kill_execd", T0 + 1, hosts=["host1"], jobs=True)
    assert texts(out) == ["sent shutdown and kill notification to  execd host host1"]
    assert states(core, T0 + 1) == {"2": "r"}
    assert task.exit_status == 137


def test_kej_needs_a_manager_and_a_known_host() -> None:
    """A user is refused in Grid Engine's words; an unknown host is reported."""
    core = make_core()
    refused = request(core, ALICE, "kill_execd", T0, hosts=["host1"], jobs=True)
    assert texts(refused) == ["shutting down execd requires manager privileges"]
    unknown = request(core, ROOT, "kill_execd", T0, hosts=["nohost"], jobs=True)
    assert texts(unknown) == ['"nohost" is not an execution host']


def _queue_states(core: object) -> dict[str, str]:
    rows = request(core, ROOT, "job_list", full=True).data["queues"]  # type: ignore[arg-type]
    return {str(q["name"]): str(q["states"]) for q in rows}


def test_ke_leaves_jobs_running_and_the_host_unknown() -> None:
    """-ke: the job on host1 runs on, all.q@host1 shows u and takes no new job."""
    core = make_core()
    submit(core, CMDARGS=["100"], l_hard={"hostname": "host1"})
    run_until(core, T0 + 1)
    out = request(core, ROOT, "kill_execd", T0 + 1, hosts=["host1"], jobs=False)
    assert texts(out) == ["sent shutdown notification to  execd host host1"]
    assert states(core, T0 + 1) == {"1": "r"}
    assert _queue_states(core)["all.q@host1"] == "u"
    assert _queue_states(core)["all.q@host2"] == ""
    submit(core, ALICE, T0 + 1, CMDARGS=["100"], l_hard={"hostname": "host1"})
    run_until(core, T0 + 2)
    assert states(core, T0 + 2) == {"1": "r", "2": "qw"}


def test_a_suspended_task_killed_with_its_execd_is_no_longer_suspended() -> None:
    """qconf -kej on the host of suspended array tasks: they end, and nothing says they
    are still suspended (the state machine found 'task 1.5 is z and suspended')."""
    core = make_core()
    submit(core, CMDARGS=["1000"], t_min=1, t_max=200)
    core.tick(T0 + 1)
    core.tick(T0 + 2)
    host = str(core.jobs[1].tasks[1].queue).partition("@")[2]
    request(core, ROOT, "qmod", T0 + 3, action="sj", targets=["1"], force=True)
    request(core, ROOT, "kill_execd", T0 + 4, hosts=[host], jobs=True)
    ended = [t for t in core.jobs[1].tasks.values() if t.state is TaskState.FINISHED]
    assert ended
    assert all(not t.suspended for t in ended)


def test_reschedule_unknown_pushes_restartable_jobs_of_a_gone_host_back() -> None:
    """The testsuite's auto_reschedule: with reschedule_unknown 00:03:00, three minutes after
    -ke the -r y job of the unknown host waits again (accounted with failed 25, Rq); the -r n
    job runs on; the job of the other host is untouched."""
    core = make_core()
    text = core.config.state.global_conf.render().replace(
        "reschedule_unknown           00:00:00", "reschedule_unknown           00:03:00"
    )
    assert texts(request(core, ROOT, "conf_modify", T0, kind="global", text=text))
    submit(core, CMDARGS=["10000"], l_hard={"hostname": "host1"}, r=True)
    submit(core, CMDARGS=["10000"], l_hard={"hostname": "host1"}, r=False)
    submit(core, CMDARGS=["10000"], l_hard={"hostname": "host2"}, r=True)
    run_until(core, T0 + 1)
    request(core, ROOT, "kill_execd", T0 + 1, hosts=["host1"], jobs=False)
    run_until(core, T0 + 180)
    assert states(core, T0 + 180) == {"1": "r", "2": "r", "3": "r"}
    outs = run_until(core, T0 + 181.5)
    assert states(core, T0 + 181.5) == {"1": "Rq", "2": "r", "3": "r"}
    acct = [r for out in outs for r in out.reports if type(r).__name__ == "Acct"]
    assert [(a.job_number, a.failed) for a in acct] == [(1, 25)]
    assert [e for out in outs for e, _ in out.logs if e.startswith("job_")] == [
        "job_rescheduled",
        "job_not_rescheduled",
    ]


def test_reschedule_unknown_0_leaves_the_jobs_of_a_gone_host_running() -> None:
    """The default reschedule_unknown 00:00:00: the -r y job of the unknown host runs on."""
    core = make_core()
    submit(core, CMDARGS=["10000"], l_hard={"hostname": "host1"}, r=True)
    run_until(core, T0 + 1)
    request(core, ROOT, "kill_execd", T0 + 1, hosts=["host1"], jobs=False)
    run_until(core, T0 + 1000)
    assert states(core, T0 + 1000) == {"1": "r"}
