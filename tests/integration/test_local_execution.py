"""execution = "local": dispatched tasks run as real processes and are accounted as they ended."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.live import LiveDaemon, wait_for
from tests.integration.test_timers import EXIT_STATUS, FAILED, acct_of, rows

pytestmark = pytest.mark.timeout(60)

RU_UTIME, RU_STIME, RU_MAXRSS = 14, 15, 16


def binary(command: str, *args: str, **spec: Any) -> dict[str, Any]:
    """A submit request for the ``-b y`` job ``command args``."""
    return {"job": {"CMDNAME": command, "CMDARGS": list(args), "b": True, **spec}}


def script(text: str, **spec: Any) -> dict[str, Any]:
    """A submit request for a job script."""
    return {"job": {"CMDNAME": "job.sh", "CMDARGS": [], "script": text, **spec}}


def alive(pid: int) -> bool:
    """The process exists and is no zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before or while it was read
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_a_binary_job_runs_in_its_working_directory_and_is_accounted(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """'echo $JOB_ID > file' writes the job id; accounting says exit status 0, failed 0."""
    target = tmp_path / "out.txt"
    reply = local.call("submit", binary("echo", "$JOB_ID", ">", "out.txt", cwd=str(tmp_path)))
    assert reply.ok, reply
    wait_for(lambda: target.exists() and target.read_text(), what="the job's file")
    assert target.read_text() == "1\n"
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "0")
    assert float(line[RU_MAXRSS]) > 0


def test_a_jobs_exit_status_is_accounted(local: LiveDaemon, tmp_path: Path) -> None:
    """A job that exits 3 is accounted with exit status 3 and failed 0."""
    local.call("submit", binary("exit", "3", cwd=str(tmp_path)))
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "3")


def test_stdout_goes_to_name_o_jobid_with_grid_engines_environment(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """An array task's output is NAME.oJOBID.TASKID and shows Grid Engine's variables; its
    TMPDIR is a 0755 directory, removed after the task."""
    text = 'echo "$JOB_NAME $SGE_TASK_ID $SGE_TASK_FIRST $SGE_TASK_LAST $NSLOTS $ENVIRONMENT"\n'
    text += 'echo "tmp=$TMPDIR" ; test -d "$TMPDIR" && echo tmpdir-ok\necho oops >&2\n'
    text += 'stat -c %a "$TMPDIR"\n'  # 755, as Grid Engine's execd makes it
    spec = {"N": "hello", "cwd": str(tmp_path), "t_min": 1, "t_max": 2, "t_step": 1}
    assert local.call("submit", script(text, **spec)).ok
    wait_for(lambda: len(acct_of(local, 1)) == 2, what="both tasks accounted")
    out = (tmp_path / "hello.o1.2").read_text().splitlines()
    assert out[0] == "hello 2 1 2 1 BATCH"
    assert out[2:4] == ["tmpdir-ok", "755"]
    assert not Path(out[1].removeprefix("tmp=")).exists()  # removed after the task
    assert (tmp_path / "hello.e1.1").read_text() == "oops\n"


def test_a_non_array_job_sees_undefined_task_ids_and_joins_output(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """With -j y and -o DIR, stderr joins stdout in DIR/NAME.oJOBID; SGE_TASK_ID is undefined."""
    outdir = tmp_path / "logs"
    outdir.mkdir()
    text = 'echo "$SGE_TASK_ID $SGE_STDOUT_PATH"\necho err >&2\n'
    spec = {"N": "j", "cwd": str(tmp_path), "o": [str(outdir)], "j": True}
    assert local.call("submit", script(text, **spec)).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    lines = (outdir / "j.o1").read_text().splitlines()
    assert lines == [f"undefined {outdir / 'j.o1'}", "err"]


def test_qdel_kills_the_jobs_whole_process_group(local: LiveDaemon, tmp_path: Path) -> None:
    """qdel of a running 'sleep 100' kills it and its children; accounting says 137, failed 100."""
    pidfile = tmp_path / "pid"
    text = f"sleep 100 &\necho $! > {pidfile}\nwait\n"
    assert local.call("submit", script(text, cwd=str(tmp_path))).ok
    pid = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), what="pid"))
    assert alive(pid)
    local.validate_state()  # a running local task (no planned end) is spooled and checked
    assert local.call("delete", {"job_ids": ["1"]}).ok
    wait_for(lambda: not alive(pid), what="the job's child to die")
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("100", "137")


def test_h_rt_kills_a_running_job(local: LiveDaemon, tmp_path: Path) -> None:
    """A 'sleep 100' job under h_rt=1 is killed after a second: exit 137, failed 100."""
    pidfile = tmp_path / "pid"
    spec = {"cwd": str(tmp_path), "l_hard": {"h_rt": "0:0:1"}}
    assert local.call("submit", script(f"echo $$ > {pidfile}\nexec sleep 100\n", **spec)).ok
    pid = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), what="pid"))
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == ("100", "137")
    wait_for(lambda: not alive(pid), what="the job to die")
    assert not rows(local)


