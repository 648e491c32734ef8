"""``qstat -j``: Grid Engine's key/value layout of one or more jobs.

Each job opens with a line of 62 ``=``; the lines follow ``cull_show_job``
(``show_job.c``) of 6.2u5 in its order, each printed only when Grid Engine
prints it (most only when the job has the value; ``notify``, ``jobshare`` and
``env_list`` always). Keys are padded to column 28, except the few that
``show_job.c`` pads otherwise. ``scheduling info:`` lines close each job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clients.qstat_render.detail_values import (
    binding_text,
    checkpoint_attr,
    mail_options,
    pairs,
    paths,
    seconds,
    usage_text,
    verify_level,
)
from clients.qstat_render.times import ctime, date_time_epoch
from clients.submit.values import RANGE_INFINITY

RULE = "=" * 62
KEY_WIDTH = 28
NOT_FOUND = "Following jobs do not exist: "

Detail = dict[str, Any]
Spec = dict[str, Any]


def line(key: str, value: object) -> str:
    """One ``key:`` line, the value starting in column 29."""
    return f"{key + ':':<{KEY_WIDTH}}{value}\n"


def _when(value: object) -> str:
    if isinstance(value, int | float):
        return ctime(float(value))
    epoch = date_time_epoch(str(value))
    return str(value) if epoch is None else ctime(epoch)


def pe_range(low: int, high: int) -> str:
    """A slot range as Grid Engine prints it: ``4``, ``2-8`` or ``2-``."""
    if high >= RANGE_INFINITY:
        return f"{low}-"
    return str(low) if low == high else f"{low}-{high}"


_ENV_KEYS = (
    ("sge_o_home", "SGE_O_HOME"),
    ("sge_o_log_name", "SGE_O_LOGNAME"),
    ("sge_o_path", "SGE_O_PATH"),
    ("sge_o_shell", "SGE_O_SHELL"),
    ("sge_o_tz", "SGE_O_TZ"),
    ("sge_o_workdir", "SGE_O_WORKDIR"),
    ("sge_o_host", "SGE_O_HOST"),
)

Field = tuple[str, str, Callable[[Any], str]]


def _fields(job: Spec, keys: Sequence[Field]) -> list[str]:
    lines: dict[str, str] = {}
    for key, name, render in keys:
        if job.get(name) and key not in lines:
            lines[key] = line(key, render(job[name]))
    return list(lines.values())


def _head(detail: Detail) -> list[str]:
    job: Spec = detail.get("job") or {}
    env = job.get("v") or {}
    lines = [line("job_number", detail["job_id"])]
    if detail.get("exec_file"):
        lines.append(line("exec_file", detail["exec_file"]))
    lines.append(line("submission_time", ctime(float(detail["submission_time"]))))
    if job.get("dl"):
        lines.append(line("deadline", _when(job["dl"])))
    lines += [
        line("owner", detail.get("owner", "")),
        line("uid", detail.get("uid", 0)),
        line("group", detail.get("group", "")),
        line("gid", detail.get("gid", 0)),
    ]
    lines += [line(key, env[name]) for key, name in _ENV_KEYS if env.get(name)]
    if job.get("a"):
        lines.append(line("execution_time", _when(job["a"])))
    if detail.get("account"):
        lines.append(line("account", detail["account"]))
    return lines


_BEFORE_NAME: tuple[Field, ...] = (
    ("checkpoint_object", "ckpt", str),
    ("checkpoint_attr", "c_occasion", checkpoint_attr),
    ("checkpoint_interval", "c_interval", lambda v: f"{seconds(v)} seconds"),
    ("cwd", "wd", str),
    ("cwd", "cwd", str),
    ("directive_prefix", "C", str),
    ("stderr_path_list", "e", lambda v: paths(v, staged=True)),
    ("reserve", "R", lambda _v: "y"),
    ("merge", "j", lambda _v: "y"),
    ("hard resource_list", "l_hard", pairs),
    ("soft resource_list", "l_soft", pairs),
    ("mail_options", "m", mail_options),
)


def _mail_and_name(detail: Detail, job: Spec) -> list[str]:
    lines = []
    if detail.get("mail_list"):
        lines.append(line("mail_list", ",".join(detail["mail_list"])))
    lines.append(line("notify", "TRUE" if job.get("notify") else "FALSE"))
    lines.append(line("job_name", job.get("N", "")))
    return lines


_AFTER_NAME: tuple[Field, ...] = (
    ("stdout_path_list", "o", lambda v: paths(v, staged=True)),
    ("stdin_path_list", "i", lambda v: paths(v, staged=True)),
    ("priority", "p", str),
)

_QUEUES: tuple[Field, ...] = (
    ("hard_queue_list", "q_hard", ",".join),
    ("soft_queue_list", "q_soft", ",".join),
)


def _restart_to_env(job: Spec) -> list[str]:
    lines = []
    if "r" in job and job["r"] is not None:
        lines.append(line("restart", "y" if job["r"] else "n"))
    if job.get("S"):
        lines.append(line("shell_list", paths(job["S"], staged=False)))
    env = {k: v for k, v in (job.get("v") or {}).items() if not k.startswith("SGE_O_")}
    lines.append(line("env_list", pairs(env)))
    if job.get("CMDARGS"):
        lines.append(line("job_args", ",".join(str(a) for a in job["CMDARGS"])))
    if job.get("masterq"):
        lines.append(line("master hard queue_list", ",".join(job["masterq"])))
    lines.append(line("script_file", job.get("CMDNAME", "")))
    return lines


def _dependencies(detail: Detail, job: Spec) -> list[str]:
    lines = []
    if job.get("pe_name"):
        low = int(job.get("pe_min") or 1)  # a spec spooled before ranges were completed
        span = pe_range(low, int(job.get("pe_max") or low))
        lines.append(f"parallel environment:  {job['pe_name']} range: {span}\n")
    if job.get("hold_jid"):
        refs = ",".join(str(r) for r in job["hold_jid"])
        lines.append(f"jid_predecessor_list (req):  {refs}\n")
    if detail.get("predecessors"):
        lines.append(line("jid_predecessor_list", ",".join(map(str, detail["predecessors"]))))
    if detail.get("successors"):
        ids = ",".join(map(str, detail["successors"]))
        lines.append(f"jid_successor_list:          {ids}\n")
    level = verify_level(job.get("w"))
    if level:
        lines.append(line("verify_suitable_queues", level))
    return lines


def _tail(job: Spec) -> list[str]:
    lines = []
    if job.get("ot"):
        lines.append(line("oticket", int(job["ot"])))
    if job.get("P"):
        lines.append(line("project", job["P"]))
    if job.get("ar"):
        lines.append(line("ar_id", job["ar"]))
    if job.get("t_min") is not None:
        tasks = f"{job['t_min']}-{job['t_max']}:{job.get('t_step', 1)}"
        lines.append(line("job-array tasks", tasks))
    if job.get("ac"):
        lines.append(line("context", pairs(job["ac"])))
    return lines


def _task_lines(detail: Detail, binding: bool) -> list[str]:
    tasks = detail.get("tasks") or []
    running = [t for t in tasks if t.get("usage") is not None]
    lines = [
        f"usage {int(t['task_number']):4d}:                 {usage_text(t['usage'])}\n"
        for t in running
    ]
    if binding:
        lines += [f"binding {int(t['task_number']):4d}:               NONE\n" for t in running]
    lines += [
        f"error reason {int(t['task_number']):4d}:          {t['message']}\n"
        for t in tasks
        if t.get("message") and t.get("state") == "Eqw"
    ]
    return lines


def _scheduling(detail: Detail) -> list[str]:
    messages = list(detail.get("scheduling_info") or [])
    if not messages:
        return []
    first = line("scheduling info", messages[0])
    return [first] + [" " * KEY_WIDTH + m + "\n" for m in messages[1:]]


def render_detail(detail: Detail, *, binding: bool = False) -> str:
    """One job's block, opening rule included; ``binding`` (``-cb``) adds the binding lines
    (a simulated host binds no cores, so each running task shows ``NONE``)."""
    job: Spec = detail.get("job") or {}
    parts = [RULE + "\n", *_head(detail), *_fields(job, _BEFORE_NAME)]
    parts += _mail_and_name(detail, job)
    parts += _fields(job, _AFTER_NAME)
    parts.append(line("jobshare", int(job.get("js") or 0)))
    parts += _fields(job, _QUEUES)
    parts += _restart_to_env(job)
    parts += _dependencies(detail, job)
    parts += _tail(job)
    if binding:
        parts.append(line("binding", binding_text(job)))
    parts += _task_lines(detail, binding)
    parts += _scheduling(detail)
    return "".join(parts)


def render_details(details: Sequence[Detail], *, binding: bool = False) -> str:
    """Every job's block in order."""
    return "".join(render_detail(d, binding=binding) for d in details)


def not_found(missing: Sequence[str]) -> str:
    """What qstat prints on stderr when none of the jobs asked for exists."""
    return f"{NOT_FOUND}\n{', '.join(missing)}\n"
