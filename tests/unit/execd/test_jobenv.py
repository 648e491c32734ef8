"""How a local task is laid out: its command line, output files and environment."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

from qmaster.cell import Cell
from qmaster.core.jobs import Job, Task
from qmaster.execd import jobenv
from tests.unit.core.helpers import ALICE, T0, make_core, run_until, submit

SCRIPT = Path("/spool/1.0/job_script")


def started(**spec: Any) -> tuple[Job, Task]:
    """Job 1 submitted with ``spec``, dispatched and started."""
    core = make_core(local_execution=True)
    submit(core, ALICE, **spec)
    run_until(core, T0 + 1)
    job = core.jobs[1]
    return job, next(iter(job.tasks.values()))


def where(
    shell: str = "/bin/sh", mode: str = "posix_compliant", script: Path | None = SCRIPT
) -> jobenv.Placement:
    """A placement on all.q@host1 with the queue's shell and shell_start_mode."""
    return jobenv.Placement("all.q@host1", "host1", Path("/w"), Path("/tmp/x"), script, shell, mode)


def test_a_script_runs_by_the_queues_shell_unless_s_names_one() -> None:
    """posix_compliant: the queue's shell runs the script with its arguments; -S wins."""
    job, _ = started(CMDARGS=["a", "b"], script="echo hi\n")
    assert jobenv.argv(job, where("/bin/ksh")) == ["/bin/ksh", str(SCRIPT), "a", "b"]
    job, _ = started(CMDARGS=[], script="echo\n", S=["host1:/bin/bash"])
    assert jobenv.argv(job, where("/bin/ksh")) == ["/bin/bash", str(SCRIPT)]


def test_shell_start_modes() -> None:
    """unix_behavior runs the script itself (its #! line); script_from_stdin feeds it."""
    job, _ = started(CMDARGS=["x"], script="echo\n")
    assert jobenv.argv(job, where(mode="unix_behavior")) == [str(SCRIPT), "x"]
    assert jobenv.argv(job, where(mode="script_from_stdin")) == ["/bin/sh", "-s", "x"]
    assert jobenv.script_on_stdin(job, where(mode="script_from_stdin"))


def test_a_binary_command_runs_through_the_shell_unless_shell_no() -> None:
    """-b y echo $HOME is 'sh -c "echo $HOME"'; with -shell n it is exec'd as given."""
    job, _ = started(CMDNAME="echo", CMDARGS=["$HOME"], b=True)
    assert jobenv.argv(job, where(script=None)) == ["/bin/sh", "-c", "echo $HOME"]
    job, _ = started(CMDNAME="echo", CMDARGS=["$HOME"], b=True, shell=False)
    assert jobenv.argv(job, where(script=None)) == ["echo", "$HOME"]


def test_output_paths_expand_grid_engines_pseudo_variables(tmp_path: Path) -> None:
    """-o out/$USER.$JOB_ID.$TASK_ID names a file; a directory gets NAME.oJOBID.TASKID."""
    job, task = started(N="n", o=["out/$USER.$JOB_ID.$TASK_ID"], t_min=1, t_max=3, t_step=1)
    path = jobenv.output_path(job, task, "host1", tmp_path, "o")
    assert path == tmp_path / "out" / f"alice.1.{task.task_id}"
    (tmp_path / "logs").mkdir()
    job, task = started(N="n", e=["host1:logs"])
    assert jobenv.output_path(job, task, "host1", tmp_path, "e") == tmp_path / "logs" / "n.e1"
    assert jobenv.output_path(job, task, "host1", tmp_path, "o") == tmp_path / "n.o1"


def test_the_environment_has_grid_engines_variables() -> None:
    """JOB_ID, NSLOTS, QUEUE, undefined task ids for a non-array job; -v wins over basics."""
    job, task = started(N="j", v={"PATH": "/opt/bin", "FOO": "1"})
    env = jobenv.environment(
        job, task, where(), Cell(Path("/sge"), "c"), Path("/w/j.o1"), Path("/w/j.e1")
    )
    assert (env["JOB_ID"], env["JOB_NAME"], env["NSLOTS"], env["QUEUE"]) == ("1", "j", "1", "all.q")
    assert (env["SGE_TASK_ID"], env["SGE_TASK_STEPSIZE"]) == ("undefined", "undefined")
    assert (env["PATH"], env["FOO"], env["USER"], env["ENVIRONMENT"]) == (
        "/opt/bin",
        "1",
        "alice",
        "BATCH",
    )
    assert (env["SGE_ROOT"], env["SGE_CELL"], env["TMPDIR"]) == ("/sge", "c", "/tmp/x")
    # where this installation's commands are, so a job can run $SGE_BINARY_PATH/qstat
    assert (Path(env["SGE_BINARY_PATH"]) / "qstat").exists()


