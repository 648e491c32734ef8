"""host_list and queue_select over the real socket: qhost's hosts and qselect's queue instances."""

from __future__ import annotations

import os
import pwd
from typing import Any

from tests.integration.live import LiveDaemon, job, wait_for

ME = pwd.getpwuid(os.getuid()).pw_name
HOSTS = ["global", "host1", "host2", "host3", "host4"]
INSTANCES = [f"all.q@{h}" for h in HOSTS[1:]]


def hosts(live: LiveDaemon, **args: Any) -> dict[str, dict[str, Any]]:
    reply = live.call("host_list", args)
    assert reply.ok, reply.answers
    return {h["name"]: h for h in reply.data["hosts"]}


def running_on(live: LiveDaemon, job_id: int) -> str:
    """The host a job runs on, once it runs."""

    def probe() -> str | None:
        rows = live.call("job_list", {"users": ["*"]}).data["jobs"]
        queue = next(
            (r["queue"] for r in rows if r["job_id"] == job_id and r["state"] == "r"), None
        )
        return str(queue).partition("@")[2] if queue else None

    found: str = wait_for(probe, what=f"job {job_id} running")
    return found


def selected(live: LiveDaemon, **args: Any) -> list[str]:
    reply = live.call("queue_select", args)
    assert reply.ok, reply.answers
    return list(reply.data["queues"])


def errors(live: LiveDaemon, op: str, **args: Any) -> list[str]:
    reply = live.call(op, args)
    assert not reply.ok
    return [a.text for a in reply.answers if a.is_error]


def test_hosts_come_global_first_with_their_static_load_values(live: LiveDaemon) -> None:
    """qhost lists the global host then every host by name, with arch, CPUs and memory."""
    found = hosts(live)
    assert list(found) == HOSTS
    assert found["global"]["arch"] is None
    assert found["global"]["load_avg"] is None
    host1 = found["host1"]
    assert (host1["arch"], host1["num_proc"]) == ("lx-amd64", "4")
    assert host1["mem_total"] == 8 * 1024**3
    assert host1["swap_total"] == 2 * 1024**3
    assert host1["load_avg"] == 0.0
    assert host1["mem_used"] == 0.0


def test_a_running_job_raises_its_hosts_load_and_is_listed_under_its_queue(
    live: LiveDaemon,
) -> None:
    """The host running a job shows load 1 and, with jobs, the job as MASTER in all.q."""
    job_id = live.call("submit", job("100", N="busy")).data["job_id"]
    host = running_on(live, job_id)
    found = hosts(live, queues=True, jobs=True)
    assert found[host]["load_avg"] == 1.0
    queue = found[host]["queues"][0]
    assert (queue["cqueue"], queue["qtype"], queue["used"], queue["total"]) == (
        "all.q",
        "BIP",
        1,
        4,
    )
    [line] = queue["jobs"]
    assert (line["job_id"], line["name"], line["owner"]) == (job_id, "busy", ME)
    assert (line["state"], line["master"], line["queue"]) == ("r", "MASTER", f"all.q@{host}")
    idle = [h for h in HOSTS[1:] if h != host]
    assert all(found[h]["load_avg"] == 0.0 and not found[h]["queues"][0]["jobs"] for h in idle)
    assert not hosts(live, jobs=True, users=["nobody*"])[host]["queues"][0]["jobs"]


def test_hosts_are_narrowed_by_name_and_by_resources(live: LiveDaemon) -> None:
    """-h keeps the named hosts (and global); -l keeps hosts offering the values, without global."""
    assert list(hosts(live, hosts=["HOST3", "host1"])) == ["global", "host1", "host3"]
    assert list(hosts(live, resources={"arch": "lx-amd64"})) == HOSTS[1:]
    assert list(hosts(live, resources={"h": "host2"})) == ["host2"]
    assert list(hosts(live, resources={"mem_total": "16G"})) == []
    assert list(hosts(live, resources={"arch": "lx-*", "num_proc": "4"})) == HOSTS[1:]


def test_resource_values_carry_their_dominance(live: LiveDaemon) -> None:
    """-F values: load values are 'hl', the host name 'hf', memory as Grid Engine prints it."""
    values = {name: (dom, value) for dom, name, value, _ in hosts(live)["host1"]["resources"]}
    assert values["arch"] == ("hl", "lx-amd64")
    assert values["hostname"] == ("hf", "host1")
    assert values["mem_total"] == ("hl", "8.000G")
    assert values["swap_used"] == ("hl", "0.000")
    assert values["num_proc"] == ("hl", "4.000000")


def test_bad_host_and_resource_requests_are_refused(live: LiveDaemon) -> None:
    """An unknown host or resource name, or a value of the wrong type, gets Grid Engine's error."""
    assert errors(live, "host_list", hosts=["nohost"]) == ['can\'t resolve hostname "nohost"']
    assert errors(live, "host_list", resources={"foo": "1"}) == ['unknown resource "foo"']
    assert errors(live, "queue_select", resources={"foo": "1"}) == ['unknown resource "foo"']
    assert errors(live, "host_list", resources={"mem_total": "abc"}) == [
        'wrong type in "mem_total=abc" - MEMORY expected'
    ]


