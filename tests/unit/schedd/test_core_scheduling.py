"""The core with the scheduler: consumables booked at dispatch, released at the end, reasons."""

from __future__ import annotations

import shutil
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings
from tests.unit.core.helpers import ROOT, T0, request, run_until, submit, texts


def _core(tmp_path: Path) -> Core:
    conf = shutil.copytree(DEFAULT_CONF_DIR, tmp_path / "conf")
    (conf / "complexes").write_text(
        (conf / "complexes").read_text() + "gpu gpu INT <= YES YES 0 0\n"
    )
    h = conf / "exechosts" / "host1"
    h.write_text(h.read_text().replace("complex_values        NONE", "complex_values        gpu=2"))
    return Core(ClusterConfig.load_dir(conf), CoreSettings())


def _detail(core: Core, job_id: int) -> dict:  # type: ignore[type-arg]
    out = request(core, ROOT, "job_detail", job_ids=[str(job_id)])
    return out.data["jobs"][0]  # type: ignore[no-any-return]


def test_host_consumable_booked_until_the_job_ends(tmp_path: Path) -> None:
    """Two gpu=1 jobs run on host1; a third waits with GE's reason and runs after one ends."""
    core = _core(tmp_path)
    for runtime in ("10", "100", "10"):
        submit(core, CMDARGS=[runtime], l_hard={"gpu": "1"})
    run_until(core, T0 + 1)
    assert core.booked.at("host", "host1")["gpu"] == 2.0
    info = _detail(core, 3)
    assert (
        '(-l gpu=1) cannot run at host "host1" because it offers only hc:gpu=0.000000'
        in info["scheduling_info"]
    )
    assert {"code": "offers_only", "level": "host", "target": "host1"}.items() <= next(
        r for r in info["reasons"] if r["level"] == "host"
    ).items()
    run_until(core, T0 + 15)
    assert core.jobs[3].tasks[0].queue is not None
    assert core.jobs[3].tasks[0].queue.endswith("@host1")


def test_unknown_resource_is_refused_at_submit(tmp_path: Path) -> None:
    """qsub -l nosuch=1 is refused in Grid Engine's words."""
    core = _core(tmp_path)
    out = submit(core, l_hard={"nosuch": "1"})
    assert texts(out) == ['unknown resource "nosuch"']


def test_verify_e_refuses_a_job_no_queue_can_ever_run(tmp_path: Path) -> None:
    """qsub -w e with gpu=3 (host1 has 2) is refused; gpu=2 is accepted."""
    core = _core(tmp_path)
    assert texts(submit(core, verify="e", l_hard={"gpu": "3"})) == ["error: no suitable queues"]
    assert "has been submitted" in texts(submit(core, verify="e", l_hard={"gpu": "2"}))[0]


def test_recovery_rebooks_consumables(tmp_path: Path) -> None:
    """After a restart from spooled rows the running job's gpu is booked again."""
    core = _core(tmp_path)
    out = submit(core, CMDARGS=["100"], l_hard={"gpu": "2"})
    outs = [out, *run_until(core, T0 + 1)]
    jobs = {k: v for o in outs for k, v in o.spool.jobs.items() if v is not None}
    tasks = {k: v for o in outs for k, v in o.spool.tasks.items() if v is not None}
    rows = [dict(row, job_id=k[0]) for k, row in tasks.items()]
    again = Core.recover(core.config, CoreSettings(), list(jobs.values()), rows, {}, T0 + 2)
    assert again.booked.at("host", "host1")["gpu"] == 2.0


def test_overloaded_queue_instance_is_in_alarm_and_takes_no_job(tmp_path: Path) -> None:
    """np_load_avg 2.00 on host1 (threshold 1.75): qstat -f shows 'a' there; jobs go elsewhere."""
    conf = shutil.copytree(DEFAULT_CONF_DIR, tmp_path / "conf")
    h = conf / "exechosts" / "host1"
    h.write_text(h.read_text().replace("num_proc=4,", "num_proc=4,np_load_avg=2.00,"))
    core = Core(ClusterConfig.load_dir(conf), CoreSettings())
    submit(core, CMDARGS=["100"], q_hard=["all.q@host1"])
    submit(core, CMDARGS=["100"])
    run_until(core, T0 + 1)
    queues = request(core, ROOT, "job_list", T0 + 1, full=True).data["queues"]
    assert {q["name"]: q["states"] for q in queues}["all.q@host1"] == "a"
    assert {q["name"]: q["states"] for q in queues}["all.q@host2"] == ""
    assert not core.jobs[1].tasks
    info = _detail(core, 1)
    assert any("dropped because it is overloaded: np_load_avg=2.000000" in t
               for t in info["scheduling_info"])  # fmt: skip
    assert core.jobs[2].tasks[0].queue != "all.q@host1"