def test_a_multi_host_pe_job_sees_its_hosts_queues_and_hostfile() -> None:
    """-pe mpi 6 over two 4-slot hosts: NSLOTS 6, NHOSTS 2, NQUEUES 2, PE the granted PE,
    PE_HOSTFILE in the task's spool directory with 'host slots queue processors' lines."""
    job, task = started(pe_name="mp*", pe_min=6, pe_max=6)
    spool = Path("/sge/spool/execd/active_jobs/1.0")
    placed = jobenv.Placement(
        "all.q@host1", "host1", Path("/w"), Path("/t"), None, pe="mpi", spool=spool
    )
    env = jobenv.environment(job, task, placed, Cell(Path("/sge"), "c"), Path("/o"), Path("/e"))
    assert (env["NSLOTS"], env["NHOSTS"], env["NQUEUES"], env["PE"]) == ("6", "2", "2", "mpi")
    assert env["PE_HOSTFILE"] == str(spool / "pe_hostfile")
    text = jobenv.pe_hostfile(task, {"all.q@host2": "0-3"})
    hosts = sorted(line.split() for line in text.splitlines())
    assert [(h[0], h[2]) for h in hosts] == [("host1", "all.q@host1"), ("host2", "all.q@host2")]
    assert sorted(int(h[1]) for h in hosts) == [2, 4]
    assert [h[3] for h in hosts] == ["UNDEFINED", "0-3"]


def test_a_job_without_pe_has_no_pe_variables() -> None:
    """PE and PE_HOSTFILE are set for parallel jobs only (the file is written for all)."""
    job, task = started()
    placed = jobenv.Placement(
        "all.q@host1", "host1", Path("/w"), Path("/t"), None, spool=Path("/s")
    )
    env = jobenv.environment(job, task, placed, Cell(Path("/sge"), "c"), Path("/o"), Path("/e"))
    assert "PE" not in env
    assert "PE_HOSTFILE" not in env
    assert env["SGE_JOB_SPOOL_DIR"] == "/s"
    assert jobenv.pe_hostfile(task, {}) == "host1 1 all.q@host1 UNDEFINED\n"


def test_the_environment_is_laid_out_in_grid_engines_order() -> None:
    """PATH is TMPDIR first then Grid Engine's default; -v may set PATH but not HOME or
    USER (Grid Engine's own win); SGE_ACCOUNT, REQNAME, SGE_CWD_PATH and PWD are set."""
    job, task = started(N="j", v={"HOME": "/elsewhere", "FOO": "1"}, cwd="/w")
    env = jobenv.environment(
        job, task, where(), Cell(Path("/sge"), "c"), Path("/w/j.o1"), Path("/w/j.e1")
    )
    assert env["PATH"] == "/tmp/x:/usr/local/bin:/usr/ucb:/bin:/usr/bin:"
    assert (env["HOME"], env["USER"], env["FOO"]) == (jobenv.home_of("alice"), "alice", "1")
    assert (env["SGE_ACCOUNT"], env["REQNAME"]) == ("sge", "j")
    assert (env["SGE_CWD_PATH"], env["PWD"]) == ("/w", "/w")
    job, task = started(N="j", A="proj42")
    env = jobenv.environment(job, task, where(), Cell(Path("/sge"), "c"), Path("/o"), Path("/e"))
    assert env["SGE_ACCOUNT"] == "proj42"
    assert "PWD" not in env


