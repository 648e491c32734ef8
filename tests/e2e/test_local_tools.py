"""Real tools against a cell in local execution mode: a Dask cluster, a shell pipeline."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.localcells import accounting, local_cell_at, processes_with

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def local_cell(request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A fresh cell in local execution mode, its daemon running."""
    yield from local_cell_at(request)


def running_jobs(cell: RunningCell) -> dict[str, str]:
    """qstat's jobs: job id -> state."""
    lines = cell.run("qstat", check=True).stdout.splitlines()[2:]
    return {ln.split()[0]: ln.split()[4] for ln in lines}


def wait_for(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll ``check()`` until it is true."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.2)


def test_dask_jobqueue_sgecluster_runs_its_workers_as_grid_engine_jobs(
    local_cell: RunningCell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dask_jobqueue's SGECluster scales to 2 worker jobs that qstat lists, computes on them,
    and its scale-down qdels them: no worker process is left behind."""
    dask_jobqueue = pytest.importorskip(
        "dask_jobqueue", reason="dask-jobqueue is not installed (pip install minige[test,sim])"
    )
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    for name, value in local_cell.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    marker = f"minige-dask-{tmp_path.name}"
    cluster = dask_jobqueue.SGECluster(
        cores=1,
        processes=1,
        memory="512MB",
        walltime="00:10:00",
        name=marker,
        log_directory=str(tmp_path / "logs"),
        scheduler_options={"host": "127.0.0.1"},
        job_script_prologue=[f"export MINIGE_MARK={marker}"],
    )
    try:
        with distributed.Client(cluster) as client:
            cluster.scale(jobs=2)
            client.wait_for_workers(2, timeout=90)
            jobs = running_jobs(local_cell)
            assert sorted(jobs.values()) == ["r", "r"]
            futures = client.map(lambda x: x * x, range(20))
            assert client.submit(sum, futures).result(timeout=60) == sum(x * x for x in range(20))
            hosts = {w["host"] for w in client.scheduler_info()["workers"].values()}
            assert hosts == {"127.0.0.1"}
            cluster.scale(jobs=1)
            wait_for(lambda: len(running_jobs(local_cell)) == 1, "one worker job to remain")
            (left,) = running_jobs(local_cell)
            assert left in jobs
            done = local_cell.run("qdel", left)
            assert done.returncode == 0, done.stderr
            wait_for(lambda: not running_jobs(local_cell), "the last worker job to end")
    finally:
        cluster.close()
    wait_for(lambda: not processes_with(marker), "the worker processes to exit", 20)
    lines = accounting(local_cell, 2)
    assert sorted(f[5] for f in lines) == sorted(jobs)
    # "#$ -o logs/" and "#$ -j y": each worker's output is NAME.oJOBID in the directory
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert [name.rpartition(".o")[2] for name in logs] == sorted(jobs)
    assert "Start Nanny at" in (tmp_path / "logs" / logs[0]).read_text()


def test_a_pipeline_of_dependent_array_jobs_writes_its_files_in_order(
    local_cell: RunningCell, tmp_path: Path
) -> None:
    """A shell pipeline of array jobs chained with -hold_jid runs each stage after the one
    it waits for: every stage finds its input, and qacct -j shows each task with exit 0."""
    stages = {
        "split": "echo $SGE_TASK_ID > part.$SGE_TASK_ID",
        "square": "n=$(cat part.$SGE_TASK_ID); echo $((n * n)) > sq.$SGE_TASK_ID",
        "total": "t=0; for f in sq.*; do t=$((t + $(cat $f))); done; echo $t > total",
    }
    ids: list[str] = []
    for name, body in stages.items():
        script = tmp_path / f"{name}.sh"
        script.write_text(f"#!/bin/sh\n#$ -cwd -N {name}\nsleep 0.3\n{body}\n")
        args = ["-terse"] + (["-t", "1-4"] if name != "total" else [])
        args += ["-hold_jid", ids[-1]] if ids else []
        done = local_cell.run("qsub", *args, script.name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        ids.append(done.stdout.strip().partition(".")[0])
    assert ids == ["1", "2", "3"]
    lines = accounting(local_cell, 9, timeout=60)
    assert sorted((f[4], f[5], f[35], f[11], f[12]) for f in lines) == sorted(
        [("split", "1", str(t), "0", "0") for t in range(1, 5)]
        + [("square", "2", str(t), "0", "0") for t in range(1, 5)]
        + [("total", "3", "0", "0", "0")]
    )
    assert (tmp_path / "total").read_text() == "30\n"
    starts: dict[str, list[tuple[int, int]]] = {f[5]: [] for f in lines}
    for f in lines:
        starts[f[5]].append((int(f[9]), int(f[10])))
    assert max(e for _, e in starts["1"]) <= min(s for s, _ in starts["2"])
    assert max(e for _, e in starts["2"]) <= min(s for s, _ in starts["3"])
    shown = local_cell.run("qacct", "-j", "square", check=True).stdout
    assert shown.count("jobname      square") == 4
    assert sorted(ln.split()[1] for ln in shown.splitlines() if ln.startswith("taskid")) == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert {ln.split()[1] for ln in shown.splitlines() if ln.startswith("exit_status")} == {"0"}
