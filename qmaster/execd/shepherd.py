"""The shepherd: a small supervisor per task that outlives its qmaster (as Grid Engine's).

``python -I -S .../qmaster/execd/shepherd.py DIR`` reads ``DIR/config`` (the
command line, working directory, environment, input and output files and the
owner to run as, written by :mod:`qmaster.execd.executor`), starts the job in
its own process group and waits for it. Its end goes into ``DIR/status``
(written whole, then renamed): the exit status, whether a signal ended it and
the job's resource usage, or ``error`` when it could not be started (with
Grid Engine's ``failed`` code when the job's working directory, files or
shell were at fault: its son switches to the owner, enters the directory, opens
the files and checks the shell in Grid Engine's order). SIGTERM
tells the shepherd to SIGKILL the job's process group; SIGUSR1 to send it the
signals added to ``DIR/signals`` (SIGSTOP, SIGCONT, the warnings of ``-notify``
and ``s_rt``), those asked for before the job started once it has. A restarted qmaster
finds the tasks' directories and reads what ended while it was down.

Both files are :mod:`marshal` data, and the job is started with ``fork`` and
``exec``: every task pays this module's start, so it imports nothing but
built-in modules (a third of the start of one that imports json and subprocess).
"""

from __future__ import annotations

import errno
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


# accounting(5) failed codes of a job its shepherd could not start (Grid Engine's
# execution_states.h): the job goes into error state, the attempt is accounted
OPEN_OUTPUT = 26  # SSTATE_OPEN_OUTPUT, "opening input/output file"
NO_SHELL = 27  # SSTATE_NO_SHELL, "searching requested shell"
NO_CWD = 28  # SSTATE_NO_CWD, "changing into working directory"


class StartFailed(Exception):
    """The job could not be started: Grid Engine's failed code and the shepherd's message."""

    def __init__(self, failed: int, message: str) -> None:
        super().__init__(message)
        self.failed = failed
        self.message = message


def _open(path: str, flags: int) -> int:
    """An output file (or the input file when ``flags`` says so), or failed 26 with the
    shepherd's words."""
    try:
        return os.open(path, flags, 0o644)
    except OSError as exc:
        if flags == os.O_RDONLY:
            why = f"error: can't open {path} as dummy input file"
        else:
            why = f'error: can\'t open output file "{path}": {exc.strerror}'
        raise StartFailed(OPEN_OUTPUT, why) from None


def _set_limits(limits: dict[str, list[int]]) -> None:
    """The job's resource limits (``RLIMIT_CPU``: [soft, hard], -1 for unlimited), set
    while still root as Grid Engine's shepherd does; a hard limit above the current one
    stays the current one when it may not be raised."""
    import resource  # not built in: only a task that runs pays for its import

    infinity = resource.RLIM_INFINITY
    for name, (soft_asked, hard_asked) in limits.items():
        number = getattr(resource, name, None)
        if number is None:
            continue
        hard, soft = hard_asked, soft_asked
        _, current = resource.getrlimit(number)
        if os.geteuid() != 0 and current != infinity and (hard == infinity or hard > current):
            hard = current
        if hard != infinity and (soft == infinity or soft > hard):
            soft = hard
        try:  # noqa: SIM105
            resource.setrlimit(number, (soft, hard))
        except (OSError, ValueError):
            pass


def _become_job(config: dict[str, object]) -> list[int]:
    """As Grid Engine's shepherd prepares its son: switch to the job's owner, enter the
    working directory, open the job's stdin, stdout and stderr (as the owner), make sure
    the shell exists; the fds for 0, 1 and 2. :class:`StartFailed` says why it cannot."""
    owner = config["owner"]
    assert isinstance(owner, dict)
    os.umask(0o022)
    limits = config.get("limits")
    if isinstance(limits, dict):
        _set_limits(limits)
    if owner.get("user") is not None:
        os.setgroups(owner["extra_groups"])
        os.setgid(owner["group"])
        os.setuid(owner["user"])
    cwd = str(config["cwd"])
    try:
        os.chdir(cwd)
    except OSError as exc:
        raise StartFailed(NO_CWD, f"error: can't chdir to {cwd}: {exc.strerror}") from None
    stdin = str(config["stdin"])
    fds = [_open(stdin, os.O_RDONLY)]
    append = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    fds.append(_open(str(config["stdout"]), append))
    fds.append(
        fds[1] if config["stderr"] == config["stdout"] else _open(str(config["stderr"]), append)
    )
    shell = str(config.get("shell") or "")
    if shell and not os.path.exists(shell):
        raise StartFailed(NO_SHELL, f'unable to find shell "{shell}"')
    return fds


def _exec_job(config: dict[str, object]) -> None:
    """In the forked child, once let go: become the job and exec it; raises
    :class:`StartFailed` when it cannot (an exec that fails: Grid Engine's NO_SHELL)."""
    fds = _become_job(config)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    argv = config["argv"]
    env = config["env"]
    assert isinstance(argv, list)
    assert isinstance(env, dict)
    path = str(config.get("path") or argv[0])
    try:
        try:
            os.execvpe(path, argv, env)
        except OSError as exc:  # execvp(3) runs a file without a #! line with /bin/sh
            if exc.errno != errno.ENOEXEC:
                raise
            os.execve("/bin/sh", ["sh", path, *argv[1:]], env)
    except OSError as exc:
        shown = " ".join(f'"{arg}"' for arg in argv)
        raise StartFailed(NO_SHELL, f"execvp({path}, {shown}) failed: {exc.strerror}") from None


def _child(config: dict[str, object], go: int, errors: int) -> None:
    """The forked child: its own process group and default signals, then it waits to be
    let go (stopped meanwhile if it was suspended before it started), then execs; why it
    could not goes to ``errors`` as ``failed:message``."""
    try:
        os.setpgid(0, 0)
        for signum in (signal.SIGTERM, signal.SIGUSR1, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        if os.read(go, 1) == b"g":
            _exec_job(config)
    except StartFailed as exc:
        os.write(errors, f"{exc.failed}:{exc.message}".encode())
    except OSError as exc:
        os.write(errors, f"0:error: can't start job: {exc.strerror or exc}".encode())
    finally:
        os._exit(127)


def _spawn(config: dict[str, object]) -> int:
    """Fork the job, send it the signals asked for so far, let it exec; its pid.
    :class:`StartFailed` says why it could not start."""
    go_r, go_w = os.pipe()
    errors_r, errors_w = os.pipe()  # both close on exec: an empty read means it started
    pid = os.fork()
    if pid == 0:
        os.close(go_w)
        os.close(errors_r)
        _child(config, go_r, errors_w)
    os.close(go_r)
    os.close(errors_w)
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
        code, _, message = failed.decode(errors="replace").partition(":")
        raise StartFailed(int(code) if code.isascii() and code.isdigit() else 0, message)
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
    except StartFailed as exc:
        write(STATUS, {"exit_status": 0, "error": exc.message, "failed": exc.failed})
        return
    except OSError as exc:
        why = f"error: can't start job: {exc.strerror or exc}"
        write(STATUS, {"exit_status": 0, "error": why})
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