def test_queue_instances_are_selected_by_queue_pe_and_resources(live: LiveDaemon) -> None:
    """qselect: every instance; -q patterns; -pe; -l against global, host and queue values."""
    assert selected(live) == INSTANCES
    assert selected(live, queues=["*@host2", "all.q@host4"]) == ["all.q@host2", "all.q@host4"]
    assert selected(live, pes=["mp*"]) == INSTANCES
    assert selected(live, resources={"h": "host3"}) == ["all.q@host3"]
    assert selected(live, resources={"slots": "4", "arch": "lx-amd64"}) == INSTANCES
    assert selected(live, resources={"slots": "5"}) == []
    assert selected(live, resources={"qname": "other.q"}) == []


def test_an_empty_selection_names_the_option_that_emptied_it(live: LiveDaemon) -> None:
    """-q, -pe, -U leaving nothing say 'no queues remaining after ... queue selection'."""
    assert errors(live, "queue_select", queues=["nope"]) == [
        "no queues remaining after -q queue selection"
    ]
    assert errors(live, "queue_select", pes=["nope"]) == [
        "no queues remaining after -pe queue selection"
    ]
    assert errors(live, "queue_select", states="dx") == [
        "unknown queue state: x found in string: dx"
    ]
    assert selected(live, states="d") == []


def test_user_access_follows_the_hosts_xuser_lists(live: LiveDaemon) -> None:
    """-U drops the instances on a host whose xuser_lists hold the user."""
    assert live.call("conf_add", {"kind": "userset", "name": "arusers", "members": ["alice"]}).ok
    text = live.call("conf_show", {"kind": "exechost", "name": "host4"}).data["text"]
    text = text.replace("xuser_lists           NONE", "xuser_lists           arusers")
    assert live.call("conf_modify", {"kind": "exechost", "text": text}).ok
    assert selected(live, users=["alice"]) == INSTANCES[:3]
    assert selected(live, users=["bob"]) == INSTANCES
    assert selected(live, users=["alice", "bob"]) == INSTANCES


def test_a_host_past_its_load_threshold_puts_its_queue_in_alarm(live: LiveDaemon) -> None:
    """np_load_avg over all.q's load_thresholds: qhost -q shows 'a', qselect -qs a selects it."""
    assert selected(live, states="a") == []
    text = live.call("conf_show", {"kind": "exechost", "name": "host1"}).data["text"]
    text = text.replace("virtual_total=10G", "virtual_total=10G,np_load_avg=2")
    assert live.call("conf_modify", {"kind": "exechost", "text": text}).ok
    found = hosts(live, queues=True)
    assert found["host1"]["queues"][0]["states"] == "a"
    assert found["host2"]["queues"][0]["states"] == ""
    assert selected(live, states="a") == ["all.q@host1"]
    assert selected(live, states="ud") == []


def test_a_parallel_jobs_slots_are_master_and_slave_lines(live: LiveDaemon) -> None:
    """A 3-slot mpi job (job_is_first_task FALSE): one MASTER line plus a SLAVE per slot."""
    job_id = live.call("submit", job("100", pe_name="mpi", pe_min=3, pe_max=3)).data["job_id"]
    running_on(live, job_id)
    lines = [
        line
        for h in hosts(live, jobs=True).values()
        for q in h["queues"]
        for line in q["jobs"]
        if line["job_id"] == job_id
    ]
    assert [line["master"] for line in lines].count("MASTER") == 1
    assert len(lines) == 3 + 1
    master = next(line for line in lines if line["master"] == "MASTER")
    assert master["first"]
    assert sum(line["first"] for line in lines) == len({line["queue"] for line in lines})


def test_load_scaling_shows_in_qhost_and_qstat_as_the_scheduler_sees_it(live: LiveDaemon) -> None:
    """load_scaling x4 on host1 (load 0.5): qhost LOAD, qstat -F and the alarm all see 2."""
    text = live.call("conf_show", {"kind": "exechost", "name": "host1"}).data["text"]
    text = text.replace("virtual_total=10G", "virtual_total=10G,load_avg=0.5,np_load_avg=0.5")
    text = text.replace(
        "load_scaling          NONE", "load_scaling          load_avg=4,np_load_avg=4"
    )
    assert live.call("conf_modify", {"kind": "exechost", "text": text}).ok
    found = hosts(live, queues=True)
    assert found["host1"]["load_avg"] == 2.0
    assert found["host1"]["queues"][0]["states"] == "a"  # the scheduler's judgement: 2 > 1.75
    listing = live.call("job_list", {"full": True, "queue_resources": ["np_load_avg"]})
    [row] = [q for q in listing.data["queues"] if q["name"] == "all.q@host1"]
    assert [r["value"] for r in row["resources"] if r["name"] == "np_load_avg"] == ["2.000000"]
