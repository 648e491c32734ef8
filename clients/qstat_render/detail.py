"""``qstat -j``: Grid Engine's key/value layout of one or more jobs.

Each job opens with a line of 62 ``=``; keys are padded to column 28 as
``show_job.c`` prints them; a key appears only when the job has the value.
``scheduling info:`` lines close each job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clients.qstat_render.times import ctime, date_time_epoch
from clients.submit.values import RANGE_INFINITY

RULE = "=" * 62
KEY_WIDTH = 28
NOT_FOUND = "Following jobs do not exist: "

Detail = dict[str, Any]


def line(key: str, value: object) -> str:
    """One ``key:`` line, the value starting in column 29."""
    return f"{key + ':':<{KEY_WIDTH}}{value}\n"


def _paths(items: Sequence[str]) -> str:
    return ",".join(item if ":" in item else f"NONE:{item}" for item in items)


def _pairs(mapping: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in mapping.items())


def _yes_no(value: Any) -> str:
    return "y" if value else "n"


def _when(value: str) -> str:
    epoch = date_time_epoch(value)
    return value if epoch is None else ctime(epoch)


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
    ("sge_o_workdir", "SGE_O_WORKDIR"),
    ("sge_o_host", "SGE_O_HOST"),
)

_SPEC_KEYS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("account", "A", str),
    ("cwd", "cwd", str),
    ("stderr_path_list", "e", _paths),
    ("merge", "j", _yes_no),
    ("hard resource_list", "l_hard", _pairs),
    ("soft resource_list", "l_soft", _pairs),
    ("mail_options", "m", str),
    ("mail_list", "M", ",".join),
)

_SPEC_KEYS_AFTER_NAME: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("stdout_path_list", "o", _paths),
    ("priority", "p", str),
    ("hard_queue_list", "q_hard", ",".join),
    ("soft_queue_list", "q_soft", ",".join),
    ("restart", "r", _yes_no),
    ("shell_list", "S", _paths),
)


def _head(detail: Detail) -> list[str]:
    job = detail.get("job") or {}
    env = job.get("v") or {}
    lines = [
        line("job_number", detail["job_id"]),
        line("submission_time", ctime(float(detail["submission_time"]))),
        line("owner", detail.get("owner", "")),
        line("uid", detail.get("uid", 0)),
        line("group", detail.get("group", "")),
        line("gid", detail.get("gid", 0)),
    ]
    lines += [line(key, env[name]) for key, name in _ENV_KEYS if env.get(name)]
    if job.get("a"):
        lines.append(line("execution_time", _when(job["a"])))
    return lines


def _spec_lines(job: dict[str, Any], keys: Sequence[tuple[str, str, Any]]) -> list[str]:
    return [line(key, render(job[name])) for key, name, render in keys if job.get(name)]


def _tail(job: dict[str, Any]) -> list[str]:
    env = {k: v for k, v in (job.get("v") or {}).items() if not k.startswith("SGE_O_")}
    lines = [line("env_list", _pairs(env))] if env else []
    if job.get("CMDARGS"):
        lines.append(line("job_args", ",".join(job["CMDARGS"])))
    if job.get("masterq"):
        lines.append(line("master hard queue list", ",".join(job["masterq"])))
    lines.append(line("script_file", job.get("CMDNAME", "")))
    if job.get("pe_name"):
        span = pe_range(int(job["pe_min"]), int(job["pe_max"]))
        lines.append(f"parallel environment:  {job['pe_name']} range: {span}\n")
    if job.get("hold_jid"):
        lines.append(line("jid_predecessor_list (req)", ",".join(job["hold_jid"])))
    if job.get("P"):
        lines.append(line("project", job["P"]))
    if job.get("t_min") is not None:
        tasks = f"{job['t_min']}-{job['t_max']}:{job.get('t_step', 1)}"
        lines.append(line("job-array tasks", tasks))
    if job.get("ac"):
        lines.append(line("context", _pairs(job["ac"])))
    if job.get("ar"):
        lines.append(line("ar_id", job["ar"]))
    return lines


def _scheduling(detail: Detail) -> list[str]:
    messages = list(detail.get("scheduling_info") or [])
    if not messages:
        return []
    first = line("scheduling info", messages[0])
    return [first] + [" " * KEY_WIDTH + m + "\n" for m in messages[1:]]


def render_detail(detail: Detail) -> str:
    """One job's block, opening rule included."""
    job = detail.get("job") or {}
    parts = [RULE + "\n", *_head(detail), *_spec_lines(job, _SPEC_KEYS)]
    parts.append(line("notify", "TRUE" if job.get("notify") else "FALSE"))
    parts.append(line("job_name", job.get("N", "")))
    parts += _spec_lines(job, _SPEC_KEYS_AFTER_NAME)
    parts += _tail(job)
    parts += _scheduling(detail)
    return "".join(parts)


def render_details(details: Sequence[Detail]) -> str:
    """Every job's block in order."""
    return "".join(render_detail(d) for d in details)


def not_found(missing: Sequence[str]) -> str:
    """What qstat prints on stderr when none of the jobs asked for exists."""
    return f"{NOT_FOUND}\n{', '.join(missing)}\n"
