"""A local execution host: the daemon's tasks run as real processes on this machine.

On :class:`~qmaster.core.effects.StartTask` the task gets a directory in the
cell's ``spool/execd/active_jobs`` with what Grid Engine's execd would run
(:mod:`qmaster.execd.jobenv`: command line, working directory, environment,
output files) and a shepherd (:mod:`qmaster.execd.shepherd`) in its own
session that starts it as the job's owner when the daemon runs as root
(otherwise only the daemon's own user's jobs run: another owner's task goes
into error state). The shepherd's exit is seen through a pidfd; what it
recorded is handed to the core as :class:`~qmaster.core.stimuli.TaskEnded`,
and the directory removed once that is written.
:class:`~qmaster.core.effects.KillTask` has the shepherd SIGKILL the job's
process group, :class:`~qmaster.core.effects.SignalTask` send it a signal.
Shepherds outlive the qmaster: a restarted one adopts them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qmaster import logs
from qmaster.cell import Cell
from qmaster.core import Core, Identity
from qmaster.core import effects as fx
from qmaster.core.activetasks import active_tasks
from qmaster.core.execmode import any_local_host, host_runs_locally, runs_locally
from qmaster.core.jobs import Job, Task
from qmaster.core.lifecycle import granted_pe
from qmaster.core.states import TaskState
from qmaster.core.stimuli import TaskEnded
from qmaster.digits import is_digits
from qmaster.execd import jobenv, shepherd

log = logs.get("execd")

Key = tuple[int, int]

# the shepherd needs only the standard library: started isolated and without site-packages
# (their .pth files), a Python process starts in a third of the time
SHEPHERD = ("-I", "-S", shepherd.__file__)
ENDED = "ended"  # JOBID.TASKID.ended.N: a task whose end is being handed to the core
# what a shepherd's status record may hold
ENDED_FIELDS = ("exit_status", "signalled", "ru_utime", "ru_stime", "ru_maxrss", "error", "failed")


@dataclass(slots=True)
class Running:
    """A task's shepherd: its pid and pidfd; ``child`` unless adopted after a restart."""

    pid: int
    pidfd: int
    child: bool


