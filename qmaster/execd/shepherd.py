"""The shepherd: a small supervisor per task that outlives its qmaster (as Grid Engine's).

``python -I -S .../qmaster/execd/shepherd.py DIR`` reads ``DIR/config`` (the
command line, working directory, environment, input and output files and the
owner to run as, written by :mod:`qmaster.execd.executor`), starts the job in
its own process group and waits for it. Its end goes into ``DIR/status``
(written whole, then renamed): the exit status, whether a signal ended it and
the job's resource usage, or ``error`` when it could not be started. SIGTERM
tells the shepherd to SIGKILL the job's process group; SIGUSR1 to send it the
signals added to ``DIR/signals`` (SIGSTOP, SIGCONT, the warnings of ``-notify``
and ``s_rt``), those asked for before the job started once it has. A restarted qmaster
finds the tasks' directories and reads what ended while it was down.

Both files are :mod:`marshal` data, and the job is started with ``fork`` and
``exec``: every task pays this module's start, so it imports nothing but
built-in modules (a third of the start of one that imports json and subprocess).
"""

from __future__ import annotations

import marshal
import os
import sys

# typing, and signal's enums, would cost every task their import
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from typing import Any
else:
    import _signal as signal

CONFIG = "config"
STATUS = "status"
SHEPHERD_PID = "shepherd_pid"
JOB_PID = "job_pid"
SIGNALS = "signals"  # signal numbers for the job, one a line; SIGUSR1 says a line was added

_job: list[int] = []
_killed: list[bool] = []
_delivered: list[int] = []


def read(path: str) -> dict[str, Any]:
    """A marshal file's dict."""
    with open(path, "rb") as fh:
        data = marshal.load(fh)
    if not isinstance(data, dict):
        raise ValueError(path)
    return data


def write(path: str, data: dict[str, Any]) -> None:
    """Write a marshal file so that a reader sees all of it or nothing."""
    with open(path + ".new", "wb") as fh:
        marshal.dump(data, fh)
    os.rename(path + ".new", path)


def _killpg(pgid: int) -> None:
    """SIGKILL a process group that may be gone (contextlib costs every task its import)."""
    try:  # noqa: SIM105
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _kill_job(_signum: int = 0, _frame: object = None) -> None:
    _killed.append(True)
    if _job:
        _killpg(_job[0])


def _deliver(_signum: int = 0, _frame: object = None) -> None:
    """Send the job's process group the signals asked for since the last call (those
    asked for before it started once it has)."""
    if not _job:
        return
    try:
        with open(SIGNALS) as fh:
            numbers = [int(line) for line in fh.read().split()]
    except (OSError, ValueError):
        return
    for number in numbers[len(_delivered) :]:
        _delivered.append(number)
        try:  # noqa: SIM105
            os.killpg(_job[0], number)
        except ProcessLookupError:
            pass


def _open_files(config: dict[str, object]) -> list[int]:
    """The job's stdin, stdout and stderr, output files owned by the job's owner."""
    owner = config["owner"]
    assert isinstance(owner, dict)
    fds = [os.open(str(config["stdin"]), os.O_RDONLY)]
    append = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    for name in ("stdout", "stderr"):
        if name == "stderr" and config["stderr"] == config["stdout"]:
            fds.append(fds[1])
            continue
        fd = os.open(str(config[name]), append, 0o644)
        fds.append(fd)
        if owner.get("user") is not None:
            os.fchown(fd, owner["user"], owner["group"])
    return fds


def _exec_job(config: dict[str, object], fds: list[int]) -> None:
    """In the forked child, once let go: become the job (its owner, its directory and
    files) and exec it; never returns."""
    owner = config["owner"]
    assert isinstance(owner, dict)
    if owner.get("user") is not None:
        os.setgroups(owner["extra_groups"])
        os.setgid(owner["group"])
        os.setuid(owner["user"])
    os.chdir(str(config["cwd"]))
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    argv = config["argv"]
    env = config["env"]
    assert isinstance(argv, list)
    assert isinstance(env, dict)
    os.execvpe(argv[0], argv, env)


def _child(config: dict[str, object], fds: list[int], go: int, errors: int) -> None:
    """The forked child: its own process group and default signals, then it waits to be
    let go (stopped meanwhile if it was suspended before it started), then execs."""
    try:
        os.setpgid(0, 0)
        for signum in (signal.SIGTERM, signal.SIGUSR1, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        if os.read(go, 1) == b"g":
            _exec_job(config, fds)
    except OSError as exc:
        os.write(errors, (exc.strerror or str(exc)).encode())
    finally:
        os._exit(127)


def _spawn(config: dict[str, object]) -> int:
    """Fork the job, send it the signals asked for so far, let it exec; its pid. An
    OSError says why it could not start."""
    fds = _open_files(config)
    go_r, go_w = os.pipe()
    errors_r, errors_w = os.pipe()  # both close on exec: an empty read means it started
    pid = os.fork()
    if pid == 0:
        os.close(go_w)
        os.close(errors_r)
        _child(config, fds, go_r, errors_w)
    for fd in {*fds, go_r, errors_w}:
        os.close(fd)
    try:  # noqa: SIM105 (the child does it too: whichever comes first)
        os.setpgid(pid, pid)
    except OSError:
        pass
    _job.append(pid)
    with open(JOB_PID, "w") as fh:
        fh.write(f"{pid}\n")
    if _killed:
        _kill_job()
    _deliver()
    os.write(go_w, b"g")
    os.close(go_w)
    with os.fdopen(errors_r, "rb") as fh:
        failed = fh.read()
    if failed:
        os.waitpid(pid, 0)
        raise OSError(0, failed.decode(errors="replace"))
    return pid


def run(directory: str) -> None:
    """Run the task described in ``directory`` and record its end there."""
    os.chdir(directory)  # the qmaster renames the directory of a task it kills
    signal.signal(signal.SIGTERM, _kill_job)
    signal.signal(signal.SIGUSR1, _deliver)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with open(SHEPHERD_PID, "w") as fh:  # ready for SIGUSR1 once it is there
        fh.write(f"{os.getpid()}\n")
    config = read(CONFIG)
    try:
        pid = _spawn(config)
    except OSError as exc:
        write(STATUS, {"error": f"error: can't start job: {exc.strerror or exc}"})
        return
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    # the rest of its process group goes with the job
    _killpg(pid)
    write(
        STATUS,
        {
            "exit_status": 128 - code if code < 0 else code,
            "signalled": code < 0,
            "ru_utime": usage.ru_utime,
            "ru_stime": usage.ru_stime,
            "ru_maxrss": float(usage.ru_maxrss),
        },
    )


if __name__ == "__main__":
    run(sys.argv[1])
