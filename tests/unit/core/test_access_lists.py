"""functional/access_lists: where each level's user_lists/xuser_lists act.

The global host's lists (and projects) hold for every host: the scheduler keeps a job
off with 'has no permission for host "global"'. The cluster configuration's lists say
who may submit: qmaster refuses the job; a job already in the cell still runs.
"""

from __future__ import annotations

import re

from qmaster.core import Core
from tests.unit.core.helpers import (
    ALICE,
    BOB,
    ROOT,
    T0,
    make_core,
    request,
    rows,
    run_until,
    submit,
    texts,
)


def _set(core: Core, kind: str, name: str, **values: str) -> None:
    text = str(request(core, ROOT, "conf_show", kind=kind, name=name).data["text"])
    for key, value in values.items():
        text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
    out = request(core, ROOT, "conf_modify", kind=kind, text=text)
    assert not any(a.is_error for a in out.answers), texts(out)


def _core() -> Core:
    core = make_core()
    request(core, ROOT, "conf_add", kind="userset", name="userA_name", members=["alice"])
    return core


def states(core: Core) -> dict[str, str]:
    return {str(r["job_id"]): str(r["state"]) for r in rows(core, T0 + 10, users=["*"])}


def _reasons(core: Core, job_id: int) -> list[str]:
    out = request(core, ROOT, "job_detail", T0 + 10, job_ids=[str(job_id)])
    return list(out.data["jobs"][0]["scheduling_info"])


def test_the_global_hosts_xuser_lists_keep_a_user_off_every_host() -> None:
    """access_lists_global_host case 1: xuser_lists userA_name on the global host; A's
    job waits ('has no permission for host "global"'), B's runs (both ran before)."""
    core = _core()
    _set(core, "exechost", "global", xuser_lists="userA_name")
    submit(core, ALICE, CMDARGS=["100"])
    submit(core, BOB, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert states(core) == {"1": "qw", "2": "r"}
    assert 'has no permission for host "global"' in _reasons(core, 1)


def test_the_global_hosts_projects_hold_for_every_host() -> None:
    """sge_host_match_static() of the global host also checks its projects."""
    core = _core()
    request(core, ROOT, "conf_modify", kind="project", text="name p1\n", add=True)
    _set(core, "exechost", "global", projects="p1")
    submit(core, ALICE, CMDARGS=["100"])
    run_until(core, T0 + 10)
    assert states(core) == {"1": "qw"}


def test_the_cluster_configurations_lists_refuse_the_submission() -> None:
    """access_lists_cluster_config case 1: xuser_lists userA_name in the global
    configuration refuses A's qsub with Grid Engine's text; B submits; a job A
    submitted before the change still runs (the scheduler does not look at them)."""
    core = _core()
    submit(core, ALICE, CMDARGS=["100"])
    _set(core, "global", "global", xuser_lists="userA_name")
    out = submit(core, ALICE, CMDARGS=["100"])
    assert texts(out) == ["job rejected: alice@localhost is not allowed to submit jobs"]
    assert not texts(submit(core, BOB, CMDARGS=["100"]))[0].startswith("job rejected")
    run_until(core, T0 + 10)
    assert states(core) == {"1": "r", "3": "r"}
    _set(core, "global", "global", xuser_lists="NONE", user_lists="userA_name")
    assert texts(submit(core, BOB, CMDARGS=["100"])) == [
        "job rejected: bob@localhost is not allowed to submit jobs"
    ]