def test_a_non_array_jobs_output_path_keeps_task_id_and_expands_home(tmp_path: Path) -> None:
    """Grid Engine expands $TASK_ID for array tasks only; $HOME and ~/ are the owner's home;
    a [host:]path list gives this host's path, else the one without a host."""
    job, task = started(N="n", o=["out.$TASK_ID.$JOB_ID"])
    assert jobenv.output_path(job, task, "host1", tmp_path, "o") == tmp_path / "out.$TASK_ID.1"
    home = Path(jobenv.home_of("alice"))
    job, task = started(N="n", o=["$HOME/x.$JOB_ID"], e=["~/y"])
    out, err = (jobenv.output_path(job, task, "host1", tmp_path, k) for k in "oe")
    # alice has no password entry: her home is "/" (and "$HOME/x" is "//x")
    assert (str(out).replace("//", "/"), str(err)) == (str(home / "x.1"), str(home / "y"))
    job, task = started(N="n", o=["host2:/two", "/any", "host1:/one"])
    assert jobenv.output_path(job, task, "host1", tmp_path, "o") == Path("/one")
    assert jobenv.output_path(job, task, "host3", tmp_path, "o") == Path("/any")


def test_the_shepherd_execs_a_shell_by_its_base_name_and_checks_it() -> None:
    """posix_compliant and -b y: the shell's path is exec'd with argv[0] its base name and
    must exist; unix_behavior and -shell n exec the script or command itself."""
    job, _ = started(CMDARGS=["a"], script="echo\n")
    assert jobenv.exec_line(job, where("/bin/ksh")) == (
        "/bin/ksh",
        ["ksh", str(SCRIPT), "a"],
        "/bin/ksh",
    )
    assert jobenv.exec_line(job, where(mode="unix_behavior")) == (
        str(SCRIPT),
        [str(SCRIPT), "a"],
        "",
    )
    job, _ = started(CMDNAME="echo", CMDARGS=["$HOME"], b=True, shell=False)
    assert jobenv.exec_line(job, where(script=None)) == ("echo", ["echo", "$HOME"], "")


def test_limits_are_the_queues_or_the_jobs_lower_request_per_slot_on_the_host() -> None:
    """-l h_vmem=1G sets RLIMIT_AS (soft too, as s_vmem may not exceed h_vmem); INFINITY
    is unlimited; s_cpu is the soft CPU limit; a PE task's memory and CPU limits are
    multiplied by its slots on the host; Grid Engine's floors apply (cpu 2 s)."""
    job, task = started(l_hard={"h_vmem": "1G", "s_cpu": "0:0:1"})
    limits = jobenv.rlimits(job, task, "host1", {"h_vmem": None, "h_fsize": 4096.0})
    assert limits["RLIMIT_AS"] == [1 << 30, 1 << 30]
    assert limits["RLIMIT_CPU"] == [2, jobenv.UNLIMITED]
    assert limits["RLIMIT_FSIZE"] == [jobenv.UNLIMITED, 15 * 1024]
    assert limits["RLIMIT_STACK"] == [jobenv.UNLIMITED, jobenv.UNLIMITED]
    job, task = started(pe_name="mp*", pe_min=6, pe_max=6, l_hard={"h_vmem": "1G"})
    per_host = {qi.partition("@")[2]: n for qi, n in task.assignment}
    for host, slots in per_host.items():
        assert jobenv.rlimits(job, task, host, {})["RLIMIT_AS"][1] == slots << 30


def test_a_checkpointing_job_sees_its_ckpt_environment() -> None:
    """-ckpt name: SGE_CKPT_ENV is the name and SGE_CKPT_DIR the environment's ckpt_dir."""
    job, task = started()
    job = copy.copy(job)  # the core's own stays as submitted
    job.spec = dataclasses.replace(job.spec, ckpt="blcr")  # as a -ckpt blcr job has it
    placed = jobenv.Placement(
        "all.q@host1", "host1", Path("/w"), Path("/t"), None, ckpt_dir="/ckpt"
    )
    env = jobenv.environment(job, task, placed, Cell(Path("/sge"), "c"), Path("/o"), Path("/e"))
    assert (env["SGE_CKPT_ENV"], env["SGE_CKPT_DIR"]) == ("blcr", "/ckpt")
    job, task = started()
    env = jobenv.environment(job, task, placed, Cell(Path("/sge"), "c"), Path("/o"), Path("/e"))
    assert "SGE_CKPT_ENV" not in env
