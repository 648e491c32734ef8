"""The job_list options in the core: what each adds, selects or refuses, and nothing more."""

from __future__ import annotations

from typing import Any

from qmaster.core import Core
from tests.unit.core.helpers import ROOT, T0, make_core, request, run_until, submit

BASE = {"job_id", "prior", "name", "owner", "state", "submit_time", "start_time", "queue"}
BASE |= {"slots", "tasks"}


def listing(core: Core, now: float | None = None, **args: Any) -> dict[str, Any]:
    out = request(core, ROOT, "job_list", now, users=None, **args)
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]
    data: dict[str, Any] = out.data
    return data


def errors(core: Core, **args: Any) -> list[str]:
    out = request(core, ROOT, "job_list", T0, users=None, **args)
    return [a.text for a in out.answers if a.is_error]


def set_exechost(core: Core, name: str, key: str, value: str) -> None:
    """Change one attribute of an execution host as qconf -me would."""
    text = request(core, ROOT, "conf_show", T0, kind="exechost", name=name).data["text"]
    lines, skip = [], False
    for line in text.splitlines():
        if skip:
            skip = line.endswith("\\")
            continue
        if line.split()[:1] == [key]:
            lines.append(f"{key} {value}")
            skip = line.endswith("\\")
        else:
            lines.append(line)
    out = request(core, ROOT, "conf_modify", T0, kind="exechost", text="\n".join(lines) + "\n")
    assert not any(a.is_error for a in out.answers), [a.text for a in out.answers]


def test_a_plain_listing_carries_nothing_the_options_add() -> None:
    """Without options the reply has the base row fields and no queue data."""
    core = make_core()
    submit(core)
    data = listing(core)
    assert set(data) == {"jobs", "now"}
    assert set(data["jobs"][0]) == BASE


def test_priority_columns() -> None:
    """-pri/-urg/-ext bring nurg, npprior, ppri, urgency parts, tickets and department."""
    core = make_core()
    members = {"kind": "userset", "name": "deadlineusers", "members": ["alice"]}
    request(core, ROOT, "conf_add", T0, **members)  # -dl is for deadline users
    submit(core, p=-100, ot=50, dl="203001011200.00")
    row = listing(core, columns=["pri", "urg", "ext"])["jobs"][0]
    assert row["ppri"] == -100
    assert row["npprior"] == round(924 / 2048, 5)
    assert row["tickets"] == row["override_tickets"] == 50
    assert row["ntckts"] == 1.0
    assert row["department"] == "defaultdepartment"
    assert row["deadline"] is not None
    assert row["dlcontr"] > 0
    assert "requirements" not in row


def test_group_d_lists_each_pending_task() -> None:
    """-g d turns the pending range 1-3:1 into rows 1, 2 and 3."""
    core = make_core()
    submit(core, t_min=1, t_max=3, t_step=1, h=True)
    assert [r["tasks"] for r in listing(core)["jobs"]] == ["1-3:1"]
    assert [r["tasks"] for r in listing(core, group="d")["jobs"]] == ["1", "2", "3"]


def test_group_t_shows_master_and_slaves() -> None:
    """-g t: a row per granted slot plus one for a master task that holds none, MASTER first."""
    core = make_core()
    submit(core, b=True, CMDARGS=["100"], pe_name="mpi", pe_min=6, pe_max=6)
    run_until(core, T0 + 1)
    rows = listing(core, T0 + 1, group="t")["jobs"]
    # mpi has job_is_first_task FALSE: the master task adds a line of its own
    assert [r["master"] for r in rows] == ["MASTER"] + ["SLAVE"] * 6
    submit(core, b=True, CMDARGS=["100"], pe_name="make", pe_min=2, pe_max=2)
    run_until(core, T0 + 2)
    rows = [r for r in listing(core, T0 + 2, group="t")["jobs"] if r["job_id"] == 2]
    assert [r["master"] for r in rows] == ["MASTER", "SLAVE"]


def test_requirements() -> None:
    """-r sends the full name, requested PE, hard resources with contribution, queues."""
    core = make_core()
    submit(core, N="full", l_hard={"h_vmem": "1G"}, q_hard=["all.q"], pe_name="mpi",
           pe_min=2, pe_max=4, hold_jid=["nosuch"], h=True)  # fmt: skip
    req = listing(core, requirements=True)["jobs"][0]["requirements"]
    assert req["full_name"] == "full"
    assert req["requested_pe"] == {"name": "mpi", "min": 2, "max": 4}
    assert req["hard_resources"] == [{"name": "h_vmem", "value": "1G", "contribution": 0.0}]
    assert req["hard_queues"] == ["all.q"]
    assert req["predecessors_requested"] == ["nosuch"]


def test_queue_selection() -> None:
    """-q, -pe, -U, -l narrow the instances; a running job follows its queue."""
    core = make_core()
    submit(core, b=True, CMDARGS=["100"])
    run_until(core, T0 + 1)
    data = listing(core, T0 + 1, full=True)
    used = next(q["name"] for q in data["queues"] if q["used"])
    other = next(q["name"] for q in data["queues"] if not q["used"])
    only = listing(core, T0 + 1, full=True, queues=[other])
    assert [q["name"] for q in only["queues"]] == [other]
    assert only["jobs"] == []
    assert len(listing(core, T0 + 1, full=True, queues=[used])["jobs"]) == 1
    assert listing(core, T0 + 1, full=True, pes=["nosuch"])["queues"] == []
    assert len(listing(core, T0 + 1, full=True, pes=["mpi"])["queues"]) == 4
    assert len(listing(core, T0 + 1, full=True, resources=["arch=lx-amd64"])["queues"]) == 4
    assert listing(core, T0 + 1, full=True, resources=["num_proc=8"])["queues"] == []
    assert [q["name"] for q in listing(core, T0 + 1, full=True, no_empty=True)["queues"]] == [used]


