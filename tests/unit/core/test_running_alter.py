"""qalter of a running job: consumable requests stay as the running tasks booked them."""

from __future__ import annotations

import shutil
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.store import ClusterConfig
from qmaster.core import Core, CoreSettings
from tests.unit.core.helpers import ALICE, T0, request, run_until, submit, texts


def _running_gpu_job(tmp_path: Path) -> Core:
    conf = shutil.copytree(DEFAULT_CONF_DIR, tmp_path / "conf")
    (conf / "complexes").write_text(
        (conf / "complexes").read_text() + "gpu gpu INT <= YES YES 0 0\n"
    )
    h = conf / "exechosts" / "host1"
    h.write_text(h.read_text().replace("complex_values        NONE", "complex_values        gpu=2"))
    core = Core(ClusterConfig.load_dir(conf), CoreSettings())
    submit(core, CMDARGS=["100"], l_hard={"gpu": "1", "arch": "*"})
    run_until(core, T0 + 1)
    return core


def _alter(core: Core, requests: dict[str, str]) -> list[str]:
    return texts(request(core, ALICE, "alter", T0 + 1, job_ids=["1"], job={"l_hard": requests}))


def test_consumable_request_of_a_running_job_cannot_change(tmp_path: Path) -> None:
    """Changing, dropping or adding a consumable request of a running job is denied."""
    core = _running_gpu_job(tmp_path)
    assert _alter(core, {"gpu": "2"}) == [
        'denied: can\'t change consumable resource request "gpu" of running job'
    ]
    assert _alter(core, {"arch": "*"}) == [
        'denied: former resource request on consumable "gpu" of running job lacks in new '
        "resource request"
    ]
    assert _alter(core, {"gpu": "1", "slots": "1"})[0].startswith(
        'denied: resource request on consumable "slots" of running job was not contained'
    )
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"gpu": "1", "arch": "*"}


def test_non_consumable_request_of_a_running_job_may_change(tmp_path: Path) -> None:
    """A running job's non-consumable requests may change; the consumable ones stay."""
    core = _running_gpu_job(tmp_path)
    assert _alter(core, {"gpu": "1", "arch": "lx-amd64"}) == [
        "modified hard resource list of job 1"
    ]
    assert core.jobs[1].spec.to_dict()["l_hard"] == {"gpu": "1", "arch": "lx-amd64"}
    assert core.booked.at("host", "host1")["gpu"] == 1.0
