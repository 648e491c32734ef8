"""How Grid Engine's execd lays out a task it starts: environment, output paths, argv.

Pure functions of the job, its task and where it runs (no I/O but reading the
owner's password entry), so that :mod:`qmaster.execd.executor` only spawns.
"""

from __future__ import annotations

import contextlib
import math
import pwd
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from qmaster.cell import Cell
from qmaster.complexes.values import ValueParseError, parse_memory, parse_time
from qmaster.core.jobs import Job, Task
from qmaster.core.jobspec import as_map
from qmaster.execd.pathalias import COMMON_FILE, HOME_FILE, aliased, aliases_for

UNDEFINED = "undefined"
PE_HOSTFILE = "pe_hostfile"
# exec_job.c: the job's PATH unless -v/-V give one, its TMPDIR first (the trailing ':'
# is Grid Engine's: the working directory last)
DEFAULT_PATH = "/usr/local/bin:/usr/ucb:/bin:/usr/bin:"
DEFAULT_ACCOUNT = "sge"
DEFAULT_SHELL = "/bin/sh"
ARCH = "lx-amd64"  # what the cell's util/arch and its hosts' arch load value say
# Grid Engine's $SGE_ROOT/bin/$ARCH: where this installation's commands are
BINARY_PATH = sysconfig.get_path("scripts")


# queue_conf(5)'s s_/h_ limits and the rlimit each pair sets (setrlimits.c), whether it is
# multiplied by the task's slots on the host, and the floor below which Grid Engine's
# shepherd does not go
RLIMITS = (
    ("cpu", "RLIMIT_CPU", True, 2),
    ("fsize", "RLIMIT_FSIZE", False, 15 * 1024),
    ("data", "RLIMIT_DATA", True, 10 * 1024 * 1024),
    ("stack", "RLIMIT_STACK", True, 1024 * 1024),
    ("core", "RLIMIT_CORE", False, 0),
    ("vmem", "RLIMIT_AS", True, 10 * 1024 * 1024),
    ("rss", "RLIMIT_RSS", False, 10 * 1024 * 1024),
)
UNLIMITED = -1  # RLIM_INFINITY


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a task runs: its master queue instance, its host, its directories."""

    queue: str
    host: str
    workdir: Path
    tmpdir: Path
    script: Path | None
    shell: str = DEFAULT_SHELL  # the queue's shell
    start_mode: str = "posix_compliant"  # the queue's shell_start_mode
    pe: str = ""  # the parallel environment granted (-pe may be a pattern)
    spool: Path | None = None  # the task's directory in the execd spool (SGE_JOB_SPOOL_DIR)
    ckpt_dir: str = ""  # the ckpt_dir of the job's -ckpt environment


def home_of(user: str) -> str:
    """The user's home directory, ``/`` when the user has no password entry."""
    try:
        return pwd.getpwnam(user).pw_dir
    except KeyError:
        return "/"


def working_directory(job: Job, cell: Cell | None = None, host: str = "") -> Path:
    """``-wd``/``-cwd`` as ``host`` sees it through the cell's and the owner's path
    aliases (sge_aliases(5)), else the owner's home directory."""
    chosen = job.spec.wd or job.spec.cwd
    if not chosen:
        return Path(home_of(job.owner.user))
    if cell is None:
        return Path(chosen)
    files = (cell.common / COMMON_FILE, Path(home_of(job.owner.user)) / HOME_FILE)
    submitted = as_map(job.spec.env).get("SGE_O_HOST") or job.owner.host
    try:
        return Path(aliased(aliases_for(files, submitted), chosen, host))
    except (OSError, ValueError):  # Grid Engine's qsub refuses to submit then
        return Path(chosen)


def is_array(job: Job) -> bool:
    """The job was submitted with ``-t``."""
    return job.spec.task_first is not None


def _task_suffix(job: Job, task: Task) -> str:
    return f".{task.task_id}" if is_array(job) else ""


def _home(user: str) -> str | None:
    try:
        return pwd.getpwnam(user).pw_dir
    except KeyError:
        return None


