"""Values of the submit options, checked the same way wherever they come from.

Standard library only: qsub and qalter parse their command line, request
files and ``#$`` lines with these functions, and the core checks every job
specification with :func:`check_spec_values` whatever its source (command
line, client JSV, server JSV, qalter). A bad value raises
:class:`SpecValueError` with Grid Engine's text and the answer status its
parser gives (``STATUS_ESYNTAX`` unless said otherwise).

Spec keys (JSV parameter names, jsv(1)) and their shapes:

==================  =========================  ====================================
option              keys                       value
==================  =========================  ====================================
-binding            binding_type               ``set`` | ``env`` | ``pe``
                    binding_strategy           ``linear_automatic`` | ``linear`` |
                                               ``striding_automatic`` | ``striding``
                                               | ``explicit``
                    binding_amount             int (linear, striding)
                    binding_step               int (striding)
                    binding_socket,            int, the first core (linear,
                    binding_core               striding with ``:<socket>,<core>``)
                    binding_exp_n              int, number of explicit pairs
                    binding_exp_socket<i>,     int, the i-th pair (explicit),
                    binding_exp_core<i>        i from 0
-c                  c_interval                 int seconds
                    c_occasion                 str, letters of ``msx`` or ``n``
-ckpt               ckpt                       str
-dl                 dl                         str ``CCYYMMDDhhmm.SS``
-i                  i                          list[str] ([host:]path)
-js                 js                         int >= 0
-ot                 ot                         int >= 0
-tc                 tc                         int >= 0 (0: no limit)
-hold_jid_ad        hold_jid_ad                list[str] job ids or names
==================  =========================  ====================================
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

SEMANTIC: Final = 2
SYNTAX: Final = 7

BINDING_TYPES: Final = ("set", "env", "pe")
BINDING_STRATEGIES: Final = (
    "linear_automatic",
    "linear",
    "striding_automatic",
    "striding",
    "explicit",
)
BINDING_EXP_KEY: Final = re.compile(r"binding_exp_(socket|core)(\d+)")
BINDING_INTS: Final = frozenset(
    {"binding_amount", "binding_step", "binding_socket", "binding_core", "binding_exp_n"}
)

_TIME = re.compile(r"(\d*):(\d*):(\d*)")
_DATE = re.compile(r"\d{12}\.\d{2}")
_OCCASIONS = frozenset("msx")


class SpecValueError(ValueError):
    """A value Grid Engine refuses; ``str()`` is its message."""

    def __init__(self, message: str, status: int = SYNTAX) -> None:
        super().__init__(message)
        self.status = status


def unsigned(text: str, message: str) -> int:
    """A decimal integer of at least 0, or ``message``."""
    if not re.fullmatch(r"\+?\d+", text.strip()):
        raise SpecValueError(message, SEMANTIC)
    return int(text)


def task_concurrency(text: str) -> int:
    """``-tc``: how many tasks of the array may run at once (0: no limit)."""
    match = re.match(r"\s*([-+]?\d+)", text)
    value = int(match.group(1)) if match else 0
    if match is None or value < 0:
        raise SpecValueError(
            f"invalid task concurrency number {value}. Must be an integer greater or equal to 0."
        )
    return value


def job_share(text: str) -> int:
    """``-js``: the job share, an unsigned integer."""
    return unsigned(text, "ERROR! invalid jobshare, must be an unsigned integer")


def override_tickets(text: str) -> int:
    """``-ot``: override tickets, an unsigned integer."""
    return unsigned(text, "ERROR! invalid override tickets, must be an unsigned integer")


def checkpoint(text: str) -> dict[str, Any]:
    """``-c``: an occasion (letters of ``msx``, or ``n``) or an interval (time)."""
    if text and (text[0].isdigit() or text[0] == ":"):
        seconds = _seconds(text)
        if not seconds:
            raise SpecValueError("ERROR! -c argument invalid", SEMANTIC)
        return {"c_interval": seconds}
    return {"c_occasion": occasion(text)}


def occasion(text: str) -> str:
    """The ``-c`` occasion letters: any of ``m``, ``s``, ``x``, or ``n`` alone."""
    ok = text == "n" or (bool(text) and set(text) <= _OCCASIONS)
    if not ok:
        raise SpecValueError("ERROR! -c specifier invalid", SEMANTIC)
    return "".join(dict.fromkeys(text))


def _seconds(text: str) -> int:
    match = _TIME.fullmatch(text)
    if match:
        h, m, s = (int(part or 0) for part in match.groups())
        return h * 3600 + m * 60 + s
    return int(text) if text.isdigit() else 0


_PATH_LIST_WHAT = {"-o": "stdout path list", "-S": "shell list"}


def path_list(text: str, option: str) -> list[str]:
    """``-i``/``-o``/``-e``/``-S``: ``[host:]path`` items separated by commas.

    ``-i`` is refused with ``-e``'s text, as ``parse_qsub.c`` does.
    """
    items = [item for item in text.split(",") if item]
    if not items or any(item.count(":") > 1 or item.endswith(":") for item in items):
        what = _PATH_LIST_WHAT.get(option, "path list")
        shown = option if option in _PATH_LIST_WHAT else "-e"
        raise SpecValueError(f'ERROR! Wrong {what} format "{text}" specified to {shown} option')
    return items


def job_refs(text: str, option: str) -> list[str]:
    """``-hold_jid``/``-hold_jid_ad``: job ids, names or patterns."""
    items = [item for item in text.split(",") if item]
    if not items:
        suffix = "_ad" if option.endswith("_ad") else ""
        raise SpecValueError(
            f'ERROR! Wrong jid_hold{suffix} list format "{text}" specified to {option} option'
        )
    return items


def binding(words: Sequence[str]) -> dict[str, Any]:
    """``-binding [set|env|pe] linear:..|striding:..|explicit:..`` as binding_* keys."""
    kind, text = ("set", words[-1]) if len(words) == 1 else (words[0], words[1])
    whole = " ".join(words)
    if kind not in BINDING_TYPES:
        raise _bad_binding(whole)
    name, _, rest = text.partition(":")
    parts = rest.split(":") if rest else []
    found: dict[str, Any] = {"binding_type": kind}
    if name == "linear" and 1 <= len(parts) <= 2:
        found.update(_first_core("linear", parts[1:], whole))
        found["binding_amount"] = _positive(parts[0], whole)
    elif name == "striding" and 2 <= len(parts) <= 3:
        found.update(_first_core("striding", parts[2:], whole))
        found["binding_amount"] = _positive(parts[0], whole)
        found["binding_step"] = _positive(parts[1], whole)
    elif name == "explicit" and parts:
        found["binding_strategy"] = "explicit"
        found["binding_exp_n"] = len(parts)
        for index, pair in enumerate(parts):
            socket, core = _pair(pair, whole)
            found[f"binding_exp_socket{index}"] = socket
            found[f"binding_exp_core{index}"] = core
    else:
        raise _bad_binding(whole)
    return found


def _first_core(strategy: str, rest: list[str], whole: str) -> dict[str, Any]:
    if not rest:
        return {"binding_strategy": f"{strategy}_automatic"}
    socket, core = _pair(rest[0], whole)
    return {"binding_strategy": strategy, "binding_socket": socket, "binding_core": core}


def _pair(text: str, whole: str) -> tuple[int, int]:
    socket, comma, core = text.partition(",")
    if not comma or not socket.isdigit() or not core.isdigit():
        raise _bad_binding(whole)
    return int(socket), int(core)


def _positive(text: str, whole: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise _bad_binding(whole)
    return int(text)


def _bad_binding(text: str) -> SpecValueError:
    return SpecValueError(f'ERROR! Wrong binding format "{text}" specified to -binding option')


def binding_text(spec: Mapping[str, Any]) -> str | None:
    """The ``-binding`` argument a spec's binding_* keys stand for, or None."""
    strategy = spec.get("binding_strategy")
    if not strategy:
        return None
    kind = spec.get("binding_type", "set")
    base = str(strategy).replace("_automatic", "")
    if base == "explicit":
        n = int(spec.get("binding_exp_n", 0))
        pairs = [
            f"{spec[f'binding_exp_socket{i}']},{spec[f'binding_exp_core{i}']}" for i in range(n)
        ]
        return f"{kind} explicit:{':'.join(pairs)}"
    text = f"{kind} {base}:{spec.get('binding_amount')}"
    if base == "striding":
        text += f":{spec.get('binding_step')}"
    if not str(strategy).endswith("_automatic"):
        text += f":{spec.get('binding_socket')},{spec.get('binding_core')}"
    return text


