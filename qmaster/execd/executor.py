"""A local execution host: the daemon's tasks run as real processes on this machine.

On :class:`~qmaster.core.effects.StartTask` the task's script (or ``-b y``
command) is started in its own session, as the job's owner when the daemon
runs as root (otherwise only the daemon's own user's jobs run: another
owner's task goes into error state), in its working directory, with Grid
Engine's environment and output files (:mod:`qmaster.execd.jobenv`). Its end
is seen through a pidfd, reaped with ``os.wait4`` and handed to the core as
:class:`~qmaster.core.stimuli.TaskEnded` with the exit status and the
child's resource usage. :class:`~qmaster.core.effects.KillTask` SIGKILLs the
task's process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qmaster import logs
from qmaster.cell import Cell
from qmaster.core import Core, Identity
from qmaster.core import effects as fx
from qmaster.core.jobs import Job, Task
from qmaster.core.stimuli import TaskEnded
from qmaster.execd import jobenv

log = logs.get("execd")

Key = tuple[int, int]


@dataclass(slots=True)
class Running:
    """A task's process and what is removed when it ends."""

    proc: subprocess.Popen[bytes]
    pidfd: int
    tmpdir: Path
    script: Path | None


class LocalExecutor:
    """Runs the started tasks of a ``execution = "local"`` cell."""

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
        self.scripts = cell.path / "spool" / "execd" / "job_scripts"

    def perform(self, effect: fx.StartTask | fx.KillTask) -> None:
        """Start or kill a task."""
        if isinstance(effect, fx.KillTask):
            self.kill(effect.job_id, effect.task_id)
            return
        job = self._core().jobs.get(effect.job_id)
        task = job.tasks.get(effect.task_id) if job else None
        if job is None or task is None:
            return
        try:
            self.start(job, task, effect.queue, effect.host)
        except OSError as exc:
            log.warning(
                "execd_start_failed", job_id=job.job_id, task_id=task.task_id, error=str(exc)
            )
            self._report(
                job.job_id, task.task_id, error=f"error: can't start job: {exc.strerror or exc}"
            )

    def start(self, job: Job, task: Task, queue: str, host: str) -> None:
        """Spawn the task's process."""
        owner = job.owner
        if os.getuid() != 0 and owner.uid != os.getuid():
            why = f'error: execd is not running as root: can\'t switch to user "{owner.user}"'
            self._report(job.job_id, task.task_id, error=why)
            return
        workdir = jobenv.working_directory(job)
        tmpdir = self._tmpdir(job, task, queue)
        script = self._script(job, task.task_id)
        where = jobenv.Placement(queue, host, workdir, tmpdir, script)
        out = jobenv.output_path(job, task, host, workdir, "o")
        err = out if job.spec.join else jobenv.output_path(job, task, host, workdir, "e")
        env = jobenv.environment(job, task, where, self.cell, out, err)
        stdin = self._stdin(job, workdir)
        env["SGE_STDIN_PATH"] = stdin
        with contextlib.ExitStack() as files:
            fout = files.enter_context(self._open_output(out, owner))
            ferr = fout if err == out else files.enter_context(self._open_output(err, owner))
            fin = files.enter_context(open(stdin, "rb"))
            proc = subprocess.Popen(
                jobenv.argv(job, script),
                cwd=workdir,
                env=env,
                stdin=fin,
                stdout=fout,
                stderr=ferr,
                start_new_session=True,
                close_fds=True,
                **self._as_owner(owner),
            )
        pidfd = os.pidfd_open(proc.pid)
        key = (job.job_id, task.task_id)
        self.running[key] = Running(proc, pidfd, tmpdir, script)
        asyncio.get_running_loop().add_reader(pidfd, self._reap, key)
        log.info("execd_started", job_id=job.job_id, task_id=task.task_id, pid=proc.pid)

    def kill(self, job_id: int, task_id: int) -> None:
        """SIGKILL the task's process group (its session)."""
        found = self.running.get((job_id, task_id))
        if found is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(found.proc.pid, signal.SIGKILL)

    def _reap(self, key: Key) -> None:
        found = self.running.pop(key)
        asyncio.get_running_loop().remove_reader(found.pidfd)
        os.close(found.pidfd)
        _, status, usage = os.wait4(found.proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        found.proc.returncode = code
        # the rest of the session goes with the job, as Grid Engine's shepherd kills it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(found.proc.pid, signal.SIGKILL)
        shutil.rmtree(found.tmpdir, ignore_errors=True)
        if found.script is not None:
            found.script.unlink(missing_ok=True)
        ended = TaskEnded(
            self.me,
            key[0],
            key[1],
            exit_status=128 - code if code < 0 else code,
            signalled=code < 0,
            ru_utime=usage.ru_utime,
            ru_stime=usage.ru_stime,
            ru_maxrss=float(usage.ru_maxrss),
        )
        self._spawn(self._deliver(ended), "execd-task-ended")

    def _report(self, job_id: int, task_id: int, *, error: str) -> None:
        ended = TaskEnded(self.me, job_id, task_id, exit_status=0, error=error)
        self._spawn(self._deliver(ended), "execd-task-error")

    async def _deliver(self, ended: TaskEnded) -> None:
        await self._handle(ended)

    def _tmpdir(self, job: Job, task: Task, queue: str) -> Path:
        qi = self._core().queue_instance(queue)
        base = Path(qi.attrs.get("tmpdir", "/tmp") if qi else "/tmp")
        path = base / f"{job.job_id}.{task.task_id or 1}.{queue.partition('@')[0]}"
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.getuid() == 0:
            os.chown(path, job.owner.uid, job.owner.gid)
        return path

    def _script(self, job: Job, task_id: int) -> Path | None:
        if job.spec.binary or job.spec.script is None:
            return None
        self.scripts.mkdir(parents=True, exist_ok=True)
        path = self.scripts / f"{job.job_id}.{task_id}"
        path.write_text(job.spec.script)
        path.chmod(0o755)
        return path

    @staticmethod
    def _stdin(job: Job, workdir: Path) -> str:
        given = job.spec.stdin or ()
        if not given:
            return os.devnull
        text = given[0].partition(":")[2] if ":" in given[0] else given[0]
        return str(workdir / text)

    @staticmethod
    def _open_output(path: Path, owner: Identity) -> Any:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        if os.getuid() == 0:
            os.fchown(fd, owner.uid, owner.gid)
        return os.fdopen(fd, "ab")

    @staticmethod
    def _as_owner(owner: Identity) -> dict[str, Any]:
        if os.getuid() != 0 or owner.uid == 0:
            return {}
        try:
            groups = os.getgrouplist(owner.user, owner.gid)
        except KeyError:
            groups = [owner.gid]
        return {"user": owner.uid, "group": owner.gid, "extra_groups": groups}


def _name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)