def test_queue_resources_dominance() -> None:
    """-F: slots left is qc, load values hl, limits qf, the host name qf."""
    core = make_core()
    queues = listing(core, queue_resources=["slots", "np_load_avg", "h_rt", "hostname"])
    res = {r["name"]: r for r in queues["queues"][0]["resources"]}
    assert res["slots"] == {"dom": "qc", "name": "slots", "value": "4"}
    assert res["np_load_avg"]["dom"] == "hl"
    assert res["h_rt"]["value"] == "infinity"
    assert res["hostname"]["dom"] == "qf"
    assert "resources" not in listing(core, full=True)["queues"][0]


def test_load_alarm_state_and_explain() -> None:
    """A passed load threshold puts the instance in state a; -explain a says why; -qs a selects."""
    core = make_core()
    set_exechost(core, "host1", "load_values", "arch=lx-amd64,num_proc=4,np_load_avg=2")
    data = listing(core, explain="a")
    alarmed = [q for q in data["queues"] if "a" in q["states"]]
    assert [q["name"] for q in alarmed] == ["all.q@host1"]
    assert alarmed[0]["explain"] == ["alarm hl:np_load_avg=2 load-threshold=1.75"]
    assert [q["name"] for q in listing(core, queue_states="a")["queues"]] == ["all.q@host1"]
    summary = listing(core, group="c")["cluster_queues"][0]
    assert summary["aoACDS"] == 4
    assert summary["available"] == 12


def test_bad_arguments_get_grid_engines_messages() -> None:
    """-qs, -explain, -g and -l refuse what Grid Engine refuses, in its words."""
    core = make_core()
    assert errors(core, queue_states="x") == ["unknown queue state: x found in string: x"]
    assert errors(core, explain="d") == ["unknown queue state: d found in string: d"]
    assert errors(core, group="q") == ["wrong character 'q' for -g option"]
    assert errors(core, resources=["nosuch=1"]) == ['unknown resource "nosuch"']


def test_queue_resources_follow_grid_engines_attribute_order() -> None:
    """-F lists the host's load report first, then the queue's built-ins from qname on."""
    core = make_core()
    lines = listing(core, queue_resources=[])["queues"][0]["resources"]
    names = [r["name"] for r in lines]
    assert names[:4] == ["load_avg", "load_short", "load_medium", "load_long"]
    assert names.index("num_proc") < names.index("qname") < names.index("hostname")
    assert names.index("hostname") < names.index("slots") < names.index("h_vmem")
    values = {r["name"]: r["value"] for r in lines}
    assert values["min_cpu_interval"] == "00:05:00"
    assert values["calendar"] == "NONE"
    assert values["mem_total"] == "8.000G"


def test_ne_hides_empty_queues_but_no_job() -> None:
    """-ne drops queues without jobs from -f, never a pending job."""
    core = make_core()
    submit(core, q_hard=["all.q@host4"], h=True)
    data = listing(core, full=True, no_empty=True)
    assert data["queues"] == []
    assert [r["job_id"] for r in data["jobs"]] == [1]
    assert [r["job_id"] for r in listing(core, full=True, queues=["all.q@host3"])["jobs"]] == []
    assert [r["job_id"] for r in listing(core, full=True, queues=["*@host4"])["jobs"]] == [1]


def test_full_listing_shows_a_parallel_job_in_each_of_its_queues() -> None:
    """-f lists a PE job under every queue it holds slots in; -r's Granted PE counts all."""
    core = make_core()
    submit(core, b=True, CMDARGS=["100"], pe_name="make", pe_min=3, pe_max=3)
    run_until(core, T0 + 1)
    rows = listing(core, T0 + 1, full=True, requirements=True)["jobs"]
    assert len({r["queue"] for r in rows}) == 3
    assert [r["slots"] for r in rows] == [1, 1, 1]
    assert {r["requirements"]["granted_pe"]["slots"] for r in rows} == {3}
    assert len(listing(core, T0 + 1)["jobs"]) == 1


def test_a_selection_that_leaves_no_queue_is_named() -> None:
    """-q, -U and -pe that leave no queue instance say which option emptied the list."""
    core = make_core()
    assert listing(core, full=True, queues=["none.q"])["no_queues_after"] == "-q"
    assert listing(core, full=True, pes=["none"])["no_queues_after"] == "-pe"
    assert "no_queues_after" not in listing(core, full=True, resources=["arch=none"])


def test_pending_jobs_follow_the_selection_by_what_they_request() -> None:
    """With a queue selection a pending job shows only if a selected queue could take it."""
    core = make_core()
    submit(core, l_hard={"arch": "sol-sparc64"}, h=True)
    submit(core, l_hard={"arch": "lx-amd64"}, h=True)
    selected = listing(core, full=True, queues=["all.q"])["jobs"]
    assert [r["job_id"] for r in selected] == [2]
    assert [r["job_id"] for r in listing(core, full=True)["jobs"]] == [1, 2]
