"""Operators (qconf -ao): what they may do beyond a user, and what stays for managers."""

from __future__ import annotations

from qmaster.core import Core
from qmaster.core.jobs import Identity
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


def _with_operator(name: str = "bob") -> Core:
    core = make_core()
    out = request(core, ROOT, "conf_add", T0, kind="operator", members=[name])
    assert texts(out)[0].endswith(f'added "{name}" to operator list')
    return core


def test_operator_sets_and_releases_operator_hold_but_not_system_hold() -> None:
    """An operator may set -h o on another user's job; -h s stays for managers."""
    core = _with_operator()
    submit(core)
    out = request(core, BOB, "alter", T0, job_ids=["1"], job={}, hold="o")
    assert texts(out) == ["modified hold of job 1"]
    assert core.jobs[1].hold == frozenset("o")
    out = request(core, BOB, "alter", T0, job_ids=["1"], job={}, hold="s")
    assert texts(out) == ['denied: "bob" must be manager to set manager hold']
    assert core.jobs[1].hold == frozenset("o")


def test_a_plain_user_is_no_operator() -> None:
    """Without -ao the same request from bob is refused and nothing changes."""
    core = make_core()
    submit(core)
    out = request(core, BOB, "alter", T0, job_ids=["1"], job={}, hold="o")
    assert texts(out) == ['denied: "bob" must be at least owner of job 1 to change job attributes']
    assert core.jobs[1].hold == frozenset()


def test_operator_may_raise_priority_but_not_change_configuration() -> None:
    """Operators submit with -p above 0; configuration changes still need a manager."""
    core = _with_operator()
    out = submit(core, who=BOB, p=10)
    assert not any(a.is_error for a in out.answers), texts(out)
    refused = request(core, BOB, "conf_add", T0, kind="operator", members=["carol"])
    assert texts(refused) == ['denied: "bob" must be manager for this operation']
    plain = submit(core, who=ALICE, p=10)
    assert texts(plain) == [
        "job rejected: positive submission priority requires operator privileges"
    ]


def test_operator_may_delete_other_users_jobs() -> None:
    """qdel by an operator removes another user's pending job."""
    core = _with_operator()
    submit(core)
    out = request(core, BOB, "delete", T0, job_ids=["1"])
    assert not any(a.is_error for a in out.answers), texts(out)
    assert states(core) == {}


def test_enforce_user_true_needs_a_user_object() -> None:
    """With enforce_user true a user without a user(5) object cannot submit; with one she can."""
    core = make_core()
    refused = request(core, ROOT, "conf_attr", T0, kind="global", mode="set", name="global",
                      pairs=[["enforce_user", "true"]])  # fmt: skip
    assert texts(refused) == ['Modification of object "global" not supported']
    lines = core.config.global_conf.render().splitlines()
    text = "\n".join("enforce_user true" if x.startswith("enforce_user") else x for x in lines)
    request(core, ROOT, "conf_modify", T0, kind="global", text=text + "\n")
    assert core.config.global_conf.attrs["enforce_user"] == "true"
    assert texts(submit(core)) == ['job rejected: the user "alice" does not exist']
    request(core, ROOT, "conf_modify", T0, kind="user", text="name alice\n", add=True)
    assert not any(a.is_error for a in submit(core).answers)


def test_a_users_default_project_is_given_to_jobs_without_p() -> None:
    """A job submitted without -P by a user whose default_project is set gets that project."""
    core = make_core()
    request(core, ROOT, "conf_modify", T0, kind="project", text="name prj\n", add=True)
    user = "name alice\ndefault_project prj\n"
    assert texts(request(core, ROOT, "conf_modify", T0, kind="user", text=user, add=True)) == [
        f'root@{ROOT.host} added "alice" to user list'
    ]
    submit(core)
    assert core.jobs[1].spec.to_dict()["P"] == "prj"
    submit(core, who=BOB)
    assert "P" not in core.jobs[2].spec.to_dict()


def test_operator_may_disable_a_queue_and_a_plain_user_may_not() -> None:
    """qmod -d on a queue instance: an operator may, a plain user is refused."""
    core = _with_operator()
    refused = request(core, ALICE, "qmod", T0, action="d", targets=["all.q@host1"])
    assert refused.answers[0].is_error
    done = request(core, BOB, "qmod", T0, action="d", targets=["all.q@host1"])
    assert texts(done) == ['bob@localhost changed state of "all.q@host1" (disabled)']


def test_operator_may_qmod_another_users_job() -> None:
    """sge_change_job_state(): the owner or an operator (manop_is_operator) suspends a job."""
    core = _with_operator()
    submit(core, CMDARGS=["100"])
    run_until(core, T0)
    out = request(core, BOB, "qmod", T0, action="sj", targets=["1"], force=False)
    assert texts(out) == ["bob - suspended job 1"]
    carol = Identity(1003, 1003, "carol", "carol")
    out = request(core, carol, "qmod", T0, action="usj", targets=["1"], force=False)
    assert texts(out) == ['carol - you have no permission to modify job "1"']