def expand(path: str, job: Job, task: Task, host: str) -> str:
    """qsub(1)'s pseudo environment variables in a ``-o``/``-e``/``-i`` path as Grid
    Engine's execd expands them (get_path.c): a leading ``~/`` or ``~user/`` and ``$HOME``
    are home directories, ``$USER``, ``$JOB_ID``, ``$JOB_NAME``, ``$HOSTNAME``, and
    ``$TASK_ID`` for array tasks (a non-array job's path keeps ``$TASK_ID`` as written)."""
    user = job.owner.user
    if path.startswith("~"):
        name, slash, rest = path[1:].partition("/")
        home = _home(name) if name else home_of(user)
        if home is not None and (slash or not name):
            path = home.rstrip("/") + "/" + rest if slash else home
    names = [
        ("$HOME", home_of(user)),
        ("$JOB_ID", str(job.job_id)),
        ("$JOB_NAME", job.name),
        ("$USER", user),
        ("$HOSTNAME", host),
    ]
    if is_array(job):
        names.append(("$TASK_ID", str(task.task_id)))
    out: list[str] = []
    i = 0
    while i < len(path):
        for name, value in names:
            if path.startswith(name, i):
                out.append(value)
                i += len(name)
                break
        else:
            out.append(path[i])
            i += 1
    return "".join(out)


def path_for_host(given: tuple[str, ...] | list[str], host: str) -> str | None:
    """The path of a ``[hostname:]path`` list for ``host``: its own, else the first
    without a host name (Grid Engine's sge_get_path); None when none applies."""
    default = None
    for text in given:
        name, colon, rest = text.partition(":")
        if not colon:
            default = text if default is None else default
        elif name == host:
            return rest
    if default is None and given:  # as Grid Engine's loop ends: the last host's
        return given[-1].partition(":")[2]
    return default


def output_path(job: Job, task: Task, host: str, workdir: Path, kind: str) -> Path:
    """The task's ``o``/``e`` file: ``-o``/``-e`` (a file or a directory), else
    ``NAME.<kind>JOBID[.TASKID]`` in the working directory."""
    given = job.spec.stdout if kind == "o" else job.spec.stderr
    default = f"{job.name}.{kind}{job.job_id}{_task_suffix(job, task)}"
    text = path_for_host(given, host) if given else None
    if not text:
        return workdir / default
    path = workdir / expand(text, job, task, host)
    return path / default if path.is_dir() else path


def shell_of(job: Job, queue_shell: str = DEFAULT_SHELL, host: str = "") -> str:
    """``-S`` (its ``[hostname:]path`` for ``host``), else the queue's shell."""
    return path_for_host(job.spec.shells or (), host) or queue_shell


def script_on_stdin(job: Job, where: Placement) -> bool:
    """``shell_start_mode script_from_stdin``: the shell reads the script on its input."""
    return where.script is not None and where.start_mode == "script_from_stdin"


def argv(job: Job, where: Placement) -> list[str]:
    """The command line as the queue's ``shell_start_mode`` has it: a ``-b y`` command
    through the shell (unless ``-shell no``); a script run by ``-S`` or the queue's shell
    (``posix_compliant``), by its own ``#!`` line (``unix_behavior``), or read by that
    shell on its input (``script_from_stdin``)."""
    args = list(job.spec.args or ())
    shell = shell_of(job, where.shell, where.host)
    if where.script is None:
        command = job.spec.command or ""
        if job.spec.shell is False:
            return [command, *args]
        return [shell, "-c", " ".join([command, *args])]
    if where.start_mode == "unix_behavior":
        return [str(where.script), *args]
    if script_on_stdin(job, where):  # -s: the shell reads its input and keeps the args
        return [shell, "-s", *args]
    return [shell, str(where.script), *args]


def exec_line(job: Job, where: Placement) -> tuple[str, list[str], str]:
    """What the shepherd execs: the file, its argv (a shell's ``argv[0]`` its base name,
    as Grid Engine's shepherd starts it) and the shell that must exist ("" when the
    job is exec'd itself)."""
    args = argv(job, where)
    path = args[0]
    if where.script is not None and where.start_mode == "unix_behavior":
        return path, args, ""
    if where.script is None and job.spec.shell is False:
        return path, args, ""
    return path, [path.rpartition("/")[2], *args[1:]], path


