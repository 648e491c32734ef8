"""qstat's queries in the core: -s filters, finished jobs, prior, scheduler job info."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import Core
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, request, rows, run_until, submit

FUTURE = "203001011200.00"


def set_conf(core: Core, kind: str, key: str, value: str) -> None:
    """Change one attribute of the global or scheduler configuration as qconf would."""
    conf = core.config.global_conf if kind == "global" else core.config.sched_conf
    lines = [
        f"{key} {value}" if ln.split()[:1] == [key] else ln for ln in conf.render().splitlines()
    ]
    out = request(core, ROOT, "conf_modify", T0, kind=kind, text="\n".join(lines) + "\n")
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]


def ids(core: Core, states: str | None = None, now: float | None = None) -> list[int]:
    args: dict[str, Any] = {"users": ["*"]}
    if states is not None:
        args["states"] = states
    return [int(r["job_id"]) for r in rows(core, now, **args)]


@pytest.fixture
def held() -> Core:
    """Job 1 user hold, 2 waits for 1, 3 plain, 4 has a start time, 5 user hold and waits for 3."""
    core = make_core()
    submit(core, h=True)
    submit(core, hold_jid=["1"])
    submit(core)
    submit(core, a=FUTURE)
    submit(core, h=True, hold_jid=["3"])
    return core


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ("hu", [1, 5]),
        ("hj", [2, 5]),
        ("ha", [4]),
        ("hs", []),
        ("ho", []),
        ("hd", []),
        ("h", [1, 2, 4, 5]),
        ("huha", [1, 4, 5]),
        ("p", [1, 2, 3, 4, 5]),
        ("a", [1, 2, 3, 4, 5]),
        ("r", []),
        ("z", []),
        ("", []),
    ],
)
def test_s_selects_jobs_by_grid_engine_flags(held: Core, flags: str, expected: list[int]) -> None:
    """qstat -s hu/hj/ha/h/p/a selects pending jobs by their holds, as Grid Engine does."""
    assert ids(held, flags) == expected


def test_s_malformed_is_refused_with_grid_engine_words(held: Core) -> None:
    """-s x (or hshu, which Grid Engine's scanner rejects) gets 'wrong argument to -s option'."""
    for bad in ("x", "hshu", "pq"):
        out = request(held, ROOT, "job_list", T0, states=bad)
        assert all(a.is_error for a in out.answers)
        assert [a.text for a in out.answers] == ["ERROR! wrong argument to -s option"]


def test_s_r_shows_running_and_z_recently_finished_jobs() -> None:
    """-s r keeps running jobs only; a job that ended shows with -s z as state z, not before."""
    core = make_core()
    submit(core, CMDARGS=["5"])
    submit(core, CMDARGS=["100"])
    run_until(core, T0 + 2)
    assert ids(core, "r", T0 + 2) == [1, 2]
    assert ids(core, "z", T0 + 2) == []
    run_until(core, T0 + 10)
    assert ids(core, "r", T0 + 10) == [2]
    finished = rows(core, T0 + 10, users=["*"], states="z")
    assert [(r["job_id"], r["state"], r["queue"]) for r in finished] == [(1, "z", None)]
    assert ids(core, None, T0 + 10) == [2]


def test_s_z_keeps_only_finished_jobs_many() -> None:
    """Only the last finished_jobs (sge_conf) finished jobs are kept for -s z."""
    core = make_core()
    set_conf(core, "global", "finished_jobs", "2")
    for _ in range(3):
        submit(core, CMDARGS=["1"])
    run_until(core, T0 + 10)
    assert ids(core, "z", T0 + 10) == [2, 3]


def prior(core: Core, job_id: int) -> float:
    return {int(r["job_id"]): float(r["prior"]) for r in rows(core, users=["*"])}[job_id]


def test_prior_uses_the_fixed_posix_range_and_grid_engine_weights() -> None:
    """A -p 0 job shows 0.55500 whatever else is queued; -p -1023 and 1024 sit at the ends."""
    core = make_core()
    submit(core)
    assert prior(core, 1) == 0.555
    submit(core, p=-1023)
    submit(core, ROOT, p=1024)  # a positive -p needs an operator
    assert prior(core, 1) == 0.555
    assert prior(core, 2) == round(1 / 2048 + 0.055, 5)
    assert prior(core, 3) == 1.055


def test_prior_follows_the_weights_of_sched_conf() -> None:
    """With weight_priority 0 the POSIX priority no longer counts, only urgency and tickets."""
    core = make_core()
    submit(core, ROOT, p=500)  # a positive -p needs an operator
    set_conf(core, "sched", "weight_priority", "0")
    assert prior(core, 1) == 0.055


@pytest.mark.no_validate_state  # changes the job behind the core's back
def test_prior_counts_urgency_of_slots_and_override_tickets() -> None:
    """More slots mean more urgency (slots urgency 1000); -ot tickets raise the ticket share."""
    core = make_core()
    submit(core)
    submit(core, pe_name="mpi", pe_min=4, pe_max=4)
    submit(core)
    core.jobs[3].spec = core.jobs[3].spec.changed(
        override_tickets=100
    )  # as -ot 100 stores it (the option itself is another item's)
    assert prior(core, 1) == 0.5
    assert prior(core, 2) == 0.6
    assert prior(core, 3) == 0.51


def detail(core: Core, job_id: int, now: float | None = None) -> dict[str, Any]:
    out = request(core, ROOT, "job_detail", now, job_ids=[str(job_id)])
    result: dict[str, Any] = out.data["jobs"][0]
    return result


def test_held_jobs_get_grid_engine_scheduling_info(held: Core) -> None:
    """qstat -j of held jobs says they are in hold state, wait for dependencies or their time."""
    assert detail(held, 1)["scheduling_info"] == ["Job is in hold state"]
    assert detail(held, 2)["scheduling_info"] == ["job dropped because of job dependencies"]
    assert detail(held, 4)["scheduling_info"] == ["execution time not reached"]


def test_schedd_job_info_false_turns_the_messages_off(held: Core) -> None:
    """With schedd_job_info false, qstat -j shows Grid Engine's 'turned off' line only."""
    set_conf(held, "sched", "schedd_job_info", "false")
    info = detail(held, 1)
    assert info["scheduling_info"] == ["(Collecting of scheduler job information is turned off)"]
    assert info["reasons"] == []


def test_schedd_job_info_job_list_covers_only_those_jobs(held: Core) -> None:
    """schedd_job_info job_list 2 keeps messages of job 2 only, with the 'not every job' line."""
    set_conf(held, "sched", "schedd_job_info", "job_list 2")
    note = "(Scheduler job information not available for every job)"
    assert detail(held, 1)["scheduling_info"] == [note]
    assert detail(held, 2)["scheduling_info"] == [note, "job dropped because of job dependencies"]


def test_j_without_a_list_groups_jobs_by_message(held: Core) -> None:
    """qstat -j alone answers the scheduler's messages with the jobs each applies to."""
    out = request(held, ALICE, "job_detail", T0)
    summary = out.data["summary"]
    assert summary["global_messages"] == []
    assert [(m["number"], m["text"], m["job_ids"]) for m in summary["messages"]] == [
        (30, "Jobs can not run because execution time not reached", [4]),
        (32, "Jobs dropped because of hold state", [1, 5]),
        (34, "Job dropped because of job dependencies", [2]),
    ]


def test_a_waiting_task_gets_the_message_of_the_one_list_split_jobs_puts_it_in() -> None:
    """split_jobs(): held tasks go to the hold list; the others to the predecessor list
    while a -hold_jid job is in the system, else to the time list while -a has not come.
    One message per list the job's tasks are in, never hold, dependency and time together."""
    core = make_core()
    submit(core, h=True)
    submit(core, h=True, hold_jid=["1"], a=FUTURE)
    submit(core, hold_jid=["1"], a=FUTURE)
    submit(core, t_min=1, t_max=3, t_step=1, h=True, a=FUTURE)
    request(core, ALICE, "alter", T0, job_ids=["4.2-3"], job={}, hold="U")
    assert detail(core, 2)["scheduling_info"] == ["Job is in hold state"]
    assert detail(core, 3)["scheduling_info"] == ["job dropped because of job dependencies"]
    both = ["Job is in hold state", "execution time not reached"]
    assert detail(core, 4)["scheduling_info"] == both


def test_j_detail_names_predecessors_successors_and_defaults(held: Core) -> None:
    """-j carries exec_file, account sge, the owner's mail address and the dependency ids."""
    first, second = detail(held, 1), detail(held, 2)
    assert first["exec_file"] == "job_scripts/1"
    assert first["account"] == "sge"
    assert first["mail_list"] == ["alice@localhost"]
    assert first["successors"] == [2]
    assert second["predecessors"] == [1]


def test_dependencies_by_name_follow_renames_alters_and_leaving() -> None:
    """-hold_jid by name or pattern of the owner's jobs: qstat -j's lists and the hj hold
    follow qalter -N, qalter -hold_jid and a predecessor's leaving (the core keeps who waits
    for whom, checked by validate_state)."""
    core = make_core()
    submit(core, N="prep", h=True)  # 1
    submit(core, hold_jid=["prep"])  # 2 waits for 1 by name
    submit(core, N="other")  # 3
    assert (detail(core, 1)["successors"], detail(core, 2)["predecessors"]) == ([2], [1])
    request(core, ALICE, "alter", T0, job_ids=["1"], job={"N": "renamed"})
    assert (detail(core, 1)["successors"], detail(core, 2)["predecessors"]) == ([], [])
    assert ids(core, "hj") == []
    request(core, ALICE, "alter", T0, job_ids=["2"], job={"hold_jid": ["oth*", "1"]})
    assert detail(core, 2)["predecessors"] == [1, 3]
    assert (detail(core, 1)["successors"], detail(core, 3)["successors"]) == ([2], [2])
    assert ids(core, "hj") == [2]
    request(core, ROOT, "delete", T0, job_ids=["1", "3"])
    assert detail(core, 2)["predecessors"] == []
    assert ids(core, "hj") == []


def test_successors_are_the_jobs_whose_predecessors_they_are() -> None:
    """qstat -j's successor list is the other side of the predecessor list: an id given
    with leading zeros names the job of that number, and a -hold_jid pattern with
    brackets matches names as a pattern, not as the same text."""
    core = make_core()
    submit(core, N="prep", h=True)  # 1
    submit(core, hold_jid=["01"])  # 2 waits for 1 by id
    submit(core, N="[ab]", h=True)  # 3
    submit(core, hold_jid=["[ab]"])  # 4: the pattern matches a job named a or b only
    assert detail(core, 2)["predecessors"] == [1]
    assert detail(core, 1)["successors"] == [2]
    assert detail(core, 4)["predecessors"] == []
    assert detail(core, 3)["successors"] == []


def test_j_detail_has_usage_for_running_tasks() -> None:
    """A running task's detail carries simulated usage: cpu seconds since it started."""
    core = make_core()
    submit(core, b=True, CMDARGS=["100"])
    run_until(core, T0 + 1)
    info = detail(core, 1, T0 + 31)
    [task] = info["tasks"]
    assert info["exec_file"] is None
    assert task["usage"]["cpu"] == pytest.approx(31 - (task["start_time"] - T0))