def test_a_job_runs_until_its_process_ends(local: LiveDaemon, tmp_path: Path) -> None:
    """A local job is not ended by the simulated runtime: 'sleep 2' still runs after 1 s."""
    local.call("submit", binary("sleep", "2", cwd=str(tmp_path)))
    wait_for(lambda: any(r["state"] == "r" for r in rows(local)), what="job 1 running")
    time.sleep(1.2)
    assert [r["state"] for r in rows(local)] == ["r"]
    assert acct_of(local, 1) == []
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert os.path.exists(tmp_path / "sleep.o1")


def test_a_rescheduled_job_runs_again_and_only_the_new_run_counts(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """qmod -rj kills the first run's processes; the job runs again (RESTARTED=1) and its
    second run's end, not the first's, is what is accounted."""
    log = tmp_path / "runs"
    text = f"echo $$ $RESTARTED >> {log}\nsleep 100\n"
    assert local.call("submit", script(text, cwd=str(tmp_path), r=True)).ok
    wait_for(lambda: log.exists() and log.read_text(), what="the first run")
    first = int(log.read_text().split()[0])
    assert local.call("qmod", {"action": "rj", "targets": ["1"]}).ok
    wait_for(lambda: len(log.read_text().splitlines()) == 2, what="the second run")
    wait_for(lambda: not alive(first), what="the first run to die")
    second, restarted = log.read_text().splitlines()[1].split()
    assert restarted == "1"
    assert alive(int(second))
    assert [r["state"] for r in rows(local)] == ["Rr"]
    local.validate_state()
    assert local.call("delete", {"job_ids": ["1"]}).ok
    wait_for(lambda: not alive(int(second)), what="the second run to die")


def state_of(pid: int) -> str:
    """The process's state letter in /proc (R, S, T for stopped...)."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]


def test_qmod_suspends_and_resumes_the_jobs_processes(local: LiveDaemon, tmp_path: Path) -> None:
    """qmod -sj stops the job's process (SIGSTOP), qmod -usj lets it run on (SIGCONT)."""
    pidfile = tmp_path / "pid"
    assert local.call(
        "submit", script(f"echo $$ > {pidfile}\nexec sleep 100\n", cwd=str(tmp_path))
    ).ok
    pid = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), what="pid"))
    assert local.call("qmod", {"action": "sj", "targets": ["1"]}).ok
    wait_for(lambda: state_of(pid) == "T", what="the job to be stopped")
    assert [r["state"] for r in rows(local)] == ["s"]
    local.validate_state()
    assert local.call("qmod", {"action": "usj", "targets": ["1"]}).ok
    wait_for(lambda: state_of(pid) != "T", what="the job to run on")
    local.validate_state()
    assert local.call("delete", {"job_ids": ["1"]}).ok
    wait_for(lambda: not alive(pid), what="the job to die")


def test_the_jobs_limits_are_its_processes_rlimits(local: LiveDaemon, tmp_path: Path) -> None:
    """-l h_vmem=1G,h_fsize=1M: the job's shell sees ulimit -v 1048576 and -f 2048 (blocks
    of 512 bytes), as Grid Engine's shepherd sets them before it starts the job."""
    spec = {"cwd": str(tmp_path), "N": "lim", "l_hard": {"h_vmem": "1G", "h_fsize": "1M"}}
    assert local.call("submit", binary("ulimit -v; ulimit -f", **spec)).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (tmp_path / "lim.o1").read_text().split() == ["1048576", "2048"]


def test_a_job_inherits_the_execds_environment_unless_inherit_env_is_false(
    local: LiveDaemon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """execd_params INHERIT_ENV (default true): a job starts with the execution daemon's
    environment under Grid Engine's variables, which win (JOB_ID); with INHERIT_ENV=false
    it gets Grid Engine's variables only (functional/job_environment's INHERIT_ENV check)."""
    monkeypatch.setenv("MINIGE_EXECD_ONLY", "from-the-execd")
    monkeypatch.setenv("JOB_ID", "not-this")
    text = 'echo "${MINIGE_EXECD_ONLY:-unset} $JOB_ID"\n'
    assert local.call("submit", script(text, N="a", cwd=str(tmp_path))).ok
    wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (tmp_path / "a.o1").read_text() == "from-the-execd 1\n"
    shown = local.call("conf_show", {"kind": "global", "name": None}).data["text"]
    text_conf = "\n".join(
        "execd_params INHERIT_ENV=false" if ln.split()[:1] == ["execd_params"] else ln
        for ln in str(shown).splitlines()
    )
    assert local.call("conf_modify", {"kind": "global", "text": text_conf + "\n"}).ok
    assert local.call("submit", script(text, N="b", cwd=str(tmp_path))).ok
    wait_for(lambda: acct_of(local, 2), what="accounting line of job 2")
    assert (tmp_path / "b.o2").read_text() == "unset 2\n"
