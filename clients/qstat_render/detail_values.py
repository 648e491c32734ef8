"""How ``qstat -j`` writes the values of a job's fields, as ``show_job.c`` prints them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_MAIL_ORDER = "abens"
_CKPT_ORDER = "msxn"
_VERIFY = {"e": 1, "w": 2, "v": 3, "p": 4}


def pairs(mapping: Mapping[str, Any]) -> str:
    """``a=1,b=2``."""
    return ",".join(f"{k}={v}" for k, v in mapping.items())


def _split(item: str) -> tuple[str, str]:
    if item.startswith(":"):
        return "NONE", item[1:]
    host, sep, path = item.partition(":")
    return (host, path) if sep else ("NONE", item)


def paths(items: Sequence[str] | str, *, staged: bool) -> str:
    """A path list: ``host:path`` (``NONE`` for no host); output paths also carry the
    file host (``NONE:NONE:/path``). Grid Engine stops after the first element of
    an output path list, whose file staging field its printer cannot show."""
    entries = [items] if isinstance(items, str) else list(items)
    if not entries:
        return ""
    if staged:
        host, path = _split(str(entries[0]))
        return f"{host}:NONE:{path}"
    return ",".join("{}:{}".format(*_split(str(item))) for item in entries)


def mail_options(value: str) -> str:
    """The mail letters in Grid Engine's order (``a b e n s``)."""
    return "".join(ch for ch in _MAIL_ORDER if ch in str(value))


def checkpoint_attr(value: str) -> str:
    """The checkpoint occasion letters in Grid Engine's order, then four blanks."""
    return "".join(ch for ch in _CKPT_ORDER if ch in str(value)) + "    "


def seconds(value: object) -> int:
    """A time value (``[[h:]m:]s`` or seconds) as whole seconds."""
    text = str(value).strip()
    total = 0.0
    try:
        for part in text.split(":"):
            total = total * 60 + float(part or 0)
    except ValueError:
        return 0
    return int(total)


def verify_level(value: object) -> int:
    """``-w e|w|v|p`` as ``verify_suitable_queues`` numbers it (0: none)."""
    return _VERIFY.get(str(value or "n"), 0)


def cpu_time(value: float) -> str:
    """``HH:MM:SS``, with days in front past one day, as usage times are printed."""
    total = int(value)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}:{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{hours:02d}:{minutes:02d}:{secs:02d}"


def _memory(value: float) -> str:
    if value == 0:
        return "N/A"
    for unit, size in (("G", 1024.0**3), ("M", 1024.0**2), ("K", 1024.0)):
        if value >= size:
            return f"{value / size:.3f}{unit}"
    return f"{value:.3f}"


def usage_text(usage: Mapping[str, float]) -> str:
    """``cpu=00:00:05, mem=0.00000 GBs, io=0.00000, vmem=N/A, maxvmem=N/A``."""
    return (
        f"cpu={cpu_time(float(usage.get('cpu', 0)))}, "
        f"mem={float(usage.get('mem', 0)):<5.5f} GBs, io={float(usage.get('io', 0)):<5.5f}, "
        f"vmem={_memory(float(usage.get('vmem', 0)))}, "
        f"maxvmem={_memory(float(usage.get('maxvmem', 0)))}"
    )


def binding_text(job: Mapping[str, Any]) -> str:
    """The job's ``-binding`` request as ``binding_print_to_string`` writes it (``NONE``)."""
    strategy = str(job.get("binding_strategy") or "no_job_binding")
    if strategy == "no_job_binding":
        return "NONE"
    kind = {"set": "set ", "pe": "pe ", "env": "env "}.get(str(job.get("binding_type") or "set"))
    n, step = job.get("binding_amount", 0), job.get("binding_step", 0)
    start = f"{job.get('binding_socket', 0)},{job.get('binding_core', 0)}"
    text = {
        "linear_automatic": f"linear:{n}",
        "linear": f"linear:{n}:{start}",
        "striding_automatic": f"striding:{n}:{step}",
        "striding": f"striding:{n}:{step}:{start}",
        "explicit": ":".join(
            f"{job.get(f'binding_exp_socket{i}', 0)},{job.get(f'binding_exp_core{i}', 0)}"
            for i in range(int(job.get("binding_exp_n") or 0))
        ),
    }.get(strategy, "")
    return (kind or "NONE") + text
