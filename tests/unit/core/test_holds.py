"""User, operator and system holds; the derived holds; qstat -s hu ho hs hd hj ha."""

from __future__ import annotations

import time

import pytest

from qmaster.core import Core
from qmaster.core.holds import hold_kinds, start_time
from tests.unit.clients.ar_support import local_zone
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


def _alter_hold(core: Core, who: object, letters: str, job: str = "1") -> list[str]:
    return texts(request(core, who, "alter", T0, job_ids=[job], job={}, hold=letters))  # type: ignore[arg-type]


def _selected(core: Core, letters: str) -> list[int]:
    return sorted({r["job_id"] for r in rows(core, states=letters)})


def test_operator_or_system_hold_keeps_the_user_hold() -> None:
    """qalter -h s (or -h o) on a user-held job adds a hold; it does not release the job."""
    core = make_core()
    submit(core, h=True)
    assert _alter_hold(core, ROOT, "s") == ["modified hold of job 1"]
    assert _alter_hold(core, ROOT, "o") == ["modified hold of job 1"]
    run_until(core, T0 + 5)
    assert states(core, T0 + 5) == {"1": "hqw"}
    assert core.jobs[1].hold == frozenset("uos")


def test_each_hold_is_removed_by_its_own_letter_and_n_removes_all() -> None:
    """-h U removes only the user hold; the job waits until -h n removes the rest."""
    core = make_core()
    submit(core, CMDARGS=["100"], h=True)
    _alter_hold(core, ROOT, "os")
    _alter_hold(core, ALICE, "U")
    assert core.jobs[1].hold == frozenset("os")
    _alter_hold(core, ROOT, "O")
    assert core.jobs[1].hold == frozenset("s")
    assert states(core) == {"1": "hqw"}
    _alter_hold(core, ROOT, "n")
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "r"}


@pytest.mark.parametrize(
    ("letters", "message"),
    [
        ("s", 'denied: "alice" must be manager to set manager hold'),
        ("o", 'denied: "alice" must be operator to set operator hold'),
    ],
)
def test_only_managers_set_system_and_operator_holds(letters: str, message: str) -> None:
    """The owner may not set (or remove) operator and system holds; nothing changes."""
    core = make_core()
    submit(core)
    assert _alter_hold(core, ALICE, letters) == [message]
    assert core.jobs[1].hold == frozenset()


def test_the_owner_may_not_remove_a_system_hold() -> None:
    """-h n by the owner of a system-held job is refused; the hold stays."""
    core = make_core()
    submit(core)
    _alter_hold(core, ROOT, "s")
    assert _alter_hold(core, ALICE, "n") == [
        'denied: "alice" must be manager to remove manager hold'
    ]
    assert core.jobs[1].hold == frozenset("s")


def test_jsv_parameter_h_sets_and_clears_only_the_user_hold() -> None:
    """qalter with the JSV parameter h (u/n) changes the user hold and leaves the others."""
    core = make_core()
    submit(core)
    _alter_hold(core, ROOT, "s")
    request(core, ALICE, "alter", T0, job_ids=["1"], job={"h": True})
    assert core.jobs[1].hold == frozenset("us")
    request(core, ALICE, "alter", T0, job_ids=["1"], job={"h": False})
    assert core.jobs[1].hold == frozenset("s")


def _local(epoch: float) -> str:
    return time.strftime("%Y%m%d%H%M.%S", time.localtime(epoch))


def test_qstat_s_selects_each_kind_of_hold_exactly() -> None:
    """-s hu/ho/hs/hj/ha each show the jobs with that hold; -s h all held jobs."""
    core = make_core()
    submit(core, CMDARGS=["100"], h=True)  # 1: user hold
    submit(core, CMDARGS=["100"])  # 2: operator hold
    submit(core, CMDARGS=["100"])  # 3: system hold
    submit(core, CMDARGS=["100"], hold_jid=["1"])  # 4: job dependency
    submit(core, CMDARGS=["100"], a=_local(T0 + 3600))  # 5: start time
    submit(core, CMDARGS=["100"])  # 6: none
    _alter_hold(core, ROOT, "o", "2")
    _alter_hold(core, ROOT, "s", "3")
    assert _selected(core, "hu") == [1]
    assert _selected(core, "ho") == [2]
    assert _selected(core, "hs") == [3]
    assert _selected(core, "hj") == [4]
    assert _selected(core, "ha") == [5]
    assert _selected(core, "h") == [1, 2, 3, 4, 5]
    assert _selected(core, "hsho") == [2, 3]  # flags in the order of Grid Engine's table
    assert states(core)["5"] == "qw"  # a start time is no hold in the state column