class LocalExecutor:
    """Runs the tasks started on local hosts (``execution = "local"``, or a host's
    ``load_values`` entry ``execution=local``), each under a shepherd."""

    def __init__(
        self,
        cell: Cell,
        core: Callable[[], Core],
        handle: Callable[[TaskEnded], Awaitable[object]],
        spawn: Callable[[Coroutine[Any, Any, None], str], None],
    ) -> None:
        self.cell = cell
        self._core = core
        self._handle = handle
        self._spawn = spawn
        self.running: dict[Key, Running] = {}
        self.me = Identity(os.getuid(), os.getgid(), _name(os.getuid()), "")
        self.spool = cell.path / "spool" / "execd"
        self.active = self.spool / "active_jobs"

    def perform(self, effect: fx.StartTask | fx.KillTask | fx.SignalTask) -> None:
        """Start, kill or signal a task."""
        if isinstance(effect, fx.KillTask):
            self.kill(effect.job_id, effect.task_id)
            return
        if isinstance(effect, fx.SignalTask):
            self.signal(effect.job_id, effect.task_id, effect.signal)
            return
        if not host_runs_locally(self._core(), effect.host):
            return  # the core plays a simulated host's part itself
        job = self._core().jobs.get(effect.job_id)
        task = job.tasks.get(effect.task_id) if job else None
        if job is None or task is None:
            return
        try:
            self.start(job, task, effect.queue, effect.host)
        except OSError as exc:
            log.warning("execd_start_failed", job_id=job.job_id, error=str(exc))
            why = f"error: can't start job: {exc.strerror or exc}"
            self._report(TaskEnded(self.me, job.job_id, task.task_id, 0, error=why))

    def start(self, job: Job, task: Task, queue: str, host: str) -> None:
        """Write the task's directory and start its shepherd."""
        owner = job.owner
        if os.getuid() != 0 and owner.uid != os.getuid():
            why = f'error: execd is not running as root: can\'t switch to user "{owner.user}"'
            self._report(TaskEnded(self.me, job.job_id, task.task_id, 0, error=why))
            return
        directory = self._directory((job.job_id, task.task_id))
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        workdir = jobenv.working_directory(job, self.cell, host)
        tmpdir = self._tmpdir(job, task, queue)
        script = self._script(job, directory)
        attrs = qi.attrs if (qi := self._core().queue_instance(queue)) else {}
        shell = attrs.get("shell", jobenv.DEFAULT_SHELL)
        mode = attrs.get("shell_start_mode", "posix_compliant")
        pe = granted_pe(self._core(), job, task) if job.spec.pe_name else ""
        ckpt = self._core().config.ckpts.get(job.spec.ckpt or "")
        ckpt_dir = ckpt.get("ckpt_dir") if ckpt else ""
        where = jobenv.Placement(
            queue, host, workdir, tmpdir, script, shell, mode, pe, directory, ckpt_dir
        )
        (directory / jobenv.PE_HOSTFILE).write_text(
            jobenv.pe_hostfile(task, self._processors(task))
        )
        out = jobenv.output_path(job, task, host, workdir, "o")
        err = out if job.spec.join else jobenv.output_path(job, task, host, workdir, "e")
        inherit = self._core().config.global_conf.inherit_env
        env = jobenv.environment(
            job, task, where, self.cell, out, err, os.environ if inherit else None
        )
        env["SGE_STDIN_PATH"] = stdin = self._stdin(job, task, host, workdir)
        if jobenv.script_on_stdin(job, where):
            stdin = str(script)
        path, args, shell = jobenv.exec_line(job, where)
        config = {
            "path": path,
            "argv": args,
            "shell": shell,
            "cwd": str(workdir),
            "env": env,
            "stdin": stdin,
            "stdout": str(out),
            "stderr": str(err),
            "owner": _as_owner(owner),
            "tmpdir": str(tmpdir),
            "limits": jobenv.rlimits(job, task, host, qi.limits if qi else {}),
        }
        shepherd.write(str(directory / shepherd.CONFIG), config)
        proc = subprocess.Popen(
            [sys.executable, *SHEPHERD, str(directory)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        proc.returncode = 0  # reaped by _ended with os.wait4, not by Popen
        self._watch((job.job_id, task.task_id), proc.pid, child=True)
        log.info("execd_started", job_id=job.job_id, task_id=task.task_id, shepherd=proc.pid)

    def adopt(self) -> None:
        """After a restart: watch the shepherds still running, report those that ended
        while the qmaster was down, and put tasks whose shepherd is lost into error state."""
        known: set[Key] = set()
        for directory in sorted(self.active.glob("*.*")) if self.active.is_dir() else []:
            job_id, task_id, *rest = directory.name.split(".")
            pid = _shepherd_pid(directory)
            if not (is_digits(job_id) and is_digits(task_id)) or rest[:1] not in ([], [ENDED]):
                if pid:  # killed before the restart
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGTERM)
                _remove(directory)
                continue
            key = self._key(int(job_id), int(task_id))
            known.add(key)
            if rest:  # ended, its end not yet handed over
                self._ended(key, directory)
                continue
            try:
                self._watch(key, pid, child=False)
            except (ProcessLookupError, ValueError):
                self._ended(key)
        if not any_local_host(self._core()):
            return
        for job, task in list(active_tasks(self._core())):
            key = (job.job_id, task.task_id)
            if task.state is not TaskState.RUNNING or key in known:
                continue
            if runs_locally(self._core(), task):
                why = "error: the task's shepherd was lost"
                self._report(TaskEnded(self.me, key[0], key[1], 0, error=why))

    def kill(self, job_id: int, task_id: int) -> None:
        """Tell the task's shepherd to SIGKILL the job's process group.

        The core has ended the task itself: the shepherd's end is not reported, and its
        directory is renamed at once so that a new run of the task has its own.
        """
        found = self.running.pop((job_id, task_id), None)
        if found is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(found.pid, signal.SIGTERM)
        gone = _set_aside(self._directory((job_id, task_id)), f"killed.{found.pid}")
        loop = asyncio.get_running_loop()
        loop.remove_reader(found.pidfd)
        loop.add_reader(found.pidfd, self._killed, found, gone)

    def signal(self, job_id: int, task_id: int, name: str) -> None:
        """Have the shepherd send the job's process group SIG``name`` (STOP, CONT, USR1,
        USR2), as Grid Engine's execd suspends, resumes and warns a job; a job its shepherd
        has not started yet gets it once started."""
        found = self.running.get((job_id, task_id))
        if found is None:
            return
        directory = self._directory((job_id, task_id))
        with contextlib.suppress(OSError):
            with (directory / shepherd.SIGNALS).open("a") as fh:
                fh.write(f"{signal.Signals[f'SIG{name}'].value}\n")
            # a shepherd still starting reads the line once its job has started
            if (directory / shepherd.SHEPHERD_PID).exists():
                os.kill(found.pid, signal.SIGUSR1)

    def _killed(self, found: Running, directory: Path) -> None:
        """A killed task's shepherd exited: its directory goes."""
        asyncio.get_running_loop().remove_reader(found.pidfd)
        os.close(found.pidfd)
        if found.child:
            os.waitpid(found.pid, 0)
        self._spawn(asyncio.to_thread(_remove, directory), "execd-remove")

    def _watch(self, key: Key, pid: int, *, child: bool) -> None:
        if pid <= 0:
            raise ValueError(pid)
        pidfd = os.pidfd_open(pid)
        self.running[key] = Running(pid, pidfd, child)
        asyncio.get_running_loop().add_reader(pidfd, self._ended, key)

    def _ended(self, key: Key, directory: Path | None = None) -> None:
        """The shepherd exited: hand the core what it recorded. Its directory is renamed
        ``JOBID.TASKID.ended.N`` first, so that a new run of the task (a job that exits 99
        runs again at once) has its own."""
        found = self.running.pop(key, None)
        if found is not None:
            asyncio.get_running_loop().remove_reader(found.pidfd)
            os.close(found.pidfd)
            if found.child:
                os.waitpid(found.pid, 0)
        if directory is None:
            directory = _set_aside(self._directory(key), f"{ENDED}.{found.pid if found else 0}")
        try:
            status = shepherd.read(str(directory / shepherd.STATUS))
        except (OSError, ValueError, EOFError):  # the shepherd itself was killed
            status = {"exit_status": 137, "signalled": True}
        fields = {name: status[name] for name in ENDED_FIELDS if name in status}
        fields.setdefault("exit_status", 0)  # a start failure's record has no status
        self._report(TaskEnded(self.me, key[0], key[1], **fields), directory)

    def _directory(self, key: Key) -> Path:
        """The task's directory in active_jobs: ``JOBID.TASKID`` as Grid Engine's execd
        names it (task 1 for a job without array tasks)."""
        return self.active / f"{key[0]}.{key[1] or 1}"

    def _key(self, job_id: int, number: int) -> Key:
        """The task a directory ``JOBID.NUMBER`` belongs to (task 0 of a job without
        array tasks is ``JOBID.1``)."""
        job = self._core().jobs.get(job_id)
        if job is not None and number == 1 and 1 not in job.tasks and 0 in job.tasks:
            return (job_id, 0)
        return (job_id, number)

    def _report(self, ended: TaskEnded, directory: Path | None = None) -> None:
        self._spawn(self._deliver(ended, directory), "execd-task-ended")

    async def _deliver(self, ended: TaskEnded, directory: Path | None) -> None:
        """Hand the core the task's end; its directory goes once that is written."""
        await self._handle(ended)
        if directory is not None:  # rmdir is slow on some file systems: off the event loop
            await asyncio.to_thread(_remove, directory)

    def _tmpdir(self, job: Job, task: Task, queue: str) -> Path:
        qi = self._core().queue_instance(queue)
        base = Path(qi.attrs.get("tmpdir", "/tmp") if qi else "/tmp")
        path = base / f"{job.job_id}.{task.task_id or 1}.{queue.partition('@')[0]}"
        path.mkdir(parents=True, exist_ok=True)
        path.chmod(0o755)  # as Grid Engine's sge_make_tmpdir, the job's owner's
        if os.getuid() == 0:
            os.chown(path, job.owner.uid, job.owner.gid)
        return path

    def _processors(self, task: Task) -> dict[str, str]:
        """The ``processors`` of each queue instance granted to the task."""
        found = {}
        for name, _ in task.assignment:
            qi = self._core().queue_instance(name)
            found[name] = qi.attrs.get("processors", "UNDEFINED") if qi else "UNDEFINED"
        return found

    @staticmethod
    def _script(job: Job, directory: Path) -> Path | None:
        if job.spec.binary or job.spec.script is None:
            return None
        path = directory / "job_script"
        path.write_text(job.spec.script)
        path.chmod(0o755)
        return path

    @staticmethod
    def _stdin(job: Job, task: Task, host: str, workdir: Path) -> str:
        """``-i`` as Grid Engine's execd finds it, else /dev/null."""
        text = jobenv.path_for_host(job.spec.stdin or (), host)
        if not text:
            return os.devnull
        return str(workdir / jobenv.expand(text, job, task, host))


def _name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _as_owner(owner: Identity) -> dict[str, Any]:
    """Popen's user switch to the job's owner (none when the daemon is no root)."""
    if os.getuid() != 0 or owner.uid == 0:
        return {}
    try:
        groups = os.getgrouplist(owner.user, owner.gid)
    except KeyError:
        groups = [owner.gid]
    return {"user": owner.uid, "group": owner.gid, "extra_groups": groups}


def _shepherd_pid(directory: Path) -> int:
    """The pid of the task's shepherd while it runs, else 0 (a pid reused since is none)."""
    try:
        pid = int((directory / shepherd.SHEPHERD_PID).read_text())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return 0
    return pid if SHEPHERD[-1].encode() in command or b"qmaster.execd.shepherd" in command else 0


def _set_aside(directory: Path, suffix: str) -> Path:
    """Rename a task's directory and its TMPDIR to ``NAME.suffix`` (a run that ended or is
    killed), so that a new run of the task has its own at once; the new directory."""
    with contextlib.suppress(OSError, ValueError, EOFError):
        tmpdir = str(shepherd.read(str(directory / shepherd.CONFIG))["tmpdir"])
        os.rename(tmpdir, f"{tmpdir}.{suffix}")
    with contextlib.suppress(OSError):
        return directory.rename(directory.with_name(f"{directory.name}.{suffix}"))
    return directory


def _remove(directory: Path) -> None:
    """Remove a task's directory and its TMPDIR (set aside with it, see :func:`_set_aside`)."""
    suffix = "".join(f".{part}" for part in directory.name.split(".")[2:])
    with contextlib.suppress(OSError, ValueError, EOFError):
        config = shepherd.read(str(directory / shepherd.CONFIG))
        shutil.rmtree(f"{config['tmpdir']}{suffix}", ignore_errors=True)
    shutil.rmtree(directory, ignore_errors=True)
