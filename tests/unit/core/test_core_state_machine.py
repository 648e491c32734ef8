"""Random stimuli through Core.handle and Core.tick keep the core's state valid.

A hypothesis state machine submits jobs with random options (arrays, holds,
start times, dependencies, parallel environments, h_rt, verification modes,
advance reservations), deletes, alters, holds and releases them, runs qmod on
jobs and queues, changes the configuration, makes and deletes advance
reservations, and lets virtual time pass by random steps. After every step
the core's state must pass ``validate_state`` (spool rows included, against a
fake spool fed with every outcome's rows), and a refused request must leave
the core exactly as it was.
"""

from __future__ import annotations

import os
import re
import time
from datetime import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, Identity, Outcome
from qmaster.core.effects import VerifyJob
from qmaster.core.spool_image import SpoolImage
from qmaster.core.stimuli import Asked, JsvVerdict, Submit
from qmaster.stimuli_wire import MalformedRequest, parse
from tests.unit.core.core_snapshot import snapshot
from tests.unit.core.helpers import ALICE, BOB, JSV_SCRIPT, ROOT, jsv_verdict, make_core

pytestmark = pytest.mark.no_validate_state  # the machine validates after every step itself

NOON = datetime(2026, 11, 23, 12, 0).timestamp()  # a Monday, local time
PEOPLE = (ALICE, BOB, ROOT)
QUEUES = ("all.q@host1", "all.q@host2", "all.q@host3", "all.q@host4")
HOLD_LISTS = ("u", "o", "s", "n", "U", "O", "S", "uo", "US")
QMOD = ("s", "us", "d", "e", "r", "c", "sj", "usj", "rj", "cj", "sq", "usq", "rq", "cq")
STEPS = (0.0, 0.0, 0.5, 1.0, 2.0, 5.0, 30.0, 61.0, 600.0, 3600.0, 6 * 3600.0)

people = st.sampled_from(PEOPLE)


def _nowhere(path: str, _owner: Identity) -> str | None:
    return "No such file or directory" if path == "/nowhere" else None


runtimes = st.sampled_from(["0", "1", "3", "10", "100", "1000", "oops"])


def _stamp(at: float) -> str:
    """A start time as qsub -a sends it (CCYYMMDDhhmm.SS, local time)."""
    return time.strftime("%Y%m%d%H%M.%S", time.localtime(at))


def _has_jobs(machine: CoreMachine) -> bool:
    return bool(machine.core.jobs)


def _refused(out: Outcome) -> bool:
    return bool(out.answers) and all(a.is_error for a in out.answers) and not out.spool