def environment(
    job: Job,
    task: Task,
    where: Placement,
    cell: Cell,
    out: Path,
    err: Path,
    inherited: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The task's environment in Grid Engine's order (exec_job.c): the execution daemon's
    own (``inherited``, with execd_params INHERIT_ENV), its PATH, then the job's
    ``-v``/``-V`` and ``SGE_O_*`` variables, then Grid Engine's own, which win."""
    owner = job.owner.user
    env = dict(inherited or {})
    env["PATH"] = f"{where.tmpdir}:{DEFAULT_PATH}"
    env.update(as_map(job.spec.env))
    chosen = job.spec.wd or job.spec.cwd
    if chosen:
        env["PWD"] = str(where.workdir)
    array = is_array(job)
    env.update(
        {
            "REQNAME": job.name,
            "SGE_CELL": cell.name,
            "HOME": home_of(owner),
            "USER": owner,
            "LOGNAME": owner,
            "JOB_NAME": job.name,
            "JOB_SCRIPT": str(where.script or job.spec.command or ""),
            "SGE_BINARY_PATH": BINARY_PATH,
            "REQUEST": job.name,
            "HOSTNAME": where.host,
            "QUEUE": where.queue.partition("@")[0],
            "JOB_ID": str(job.job_id),
            "SGE_TASK_ID": str(task.task_id) if array else UNDEFINED,
            "SGE_TASK_FIRST": str(job.spec.task_first) if array else UNDEFINED,
            "SGE_TASK_LAST": str(job.spec.task_last) if array else UNDEFINED,
            "SGE_TASK_STEPSIZE": str(job.spec.task_step or 1) if array else UNDEFINED,
            "ENVIRONMENT": "BATCH",
            "ARC": ARCH,
            "SGE_ARCH": ARCH,
            "SGE_ROOT": str(cell.root),
            "NQUEUES": str(len(task.assignment) or 1),
            "NSLOTS": str(task.slots or job.slots),
            "NHOSTS": str(len({host_of(qi) for qi, _ in task.assignment}) or 1),
            "RESTARTED": "1" if task.restarted else "0",
            "TMPDIR": str(where.tmpdir),
            "TMP": str(where.tmpdir),
            "SGE_ACCOUNT": job.spec.account or DEFAULT_ACCOUNT,
            "SHELL": shell_of(job, where.shell, where.host),
            # the shepherd's own (builtin_starter.c)
            "SGE_STDIN_PATH": "/dev/null",
            "SGE_STDOUT_PATH": str(out),
            "SGE_STDERR_PATH": str(err),
            "SGE_CWD_PATH": str(where.workdir),
        }
    )
    if job.spec.ckpt:
        env["SGE_CKPT_ENV"] = job.spec.ckpt
        if where.ckpt_dir:
            env["SGE_CKPT_DIR"] = where.ckpt_dir
    if where.spool is not None:
        if where.pe:
            env["PE"] = where.pe
            env["PE_HOSTFILE"] = str(where.spool / PE_HOSTFILE)
        env["SGE_JOB_SPOOL_DIR"] = str(where.spool)
    return env


def _limit(job: Job, name: str, queue: float | None) -> float:
    """A limit: the queue's, or the job's request (``-l h_vmem=1G``) when lower."""
    value = math.inf if queue is None else queue
    asked = job.spec.resource(name)
    if asked is not None:
        with contextlib.suppress(ValueParseError):
            value = min(value, parse_time(asked) if name.endswith("cpu") else parse_memory(asked))
    return value


def rlimits(
    job: Job, task: Task, host: str, queue_limits: Mapping[str, float | None]
) -> dict[str, list[int]]:
    """The job's resource limits as Grid Engine's shepherd sets them: each ``s_``/``h_``
    pair of its queue's limits (or its lower request) as an rlimit's soft and hard value,
    per process: CPU, memory and stack limits times the task's slots on the host."""
    slots = sum(n for qi, n in task.assignment if host_of(qi) == host) or 1
    found: dict[str, list[int]] = {}
    for name, rlimit, scaled, floor in RLIMITS:
        soft, hard = (
            max(_limit(job, f"{kind}_{name}", queue_limits.get(f"{kind}_{name}")), floor)
            for kind in "sh"
        )
        if name == "vmem":
            soft = min(soft, hard)
        if scaled:
            soft, hard = soft * slots, hard * slots
        found[rlimit] = [UNLIMITED if math.isinf(v) else int(v) for v in (soft, hard)]
    return found


def host_of(queue_instance: str) -> str:
    """``all.q@host1`` -> ``host1``."""
    return queue_instance.partition("@")[2]


def pe_hostfile(task: Task, processors: Mapping[str, str]) -> str:
    """The task's ``pe_hostfile`` as Grid Engine's execd writes it for every job: one line
    per queue instance granted, ``host slots queue processors`` (``UNDEFINED`` unless the
    queue's ``processors`` says otherwise)."""
    return "".join(
        f"{host_of(qi)} {slots} {qi} {processors.get(qi, 'UNDEFINED')}\n"
        for qi, slots in task.assignment
    )
