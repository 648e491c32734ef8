"""The shepherd: a small supervisor per task that outlives its qmaster (as Grid Engine's).

``python -m qmaster.execd.shepherd DIR`` reads ``DIR/config.json`` (the
command line, working directory, environment, input and output files and the
owner to run as, written by :mod:`qmaster.execd.executor`), starts the job in
its own process group and waits for it. Its end goes into ``DIR/status.json``
(written whole, then renamed): the exit status, whether a signal ended it and
the job's resource usage, or ``error`` when it could not be started. SIGTERM
tells the shepherd to SIGKILL the job's process group. A restarted qmaster
finds the tasks' directories and reads what ended while it was down.

Standard library only: every task pays this module's imports.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

CONFIG = "config.json"
STATUS = "status.json"
SHEPHERD_PID = "shepherd_pid"
JOB_PID = "job_pid"

_job: list[int] = []
_killed: list[bool] = []


def write_status(directory: Path, status: dict[str, Any]) -> None:
    """Write ``status.json`` so that a reader sees all of it or nothing."""
    partial = directory / (STATUS + ".new")
    partial.write_text(json.dumps(status))
    partial.rename(directory / STATUS)


def _kill_job(_signum: int = 0, _frame: Any = None) -> None:
    _killed.append(True)
    if _job:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(_job[0], signal.SIGKILL)


def _open(path: str, mode: int, owner: dict[str, Any]) -> int:
    fd = os.open(path, mode, 0o644)
    if owner.get("user") is not None:
        os.fchown(fd, owner["user"], owner["group"])
    return fd


def _spawn(config: dict[str, Any]) -> subprocess.Popen[bytes]:
    owner = config["owner"]
    append = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    fds = [os.open(config["stdin"], os.O_RDONLY), _open(config["stdout"], append, owner)]
    fds.append(
        fds[1] if config["stderr"] == config["stdout"] else _open(config["stderr"], append, owner)
    )
    try:
        return subprocess.Popen(
            config["argv"],
            cwd=config["cwd"],
            env=config["env"],
            stdin=fds[0],
            stdout=fds[1],
            stderr=fds[2],
            process_group=0,
            close_fds=True,
            **{k: v for k, v in owner.items() if v is not None},
        )
    finally:
        for fd in set(fds):
            os.close(fd)


def run(directory: Path) -> None:
    """Run the task described in ``directory`` and record its end there."""
    os.chdir(directory)  # the qmaster renames the directory of a task it kills
    directory = Path()
    (directory / SHEPHERD_PID).write_text(f"{os.getpid()}\n")
    signal.signal(signal.SIGTERM, _kill_job)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    config = json.loads((directory / CONFIG).read_text())
    try:
        proc = _spawn(config)
    except OSError as exc:
        write_status(directory, {"error": f"error: can't start job: {exc.strerror or exc}"})
        return
    _job.append(proc.pid)
    (directory / JOB_PID).write_text(f"{proc.pid}\n")
    if _killed:
        _kill_job()
    while True:
        try:
            _, status, usage = os.wait4(proc.pid, 0)
            break
        except InterruptedError:
            continue
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    # the rest of its process group goes with the job
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    write_status(
        directory,
        {
            "exit_status": 128 - code if code < 0 else code,
            "signalled": code < 0,
            "ru_utime": usage.ru_utime,
            "ru_stime": usage.ru_stime,
            "ru_maxrss": float(usage.ru_maxrss),
        },
    )


if __name__ == "__main__":
    run(Path(sys.argv[1]))
