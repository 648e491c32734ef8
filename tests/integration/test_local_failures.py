"""Local jobs that cannot start, or end with an exit status Grid Engine gives a meaning:
accounted and put into error state (or run again) as Grid Engine's shepherd and execd do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.live import LiveDaemon, wait_for
from tests.integration.test_timers import EXIT_STATUS, FAILED, acct_of, rows

pytestmark = pytest.mark.timeout(60)


def binary(command: str, *args: str, **spec: Any) -> dict[str, Any]:
    return {"job": {"CMDNAME": command, "CMDARGS": list(args), "b": True, **spec}}


def error_reason(live: LiveDaemon, job_id: int) -> str:
    """The message of the job's task in error state (qstat -j's error reason)."""
    wait_for(lambda: [r["state"] for r in rows(live)] == ["Eqw"], what="Eqw")
    detail = live.call("job_detail", {"job_ids": [str(job_id)]}).data["jobs"][0]
    (reason,) = [t["message"] for t in detail["tasks"] if t["state"] == "Eqw"]
    return str(reason)


@pytest.mark.parametrize(
    ("spec", "failed", "reason"),
    [
        ({"o": ["/nonexistent/out"]}, "26", 'error: can\'t open output file "/nonexistent/out": '),
        ({"wd": "/nonexistent/wd"}, "28", "error: can't chdir to /nonexistent/wd: "),
        ({"S": ["/bin/nosuchsh"]}, "27", 'unable to find shell "/bin/nosuchsh"'),
        ({"i": ["/nonexistent/in"]}, "26", "error: can't open /nonexistent/in as dummy input"),
    ],
    ids=["output-file", "working-directory", "shell", "input-file"],
)
def test_a_job_its_shepherd_cannot_start_is_accounted_and_in_error_state(
    local: LiveDaemon, tmp_path: Path, spec: dict[str, Any], failed: str, reason: str
) -> None:
    """An output file that cannot be opened, a missing -wd, a missing -S shell, a missing
    -i file: the job is Eqw with the shepherd's message, and accounted with failed
    26/28/27/26, exit status 0."""
    spec.setdefault("cwd", str(tmp_path))
    assert local.call("submit", binary("echo", "hi", **spec)).ok
    assert error_reason(local, 1).startswith(reason)
    (line,) = wait_for(lambda: acct_of(local, 1), what="accounting line of job 1")
    assert (line[FAILED], line[EXIT_STATUS]) == (failed, "0")


def test_a_command_that_cannot_be_executed_without_a_shell(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """-b y -shell n of a file that is no program: execvp fails, failed 27; through the
    shell (-shell y) it is the shell's exit status 126, failed 0."""
    spec = {"cwd": str(tmp_path), "shell": False}
    assert local.call("submit", binary("/etc/passwd", **spec)).ok
    assert error_reason(local, 1) == 'execvp(/etc/passwd, "/etc/passwd") failed: Permission denied'
    assert acct_of(local, 1)[0][FAILED] == "27"
    assert local.call("delete", {"job_ids": ["1"]}).ok
    assert local.call("submit", binary("/etc/passwd", cwd=str(tmp_path))).ok
    (line,) = wait_for(lambda: acct_of(local, 2), what="accounting line of job 2")
    assert (line[FAILED], line[EXIT_STATUS]) == ("0", "126")


def test_exit_100_puts_the_job_into_error_state(local: LiveDaemon, tmp_path: Path) -> None:
    """A job that exits 100 is accounted with failed 30, exit status 100, and waits in Eqw."""
    assert local.call("submit", binary("exit", "100", cwd=str(tmp_path), N="e")).ok
    assert error_reason(local, 1) == "exit_status of job start = 100"
    (line,) = acct_of(local, 1)
    assert (line[FAILED], line[EXIT_STATUS]) == ("30", "100")


def test_exit_99_runs_the_job_again(local: LiveDaemon, tmp_path: Path) -> None:
    """A job that exits 99 is accounted with failed 25 and runs again, RESTARTED=1; its
    second run's own exit status ends it."""
    log = tmp_path / "runs"
    second = 'sleep 0.5; test -d "$TMPDIR" && test -d "$SGE_JOB_SPOOL_DIR" && exit 5; exit 6'
    command = f'echo $RESTARTED >> {log}; test "$RESTARTED" = 1 && {{ {second}; }}; exit 99'
    assert local.call("submit", binary(command, cwd=str(tmp_path), N="r")).ok
    lines = wait_for(lambda: len(acct_of(local, 1)) == 2 and acct_of(local, 1), what="2 runs")
    # the second run has its own TMPDIR and spool directory (the first's went aside)
    assert [(f[FAILED], f[EXIT_STATUS]) for f in lines] == [("25", "99"), ("0", "5")]
    assert log.read_text() == "0\n1\n"


def start_mode(live: LiveDaemon, mode: str) -> None:
    """all.q's shell_start_mode, as qconf -mattr queue shell_start_mode sets it."""
    args = {"kind": "cqueue", "mode": "change", "name": "all.q"}
    assert live.call("conf_attr", {**args, "pairs": [["shell_start_mode", mode]]}).ok


def test_a_script_keeps_its_arguments_in_every_shell_start_mode(
    local: LiveDaemon, tmp_path: Path
) -> None:
    """script_from_stdin: the shell reads the script with -s, its arguments stay arguments;
    unix_behavior: a script without a #! line runs with /bin/sh, as execvp(3) does."""
    text = 'echo "$1 $2"\n'
    for job_id, mode in ((1, "script_from_stdin"), (2, "unix_behavior")):
        start_mode(local, mode)
        job = {"CMDNAME": "s.sh", "CMDARGS": ["x", "y"], "script": text}
        assert local.call("submit", {"job": {**job, "cwd": str(tmp_path), "N": mode}}).ok
        (line,) = wait_for(lambda j=job_id: acct_of(local, j), what=f"job {job_id}")  # type: ignore[misc]
        assert (line[FAILED], line[EXIT_STATUS]) == ("0", "0")
        assert (tmp_path / f"{mode}.o{job_id}").read_text() == "x y\n"