def check_spec_values(spec: Mapping[str, Any]) -> None:
    """Check the values of the keys above in a whole job specification."""
    for key in ("tc", "js", "ot", "c_interval"):
        value = spec.get(key)
        if value is not None and (not isinstance(value, int) or value < 0):
            raise SpecValueError(f'invalid value "{value}" for "{key}"')
    if spec.get("c_occasion") is not None:
        occasion(str(spec["c_occasion"]))
    for key, option in (("dl", "-dl"), ("a", "-a")):
        value = spec.get(key)
        if not isinstance(value, str):  # an advance reservation's a is already an epoch
            continue
        if not _DATE.fullmatch(value) or not date_time_epoch(value):
            raise SpecValueError(
                f'ERROR! Wrong date/time format "{value}" specified to {option} option'
            )
    _check_binding(spec)


def _check_binding(spec: Mapping[str, Any]) -> None:
    keys = [k for k in spec if k.startswith("binding_")]
    if not keys:
        return
    text = None
    again: dict[str, Any] | None = None
    try:
        text = binding_text(spec)
        again = binding(text.split(" ", 1)) if text else None
    except (SpecValueError, KeyError, ValueError):
        again = None
    if again is None or any(spec.get(k) != again.get(k) for k in {*keys, *again}):
        shown = text or ",".join(f"{k}={spec[k]}" for k in sorted(keys))
        raise _bad_binding(shown)


def apply_context_ops(context: Mapping[str, str], ops: Iterable[Sequence[str]]) -> dict[str, str]:
    """qalter's ``-ac``/``-dc``/``-sc`` (``context_ops``) applied in order to a context."""
    result = dict(context)
    for op, name, value in ops:
        if op == "=":
            result.clear()
        elif op == "-":
            result.pop(name, None)
        else:
            result[name] = value
    return result


def altered_spec(spec: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A job's specification with qalter's ``changes``.

    The context operations are applied to the job's own context, and a new
    ``-binding`` replaces every ``binding_*`` key of the old one.
    """
    new = {**spec, **changes}
    ops = new.pop("context_ops", None)
    if ops is not None:
        new["ac"] = apply_context_ops(spec.get("ac") or {}, ops)
    if any(key.startswith("binding_") for key in changes):
        new = {k: v for k, v in new.items() if not k.startswith("binding_") or k in changes}
    return new


def date_time_epoch(value: object) -> float | None:
    """The epoch of a normalised ``CCYYMMDDhhmm.SS`` in local time, or ``None``."""
    try:
        return time.mktime(time.strptime(str(value), "%Y%m%d%H%M.%S"))
    except (ValueError, OverflowError):
        return None


def not_before(spec: Mapping[str, Any]) -> float | None:
    """When a job may start at the earliest (``-a``), or ``None`` for at once."""
    return date_time_epoch(spec["a"]) if spec.get("a") else None
