"""``-binding`` (qsub, qalter, a JSV's ``binding_*`` parameters), as Grid Engine 6.2u5 parses it.

Standard library only, like :mod:`qmaster.gdi.values`: the grammar parses the
option with :func:`binding`, and :func:`check_binding` checks the ``binding_*``
keys of a whole job specification (whatever set them) by parsing the option
text they stand for again. Binding has no effect on a simulated host: it is
stored, shown by ``qstat -j`` and passed to JSVs.

Spec keys (jsv(1)): ``binding_type`` (``set`` | ``env`` | ``pe``),
``binding_strategy`` (``linear_automatic``, ``linear``, ``striding_automatic``,
``striding``, ``explicit``), ``binding_amount`` and ``binding_step`` (ints),
``binding_socket``/``binding_core`` (the first core of ``linear`` and
``striding`` with ``:<socket>,<core>``), ``binding_exp_n`` and the pairs
``binding_exp_socket<i>``/``binding_exp_core<i>`` (``explicit``, i from 0).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from qmaster.digits import is_digits
from qmaster.gdi.values import OptionError, bad_value

BINDING_TYPES: Final = ("set", "env", "pe")
BINDING_EXP_KEY: Final = re.compile(r"binding_exp_(socket|core)(\d+)")
BINDING_INTS: Final = frozenset(
    {"binding_amount", "binding_step", "binding_socket", "binding_core", "binding_exp_n"}
)


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
    if not comma or not is_digits(socket) or not is_digits(core):
        raise _bad_binding(whole)
    return int(socket), int(core)


def _positive(text: str, whole: str) -> int:
    if not is_digits(text) or int(text) < 1:
        raise _bad_binding(whole)
    return int(text)


def _bad_binding(text: str) -> OptionError:
    return bad_value(f'ERROR! Wrong binding format "{text}" specified to -binding option')


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


def check_binding(spec: Mapping[str, Any]) -> None:
    """The ``binding_*`` keys of ``spec`` form one ``-binding`` Grid Engine would accept."""
    keys = [k for k in spec if k.startswith("binding_")]
    if not keys:
        return
    text = None
    again: dict[str, Any] | None = None
    try:
        text = binding_text(spec)
        again = binding(text.split(" ", 1)) if text else None
    except (OptionError, KeyError, ValueError):
        again = None
    if again is None or any(spec.get(k) != again.get(k) for k in {*keys, *again}):
        shown = text or ",".join(f"{k}={spec[k]}" for k in sorted(keys))
        raise _bad_binding(shown)
