"""Projects and checkpointing environments: objects, and the jobs and ARs that name them."""

from __future__ import annotations

from typing import Any

from qmaster.conf.store import ClusterConfig
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

HOUR = 3600.0


def _add(core: Core, kind: str, text: str) -> list[str]:
    return texts(request(core, ROOT, "conf_modify", kind=kind, text=text, add=True))


def _global(core: Core, **values: str) -> None:
    text = request(core, ROOT, "conf_show", kind="global").data["text"]
    lines = [
        f"{line.split()[0]} {values[line.split()[0]]}" if line.split()[:1][0] in values else line
        for line in text.splitlines()
        if line.strip()
    ]
    out = request(core, ROOT, "conf_modify", kind="global", text="\n".join(lines) + "\n")
    assert not any(a.is_error for a in out.answers), out.answers


def _submit(core: Core, who: Identity = ALICE, **spec: Any) -> list[str]:
    return texts(submit(core, who, **spec))


def test_project_objects_are_added_shown_and_deleted() -> None:
    """-Aprj adds, -sprj shows project(5) text, -sprjl lists, -dprj removes."""
    core = make_core()
    assert _add(core, "project", "name p1\n") == ['root@localhost added "p1" to project list']
    shown = request(core, ROOT, "conf_show", kind="project", name="p1").data["text"]
    assert shown == "name    p1\noticket 0\nfshare  0\nacl     NONE\nxacl    NONE\n"
    assert request(core, ROOT, "conf_show", kind="project").data == {"names": ["p1"]}
    gone = request(core, ROOT, "conf_delete", kind="project", name="p1", members=[])
    assert texts(gone) == ['root@localhost removed "p1" from project list']
    missing = request(core, ROOT, "conf_show", kind="project", name="p1")
    assert texts(missing) == ["p1 is not known as project"]


def test_unknown_project_is_refused_at_submit_and_alter() -> None:
    """qsub -P nosuch and qalter -P nosuch are refused with Grid Engine's message."""
    core = make_core()
    assert _submit(core, P="nosuch") == [
        'job rejected: the requested project "nosuch" does not exist'
    ]
    _add(core, "project", "name p1\n")
    assert _submit(core, P="p1")[-1].startswith("Your job 2 ")  # the refusal used id 1
    alter = request(core, ALICE, "alter", job_ids=["2"], job={"P": "nosuch"})
    assert texts(alter) == ['job rejected: the requested project "nosuch" does not exist']
    assert core.jobs[2].spec.to_dict()["P"] == "p1"


def test_project_access_lists_and_global_restrictions() -> None:
    """A project's xacl shuts users out; global projects require one of them."""
    core = make_core()
    request(core, ROOT, "conf_add", kind="userset", name="blocked", members=["bob"])
    _add(core, "project", "name p1\nxacl blocked\n")
    _add(core, "project", "name p2\n")
    assert _submit(core, BOB, P="p1") == ['job rejected: no access to project "p1" for user "bob"']
    _global(core, projects="p1")
    assert _submit(core, ALICE) == [
        "job rejected: no project was supplied and only certain projects are allowed to submit jobs"
    ]
    assert _submit(core, ALICE, P="p2") == [
        'job rejected: project "p2" is not allowed to submit jobs'
    ]
    assert _submit(core, ALICE, P="p1")[-1].startswith("Your job")


def test_enforce_project_needs_a_project() -> None:
    """enforce_project true refuses jobs without -P."""
    core = make_core()
    _global(core, enforce_project="true")
    assert _submit(core) == ["job rejected: no project assigned to job"]


def test_ckpt_objects_and_reservations() -> None:
    """qrsub -ckpt needs an existing checkpointing environment; queues' ckpt_list too."""
    core = make_core()
    ar = request(core, ROOT, "ar_submit", ar={"d": HOUR, "ckpt": "blcr"})
    assert texts(ar) == [
        'job rejected: the requested checkpointing environment "blcr" does not exist'
    ]
    assert _add(core, "ckpt", "ckpt_name blcr\n") == [
        'root@localhost added "blcr" to checkpoint interface list'
    ]
    shown = request(core, ROOT, "conf_show", kind="ckpt", name="blcr").data["text"]
    assert shown.splitlines()[:2] == ["ckpt_name          blcr", "interface          userdefined"]
    queue = request(core, ROOT, "conf_show", kind="cqueue", name="all.q").data["text"]
    bad = queue.replace("ckpt_list             NONE", "ckpt_list             nosuch")
    refused = texts(request(core, ROOT, "conf_modify", kind="cqueue", text=bad))
    assert refused
    assert 'Ckpt "nosuch" does not exist' in refused[0]
    gone = request(core, ROOT, "conf_delete", kind="ckpt", name="nosuch", members=[])
    assert texts(gone) == ['denied: checkpointing environment "nosuch" does not exist']


def test_bad_ckpt_interface_is_refused() -> None:
    """A checkpointing environment with an unknown interface is refused."""
    core = make_core()
    refused = _add(core, "ckpt", "ckpt_name c\ninterface magic\n")
    assert refused
    assert 'no valid checkpoint interface "magic"' in refused[0]


def test_projects_and_ckpts_are_spooled() -> None:
    """Projects and checkpointing environments come back from the spool rows after a restart."""
    core = make_core()
    _add(core, "project", "name p1\n")
    _add(core, "ckpt", "ckpt_name blcr\n")
    rows = core.config.to_rows()
    assert ("project", "p1") in {(k, n) for k, n, _ in rows}
    again = ClusterConfig.from_rows(rows)
    assert again.projects == core.config.projects
    assert again.ckpts == core.config.ckpts


def _queue_projects(core: Core, projects: str, xprojects: str = "NONE") -> None:
    text = request(core, ROOT, "conf_show", kind="cqueue", name="all.q").data["text"]
    text = text.replace("projects              NONE", f"projects              {projects}", 1)
    text = text.replace("xprojects             NONE", f"xprojects             {xprojects}")
    out = request(core, ROOT, "conf_modify", kind="cqueue", text=text)
    assert not any(a.is_error for a in out.answers), out.answers


def test_queue_projects_decide_where_jobs_run() -> None:
    """all.q with projects p1 and xprojects p2 runs p1 jobs only; the others say why."""
    core = make_core()
    for name in ("p1", "p2"):
        _add(core, "project", f"name {name}\n")
    _queue_projects(core, "p1", "p2")
    submit(core, P="p1", CMDARGS=["100"])
    submit(core, CMDARGS=["100"])
    submit(core, P="p2", CMDARGS=["100"])
    run_until(core, T0 + 5)
    assert states(core, T0 + 5) == {"1": "r", "2": "qw", "3": "qw"}
    info = request(core, ROOT, "job_detail", T0 + 5, job_ids=["2", "3"]).data["jobs"]
    assert (
        '(no project) does not have the correct project to run in queue "all.q@host1"'
        in (info[0]["scheduling_info"])
    )
    assert (
        '(project p2) is not allowed to run in queue "all.q@host1" based on the excluded '
        "project list"
    ) in info[1]["scheduling_info"]
