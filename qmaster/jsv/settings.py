"""The server JSV's limits from the global configuration: ``jsv_timeout`` and ``jsv_threshold``.

sge_conf(5) lists both among ``qmaster_params`` (``jsv_timeout=10,jsv_threshold=5000``;
the timeout in seconds, greater than 0, default 10; the threshold in
milliseconds, 0 logs every verification, default 5000). Cells made before
minige read them there still carry them as top-level keys: those are read
when ``qmaster_params`` does not set the value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_TIMEOUT = 10
DEFAULT_THRESHOLD_MS = 5000
_SPLIT = re.compile(r"[,;\s]+")


@dataclass(frozen=True, slots=True)
class JsvLimits:
    """How long a server JSV may take (s), and from when a verification is logged (ms)."""

    timeout: float = DEFAULT_TIMEOUT
    threshold_ms: int = DEFAULT_THRESHOLD_MS


def qmaster_params(text: str) -> dict[str, str]:
    """``qmaster_params`` as a dict with lower-case names (``NONE`` is empty)."""
    found: dict[str, str] = {}
    for item in _SPLIT.split(text.strip()):
        name, _, value = item.partition("=")
        if name and name.lower() not in ("none", "undefined"):
            found[name.lower()] = value
    return found


def jsv_limits(attrs: Mapping[str, str]) -> JsvLimits:
    """The limits a global configuration's attributes give (bad values fall back to defaults)."""
    params = qmaster_params(attrs.get("qmaster_params", "none"))
    timeout = _number(params.get("jsv_timeout", attrs.get("jsv_timeout")), DEFAULT_TIMEOUT)
    threshold = _number(
        params.get("jsv_threshold", attrs.get("jsv_threshold")), DEFAULT_THRESHOLD_MS
    )
    return JsvLimits(
        timeout=float(timeout) if timeout > 0 else DEFAULT_TIMEOUT,
        threshold_ms=threshold if threshold >= 0 else DEFAULT_THRESHOLD_MS,
    )


def _number(text: str | None, default: int) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        return default