def test_a_hold_reference_of_other_digits_is_a_name() -> None:
    """-hold_jid ² (a digit, but not 0-9) names no job: Grid Engine reads a reference
    as a job id only from the digits 0-9. The job runs; qstat lists it."""
    core = make_core()
    submit(core, CMDARGS=["100"], hold_jid=["\u00b2"])
    run_until(core, T0 + 1)
    assert states(core, T0 + 1) == {"1": "r"}


@pytest.mark.no_validate_state  # changes the job behind the core's back
def test_array_dependency_holds_tasks_until_their_predecessor_task_ends() -> None:
    """-hold_jid_ad: task i waits (hqw, -s hd) until task i of the predecessor has ended."""
    core = make_core()
    submit(core, CMDARGS=["5"], t_min=1, t_max=2, t_step=1)
    submit(core, CMDARGS=["100"], t_min=1, t_max=2, t_step=1)
    core.jobs[2].spec = core.jobs[2].spec.changed(hold_jid_ad=["1"])
    assert "hd" in hold_kinds(core, core.jobs[2])
    assert _selected(core, "hd") == [2]
    assert states(core) == {"1.1,2": "qw", "2.1,2": "hqw"}
    run_until(core, T0 + 2)
    assert states(core, T0 + 2) == {"1.1": "r", "1.2": "r", "2.1,2": "hqw"}
    run_until(core, T0 + 7)
    assert states(core, T0 + 7) == {"2.1": "r", "2.2": "r"}


def test_a_start_time_keeps_the_job_pending_until_it_comes() -> None:
    """qsub -a: qw until the start time, dispatched then; the core wakes for it."""
    core = make_core()
    core.config.sched_conf.attrs["schedule_interval"] = "0:0:0"
    submit(core, CMDARGS=["5"], a=_local(T0 + 100))
    assert len(run_until(core, T0 + 99)) == 1  # one pass at submission, then nothing
    assert states(core, T0 + 99) == {"1": "qw"}
    assert core.next_deadline() == pytest.approx(T0 + 100)
    run_until(core, T0 + 101)
    assert states(core, T0 + 101) == {"1": "r"}


def test_a_bad_start_time_is_refused() -> None:
    """An -a value that is no date_time (e.g. from a JSV) is refused; nothing is kept."""
    core = make_core()
    out = submit(core, a="tomorrow")
    assert texts(out)[-1].endswith(
        'ERROR! Wrong date/time format "tomorrow" specified to -a option'
    )
    assert core.jobs == {}


def test_reserve_request_reaches_qstat_j() -> None:
    """qsub -R y is stored and handed to qstat -j (its reserve: line)."""
    core = make_core()
    submit(core, R=True)
    detail = request(core, ROOT, "job_detail", T0, job_ids=["1"]).data["jobs"][0]
    assert detail["job"]["R"] is True


@pytest.mark.no_validate_state  # changes the configuration behind the core's back
def test_holds_and_start_times_survive_a_restart() -> None:
    """Recovered from the spool, a job keeps its hold bits and still wakes at its start time."""
    core = make_core()
    core.config.sched_conf.attrs["schedule_interval"] = "0:0:0"
    submit(core, CMDARGS=["5"], a=_local(T0 + 100))
    _alter_hold(core, ROOT, "s")
    row = core.jobs[1].to_row()
    again = Core.recover(core.config, core.settings, [row], [], {"job": 2}, T0 + 1)
    assert again.jobs[1].hold == frozenset("s")
    run_until(again, T0 + 2, start=T0 + 1)
    assert again.next_deadline() == pytest.approx(T0 + 100)


@pytest.mark.no_validate_state  # recovers a row of an older format, rewritten at its next change
def test_a_spooled_user_hold_from_before_the_hold_bits_is_read() -> None:
    """A job row spooled with the old user_hold flag comes back user-held."""
    core = make_core()
    submit(core, h=True)
    row = {k: v for k, v in core.jobs[1].to_row().items() if k != "hold"}
    again = Core.recover(core.config, core.settings, [{**row, "user_hold": True}], [], {}, T0)
    assert again.jobs[1].hold == frozenset("u")


@pytest.mark.no_validate_state  # checked here, in the zone the start time was read in
def test_a_start_time_the_clocks_skip_is_refused_as_qrsub_refuses_it() -> None:
    """qsub -a 02:30 on the night Berlin skips that hour is refused, not moved an hour;
    1:30 on the night New York repeats it is its first occurrence, as for qrsub -a."""
    core = make_core()
    with local_zone("Europe/Berlin"):
        out = submit(core, a="202603290230.00")
        (text,) = texts(out)
        assert text.startswith("The local time 03/29/2026 02:30:00 does not exist")
        assert text.endswith(
            'ERROR! Wrong date/time format "202603290230.00" specified to -a option'
        )
        assert not core.jobs
    with local_zone("America/New_York"):
        submit(core, a="202611010130.00")
        (job,) = core.jobs.values()
        assert start_time(job) == 1793511000.0  # 05:30 UTC, still on daylight time
        core.validate_state()