class CoreMachine(RuleBasedStateMachine):
    """One core on the default cell, driven by random requests and ticks."""

    def __init__(self) -> None:
        super().__init__()
        base = make_core()
        # a job whose working directory is /nowhere goes into error state (Eqw) at its start
        self.core = Core(base.config, base.settings, workdir_error=_nowhere)
        self.image = SpoolImage.of_core(self.core)
        self.now = NOON
        self.steps: list[str] = []
        self.asked: list[VerifyJob] = []
        """The server JSV's questions not answered yet."""
        self._call(ROOT, "conf_add", kind="userset", name="arusers", members=["alice", "bob"])
        week = "mon-sun=18-24,0-6=suspended"
        text = f"calendar_name night\nyear NONE\nweek {week}\n"
        self._call(ROOT, "conf_modify", kind="calendar", text=text, add=True)

    # -- driving -------------------------------------------------------------------

    def _call(self, who: Identity, op: str, **args: Any) -> Outcome | None:
        """One request as the daemon hands it over; a refusal must change nothing."""
        try:
            stimulus = parse(who, op, args)
        except MalformedRequest:
            return None  # refused at the wire, never reaches the core
        return self._handle(stimulus)

    def _handle(self, stimulus: Asked) -> Outcome:
        before = snapshot(self.core)
        self.steps.append(f"{stimulus} at {self.now}")
        out = self.core.handle(stimulus, self.now)
        self._performed(out)
        if _refused(out):
            after = snapshot(self.core)
            if isinstance(stimulus, (Submit, JsvVerdict)):  # a refused job uses its id up
                before["counters"] = (after["counters"][0], before["counters"][1])
            changed = sorted(k for k in before if before[k] != after[k])
            assert not changed, f"refused {stimulus} ({out.answers}) changed {changed}"
        return out

    def _performed(self, out: Outcome) -> None:
        """The driver's part: spool the rows, keep the JSV's questions."""
        for effect in out.effects():
            if isinstance(effect, VerifyJob):
                self.asked.append(effect)
        self.image.apply(out.spool)

    def _job_refs(self, data: st.DataObject) -> tuple[Identity, list[str]]:
        """A job (or some of its tasks; now and then one that does not exist) and who acts
        on it: mostly its owner, else someone else or root."""
        ids = sorted(self.core.jobs) or [1]
        job_id = data.draw(st.sampled_from([*ids, *ids, max(ids) + 1]), label="job")
        job = self.core.jobs.get(job_id)
        owner = job.owner if job else ALICE
        who = data.draw(st.sampled_from([owner, owner, owner, *PEOPLE]), label="who")
        if job is not None and job.array and data.draw(st.booleans(), label="tasks"):
            first = data.draw(st.sampled_from(list(job.all_task_ids())), label="first")
            return who, [f"{job_id}.{first}-{first + data.draw(st.integers(0, 3))}"]
        return who, [str(job_id)]

    # -- rules ---------------------------------------------------------------------

    @rule(data=st.data(), who=people, runtime=runtimes)
    def submit(self, data: st.DataObject, who: Identity, runtime: str) -> None:
        spec: dict[str, Any] = {"CMDNAME": "job.sh", "CMDARGS": [runtime]}
        draw = data.draw
        if draw(st.booleans(), label="array"):
            first = draw(st.integers(1, 4))
            spec.update(
                t_min=first, t_max=first + draw(st.integers(0, 5)), t_step=draw(st.integers(1, 2))
            )
            if draw(st.booleans(), label="tc"):
                spec["tc"] = draw(st.integers(1, 2))
        if draw(st.integers(0, 4), label="hold") == 0:
            spec["h"] = True
        if draw(st.integers(0, 4), label="start") == 0:
            spec["a"] = _stamp(self.now + draw(st.sampled_from([-60, 30, 90, 4000])))
        if self.core.jobs and draw(st.integers(0, 3), label="hold_jid") == 0:
            ref = str(draw(st.sampled_from(sorted(self.core.jobs))))
            spec["hold_jid_ad" if draw(st.booleans()) else "hold_jid"] = [ref]
        if draw(st.integers(0, 3), label="pe") == 0:
            low = draw(st.integers(1, 6))
            spec.update(
                pe_name=draw(st.sampled_from(["mpi", "make", "m*"])),
                pe_min=low,
                pe_max=low + draw(st.integers(0, 4)),
            )
        if draw(st.integers(0, 2), label="h_rt") == 0:
            spec["l_hard"] = {"h_rt": draw(st.sampled_from(["0:0:2", "5", "0:10:0"]))}
        if draw(st.integers(0, 5), label="ar") == 0 and self.core.ars:
            spec["ar"] = draw(st.sampled_from(sorted(self.core.ars)))
        if draw(st.integers(0, 7), label="wd") == 0:
            spec["wd"] = draw(st.sampled_from(["/nowhere", "/tmp"]))
        for option in ("now", "notify", "r"):
            if draw(st.integers(0, 7), label=option) == 0:
                spec[option] = draw(st.booleans())
        verify = draw(st.sampled_from(["n", "n", "n", "e", "w", "v", "p"]), label="verify")
        self._call(who, "submit", job=spec, verify=verify)

    @precondition(_has_jobs)
    @rule(data=st.data(), who=people, runtime=runtimes)
    def submit_another(self, data: st.DataObject, who: Identity, runtime: str) -> None:
        """Submissions twice as often as other requests, so that jobs pile up."""
        self.submit(data, who, runtime)

    @precondition(_has_jobs)
    @rule(data=st.data(), force=st.booleans())
    def qdel_another(self, data: st.DataObject, force: bool) -> None:
        self.qdel(data, force)

    @initialize(on=st.booleans())
    def start_with_a_jsv(self, on: bool) -> None:
        """Half of the runs start with a server JSV: every submission and qalter waits for it."""
        if on:
            self.server_jsv(on)

    @rule(on=st.booleans())
    def server_jsv(self, on: bool) -> None:
        """qconf -mconf: a server JSV (that may let jobs wait), or none."""
        text = str(self._call(ROOT, "conf_show", kind="global").data["text"])  # type: ignore[union-attr]
        values = {"jsv_url": str(JSV_SCRIPT) if on else "none", "jsv_reject_wait_retries": "2"}
        for key, value in values.items():
            text = re.sub(rf"^{key}\s+.*$", f"{key} {value}", text, flags=re.M)
        self._call(ROOT, "conf_modify", kind="global", text=text)

    @precondition(lambda self: bool(self.asked))
    @rule(data=st.data(), state=st.sampled_from(["ACCEPT", "CORRECT", "REJECT", "REJECT_WAIT"]))
    def jsv_verdict(self, data: st.DataObject, state: Any) -> None:
        """The server JSV answers one of the questions (in any order)."""
        asked = data.draw(st.sampled_from(self.asked), label="asked")
        self.asked.remove(asked)
        spec = {**asked.spec, "p": -5} if state == "CORRECT" else None
        self._handle(jsv_verdict(asked.owner, asked.token, state, spec, message="JSV"))

    @rule(host=st.sampled_from(["host3", "host4"]), jobs=st.booleans())
    def kill_execd(self, host: str, jobs: bool) -> None:
        self._call(ROOT, "kill_execd", hosts=[host], jobs=jobs)

    @rule(hosts=st.sampled_from(["host1 host2 host3 host4", "host1 host2 host3", "host1 host2"]))
    def hostgroup(self, hosts: str) -> None:
        text = f"group_name @allhosts\nhostlist   {hosts}\n"
        self._call(ROOT, "conf_modify", kind="hostgroup", text=text)

    @rule()
    def restart(self) -> None:
        """The qmaster restarts: a core recovered from the spool holds the same jobs and ARs."""
        image = self.image
        tasks = [{**row, "job_id": key[0]} for key, row in image.tasks.items()]
        config = ClusterConfig.from_rows([(k, n, text) for (k, n), text in image.config.items()])
        story = [(job_id, row) for job_id, rows in image.story.items() for row in rows]
        again = Core.recover(
            config,
            self.core.settings,
            list(image.jobs.values()),
            tasks,
            dict(image.counters),
            self.now,
            ars=list(image.ars.values()),
            story=story,
            workdir_error=self.core.workdir_error,
        )
        self.steps.append(f"restart at {self.now}")
        self.asked.clear()  # asked by the core that stopped: the daemon failed the requests
        kept, recovered = snapshot(self.core), snapshot(again)
        for key in ("jobs", "tasks", "ars", "user_jobs", "qi_states", "config_rows"):
            assert recovered[key] == kept[key], f"{key} differ after a restart"
        for job_id in self.core.jobs:
            assert again.story(job_id) == self.core.story(job_id), "a story differs after a restart"
        assert again.journal.next_id == self.core.journal.next_id
        self.core = again
        self.image = SpoolImage.of_rows(
            config.to_rows(),
            list(image.jobs.values()),
            tasks,
            dict(image.counters),
            list(image.ars.values()),
            story,
        )

    @rule(data=st.data(), force=st.booleans())
    def qdel(self, data: st.DataObject, force: bool) -> None:
        who, refs = self._job_refs(data)
        self._call(who, "delete", job_ids=refs, force=force)

    @precondition(_has_jobs)
    @rule(data=st.data())
    def qalter(self, data: st.DataObject) -> None:
        draw = data.draw
        changes: dict[str, Any] = draw(
            st.sampled_from(
                [
                    {"p": -10},
                    {"N": "renamed"},
                    {"l_hard": {"h_rt": "0:0:3"}},
                    {"a": _stamp(self.now + 45)},
                    {"hold_jid": [str(min(self.core.jobs, default=1))]},
                    {"pe_name": "mpi", "pe_min": 2, "pe_max": 2},
                    {"CMDARGS": ["7"]},
                    {"h": True},
                    {"ar": min(self.core.ars, default=1)},
                    {"l_hard": {"hostname": "host2"}},
                    {"t_min": 1, "t_max": 2},
                ]
            ),
            label="changes",
        )
        verify = draw(st.sampled_from(["n", "n", "e", "w", "v"]), label="verify")
        who, refs = self._job_refs(data)
        self._call(who, "alter", job_ids=refs, job=changes, verify=verify)

    @precondition(_has_jobs)
    @rule(data=st.data(), letters=st.sampled_from(HOLD_LISTS))
    def qhold_qrls(self, data: st.DataObject, letters: str) -> None:
        who, refs = self._job_refs(data)
        self._call(who, "alter", job_ids=refs, job={}, hold=letters)

    @rule(data=st.data(), action=st.sampled_from(QMOD), force=st.booleans())
    def qmod(self, data: st.DataObject, action: str, force: bool) -> None:
        if action.endswith("j") or (len(action) <= 2 and data.draw(st.booleans(), label="job")):
            who, targets = self._job_refs(data)
        else:
            who = data.draw(st.sampled_from([ROOT, ROOT, ALICE]), label="who")
            targets = [data.draw(st.sampled_from([*QUEUES, "all.q"]), label="queue")]
        self._call(who, "qmod", action=action, targets=targets, force=force)

    @rule(
        key=st.sampled_from(["schedule_interval", "flush_finish_sec", "flush_submit_sec"]),
        value=st.sampled_from(["0:0:0", "0:0:1", "0:0:15"]),
    )
    def sched_conf(self, key: str, value: str) -> None:
        if key != "schedule_interval":
            value = value.rsplit(":", 1)[1]
        conf = self.core.config.sched_conf.render()
        lines = [f"{key} {value}" if ln.split()[:1] == [key] else ln for ln in conf.splitlines()]
        self._call(ROOT, "conf_modify", kind="sched", text="\n".join(lines) + "\n")

    @rule(
        queue=st.sampled_from(QUEUES),
        attr=st.sampled_from(["slots", "calendar", "h_rt", "rerun"]),
        data=st.data(),
    )
    def queue_conf(self, queue: str, attr: str, data: st.DataObject) -> None:
        values = {
            "slots": ["0", "1", "4"],
            "calendar": ["night", "NONE"],
            "h_rt": ["0:0:4", "INFINITY"],
            "rerun": ["TRUE", "FALSE"],
        }[attr]
        value = data.draw(st.sampled_from(values), label="value")
        self._call(
            ROOT, "conf_attr", kind="cqueue", mode="change", name=queue, pairs=[[attr, value]]
        )

    @rule(pe=st.sampled_from(["mpi", "make"]), slots=st.sampled_from(["0", "2", "999"]))
    def pe_conf(self, pe: str, slots: str) -> None:
        self._call(ROOT, "conf_attr", kind="pe", mode="change", name=pe, pairs=[["slots", slots]])

    @rule(
        who=people,
        start=st.sampled_from([0.0, 20.0, 120.0]),
        length=st.sampled_from([60.0, 600.0]),
        slots=st.integers(1, 6),
    )
    def qrsub(self, who: Identity, start: float, length: float, slots: int) -> None:
        spec: dict[str, Any] = {"a": self.now + start, "d": length}
        if slots > 1:
            spec.update(pe_name="mpi", pe_min=slots, pe_max=slots)
        self._call(who, "ar_submit", ar=spec, verify="e")

    @rule(data=st.data(), who=people, force=st.booleans())
    def qrdel(self, data: st.DataObject, who: Identity, force: bool) -> None:
        ar_id = data.draw(st.sampled_from([*sorted(self.core.ars), 99]), label="ar")
        self._call(who, "ar_delete", ar_ids=[str(ar_id)], force=force)

    @rule(who=people, what=st.sampled_from(["job_list", "job_detail", "ar_list", "host_list"]))
    def query(self, who: Identity, what: str) -> None:
        self._call(who, what)

    @rule(step=st.sampled_from(STEPS))
    def tick(self, step: float) -> None:
        self.now += step
        self.steps.append(f"tick at {self.now}")
        out = self.core.tick(self.now)
        self._performed(out)

    @rule()
    def run_to_next_deadline(self) -> None:
        deadline = self.core.next_deadline()
        if deadline is not None and deadline > self.now:
            self.now = deadline
        self.tick(0.0)

    # -- the invariants --------------------------------------------------------------

    @invariant()
    def state_is_valid(self) -> None:
        self.core.validate_state(self.image)


CoreMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("CORE_MACHINE_EXAMPLES", "25")),
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestCoreStateMachine = CoreMachine.TestCase
